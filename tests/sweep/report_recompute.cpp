// tests/sweep/report_recompute.cpp — an independent recomputation of report.json's figures.
//
// Deliberately written apart from daemon/sweep/report: it reads the files on disk (the plan and
// the result records), takes verdicts, flags and speedups from each record's evaluator JSON,
// and derives the figures from their definitions in docs/report-schema.md.
#include "report_recompute.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace kbv::sweep::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kRelativeTolerance = 1e-12;
constexpr int kSteps = 30;     // p = 0, 0.1, …, 3
constexpr double kPMax = 3.0;

json load(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

// What one planned evaluation amounts to, read from its files.
struct Row {
  std::string key, model, problem;
  int level = 0;  // as evaluated once known, else as planned
  std::string prior_verdict;
  bool evaluated = false;
  std::string verdict, hack_pattern;
  std::vector<std::string> flags;
  std::map<std::string, json> speedups;  // baseline -> number or null
  json memory_ratio;
};

std::vector<Row> rows_of(const fs::path& out, std::uint64_t epoch) {
  const auto plans = out / ("epoch-" + std::to_string(epoch)) / "plans";
  json plan;
  std::string newest;
  for (const auto& entry : fs::directory_iterator(plans)) {
    const auto name = entry.path().filename().string();
    if (name.find(".shard-") != std::string::npos || name.starts_with(".") || entry.path().extension() != ".json") continue;
    const auto candidate = load(entry.path());
    const auto stamp = candidate["created_at"].get<std::string>() + candidate["plan_id"].get<std::string>();
    if (stamp > newest) {
      newest = stamp;
      plan = candidate;
    }
  }
  std::vector<Row> rows;
  for (const auto& item : plan["items"]) {
    Row row;
    row.key = item["key"];
    row.model = item["candidate"]["model"];
    row.problem = item["candidate"]["problem"];
    row.level = item["candidate"]["level"];
    row.prior_verdict = item["prior_verdict"];
    const auto record_path = out / ("epoch-" + std::to_string(epoch)) / "results" / (row.key + ".json");
    if (fs::exists(record_path)) {
      const auto record = load(record_path);
      EXPECT_EQ(record["key"], row.key);
      EXPECT_EQ(record["epoch"], epoch);
      row.evaluated = true;
      const auto& evaluation = record["evaluation"];
      // The record's verdict decides; the evaluator's report lends figures only when it agrees.
      row.verdict = record["verdict"];
      const bool agrees = evaluation.is_object() && evaluation["verdict"] == record["verdict"];
      const json& source = agrees ? evaluation : record;
      if (source["hack_pattern"].is_string()) row.hack_pattern = source["hack_pattern"];
      for (const auto& flag : source["flags"]) row.flags.push_back(flag);
      if (evaluation.is_object()) {
        EXPECT_EQ(evaluation["epoch"], epoch) << row.key << ": the evaluator ran in the sweep's epoch";
        if (evaluation["problem"]["name"].is_string() && !evaluation["problem"]["name"].get<std::string>().empty())
          row.problem = evaluation["problem"]["name"];
        if (evaluation["problem"]["level"].is_number() && evaluation["problem"]["level"].get<int>() > 0) row.level = evaluation["problem"]["level"];
        if (agrees) {
          for (const auto& [name, value] : evaluation["speedup"].items()) {
            const std::string baseline = name.substr(3);
            row.speedups[baseline == "tf32" || baseline == "fp32" ? "library_" + baseline : baseline] = value;  // schema 1's names
          }
          if (evaluation["memory"].is_object() && evaluation["memory"].contains("ratio")) row.memory_ratio = evaluation["memory"]["ratio"];
        }
      }
    }
    rows.push_back(row);
  }
  return rows;
}

class Compare {
 public:
  void number(const json& reported, std::optional<double> expected, const std::string& what) {
    ++count_;
    if (!expected) {
      EXPECT_TRUE(reported.is_null()) << what << ": expected null, report has " << reported;
      return;
    }
    ASSERT_TRUE(reported.is_number()) << what << ": expected " << *expected << ", report has " << reported;
    EXPECT_NEAR(reported.get<double>(), *expected, kRelativeTolerance * std::max(1.0, std::abs(*expected))) << what;
  }
  void equal(const json& reported, const json& expected, const std::string& what) {
    ++count_;
    EXPECT_EQ(reported, expected) << what;
  }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

std::optional<double> geomean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double log_sum = 0;
  for (const double x : v) log_sum += std::log(x);
  return std::exp(log_sum / static_cast<double>(v.size()));
}

// The figures of a group of rows, compared with the report's object for the group.
void check_group(Compare& c, const json& reported, const std::vector<const Row*>& rows, const std::vector<std::string>& baselines,
                 const std::string& label) {
  int evaluated = 0, passed = 0, public_only = 0, regressions = 0;
  std::map<std::string, int> verdicts, hacks, flags;
  std::vector<double> memory;
  for (const Row* r : rows) {
    if (!r->evaluated) continue;
    ++evaluated;
    ++verdicts[r->verdict];
    if (r->verdict == "pass") {
      ++passed;
      if (r->memory_ratio.is_number() && r->memory_ratio.get<double>() > 0) memory.push_back(r->memory_ratio.get<double>());
    }
    if (r->verdict == "hack_suspected") ++hacks[r->hack_pattern.empty() ? "unnamed" : r->hack_pattern];
    for (const auto& f : r->flags) ++flags[f];
    if (std::find(r->flags.begin(), r->flags.end(), "passes_public_inputs_only") != r->flags.end()) ++public_only;
    if (r->prior_verdict == "pass" && r->verdict != "pass") ++regressions;
  }
  c.equal(reported["planned"], rows.size(), label + " planned");
  c.equal(reported["evaluated"], evaluated, label + " evaluated");
  c.equal(reported["passed"], passed, label + " passed");
  c.number(reported["correctness_rate"], evaluated ? std::optional<double>(double(passed) / evaluated) : std::nullopt, label + " correctness_rate");
  c.equal(reported["verdicts"], json(verdicts), label + " verdicts");
  c.equal(reported["hacks"], json(hacks), label + " hacks");
  c.equal(reported["flags"], json(flags), label + " flags");
  c.equal(reported["passes_public_inputs_only"], public_only, label + " passes_public_inputs_only");
  c.equal(reported["regressions"], regressions, label + " regressions");
  c.equal(reported["memory_ratio"]["count"], memory.size(), label + " memory count");
  c.number(reported["memory_ratio"]["geomean"], geomean(memory), label + " memory geomean");
  c.number(reported["memory_ratio"]["max"], memory.empty() ? std::nullopt : std::optional<double>(*std::max_element(memory.begin(), memory.end())),
           label + " memory max");
  for (const auto& b : baselines) {
    std::vector<double> speedups;
    for (const Row* r : rows)
      if (r->evaluated && r->verdict == "pass" && r->speedups.count(b) && r->speedups.at(b).is_number() && r->speedups.at(b).get<double>() > 0)
        speedups.push_back(r->speedups.at(b).get<double>());
    const auto& figures = reported["speedup"][b];
    c.equal(figures["timed_passes"], speedups.size(), label + " " + b + " timed_passes");
    c.number(figures["geomean"], geomean(speedups), label + " " + b + " geomean");
    // fast_p only where every pass has a figure against b (else a pass without one counts as slower).
    const bool covered = static_cast<int>(speedups.size()) == passed;
    c.equal(figures["fast_p_withheld"].is_null(), covered, label + " " + b + " fast_p withheld");
    for (int i = 0; i <= kSteps; ++i) {
      const double p = kPMax * i / kSteps;
      const auto faster = std::count_if(speedups.begin(), speedups.end(), [&](double s) { return s > p; });
      c.number(figures["fast_p"][static_cast<std::size_t>(i)], evaluated && covered ? std::optional<double>(double(faster) / evaluated) : std::nullopt,
               label + " " + b + " fast_p[" + std::to_string(i) + "]");
    }
  }
}

}  // namespace

int expect_report_matches_records(const json& report, const fs::path& out, std::uint64_t epoch) {
  Compare c;
  const auto rows = rows_of(out, epoch);
  c.equal(report["sweep"]["epoch"], epoch, "epoch");

  // Baselines: every vs_NAME any evaluation reports; those with a figure, then the others.
  std::set<std::string> named, with_figure;
  for (const auto& r : rows)
    for (const auto& [name, value] : r.speedups) {
      named.insert(name);
      if (value.is_number()) with_figure.insert(name);
    }
  std::set<std::string> reported_with(report["baselines"].begin(), report["baselines"].end());
  std::set<std::string> reported_without(report["baselines_without_figures"].begin(), report["baselines_without_figures"].end());
  c.equal(json(reported_with), json(with_figure), "baselines with figures");
  std::set<std::string> without;
  for (const auto& n : named)
    if (!with_figure.count(n)) without.insert(n);
  c.equal(json(reported_without), json(without), "baselines without figures");
  const std::vector<std::string> baselines = report["baselines"];
  // The headline baseline: the first reported one with a figure for every pass.
  std::string headline;
  for (const auto& b : baselines) {
    bool every_pass = true;
    for (const auto& r : rows)
      if (r.evaluated && r.verdict == "pass") every_pass = every_pass && r.speedups.count(b) && r.speedups.at(b).is_number() && r.speedups.at(b).get<double>() > 0;
    if (every_pass && headline.empty()) headline = b;
  }
  c.equal(report["headline"]["baseline"], headline.empty() ? json(nullptr) : json(headline), "headline baseline");

  // Completeness.
  const auto evaluated = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.evaluated; });
  c.equal(report["completeness"]["planned"], rows.size(), "planned");
  c.equal(report["completeness"]["evaluated"], evaluated, "evaluated");
  c.equal(report["completeness"]["complete"], evaluated == static_cast<long>(rows.size()), "complete");

  // Per model and in all.
  std::map<std::string, std::vector<const Row*>> by_model;
  std::vector<const Row*> all;
  for (const auto& r : rows) {
    by_model[r.model].push_back(&r);
    all.push_back(&r);
  }
  c.equal(report["models"].size(), by_model.size(), "number of models");
  for (const auto& m : report["models"]) {
    const std::string model = m["model"];
    if (!by_model.count(model)) {
      ADD_FAILURE() << "report has a model no record has: " << model;
      continue;
    }
    check_group(c, m, by_model[model], baselines, "model " + model);
    if (!headline.empty()) c.equal(report["headline"]["fast_1"][model], m["speedup"][headline]["fast_p"][10], "headline fast_1 " + model);
  }
  check_group(c, report["totals"], all, baselines, "totals");
  std::map<std::pair<int, std::string>, std::vector<const Row*>> by_level;
  for (const auto& r : rows) by_level[{r.level, r.model}].push_back(&r);
  c.equal(report["levels"].size(), by_level.size(), "number of level x model groups");
  for (const auto& l : report["levels"]) {
    const std::pair<int, std::string> group{l["level"].get<int>(), l["model"].get<std::string>()};
    check_group(c, l, by_level[group], baselines, "level " + std::to_string(group.first) + " " + group.second);
  }

  // Problem × model cells.
  std::map<std::pair<std::string, std::string>, std::vector<const Row*>> cells;
  for (const auto& r : rows) cells[{r.problem.empty() ? "(declared)" : r.problem, r.model}].push_back(&r);
  std::size_t reported_cells = 0;
  for (const auto& p : report["problems"])
    for (const auto& cell : p["models"]) {
      ++reported_cells;
      const auto& group = cells[{p["problem"], cell["model"]}];
      c.equal(cell["planned"], group.size(), "cell planned");
      c.equal(cell["evaluated"], std::count_if(group.begin(), group.end(), [](const Row* r) { return r->evaluated; }), "cell evaluated");
      c.equal(cell["passed"], std::count_if(group.begin(), group.end(), [](const Row* r) { return r->evaluated && r->verdict == "pass"; }), "cell passed");
      for (const auto& b : baselines) {
        std::vector<double> speedups;
        for (const Row* r : group)
          if (r->evaluated && r->verdict == "pass" && r->speedups.count(b) && r->speedups.at(b).is_number()) speedups.push_back(r->speedups.at(b).get<double>());
        c.number(cell["geomean_speedup"][b], geomean(speedups), "cell " + p["problem"].get<std::string>() + " x " + cell["model"].get<std::string>() + " " + b);
      }
    }
  c.equal(reported_cells, cells.size(), "number of problem x model cells");

  // Lists: the public-vs-hidden gap, regressions, rows.
  std::set<std::string> public_only, regressions, reported_public, reported_regressions;
  for (const auto& r : rows) {
    if (!r.evaluated) continue;
    if (std::find(r.flags.begin(), r.flags.end(), "passes_public_inputs_only") != r.flags.end()) public_only.insert(r.key);
    if (r.prior_verdict == "pass" && r.verdict != "pass") regressions.insert(r.key);
  }
  for (const auto& g : report["public_hidden_gap"]["candidates"]) reported_public.insert(g["key"]);
  for (const auto& g : report["regressions"]) reported_regressions.insert(g["key"]);
  c.equal(json(reported_public), json(public_only), "public_hidden_gap keys");
  c.equal(json(reported_regressions), json(regressions), "regression keys");
  c.equal(report["headline"]["regressions"], regressions.size(), "headline regressions");
  c.equal(report["candidates"].size(), rows.size(), "candidate rows");
  for (std::size_t i = 0; i < rows.size() && i < report["candidates"].size(); ++i) {
    const auto& row = report["candidates"][i];
    c.equal(row["key"], rows[i].key, "row key");
    c.equal(row["verdict"], rows[i].evaluated ? json(rows[i].verdict) : json(nullptr), "row verdict " + rows[i].key);
    for (const auto& [b, value] : rows[i].speedups) c.equal(row["speedup"][b], value, "row speedup " + rows[i].key + " " + b);
  }
  return c.count();
}

}  // namespace kbv::sweep::test
