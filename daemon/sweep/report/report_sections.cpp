// daemon/sweep/report/report_sections.cpp — the report's text, section by section.
#include "sweep/report/report_sections.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "client/json_dump.hpp"
#include "sweep/report/report_builder.hpp"

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

// fast_p points shown in tables: KernelBench's (0, 0.5, 0.8, 1, 1.5, 2) and the curve's end.
const std::vector<int>& table_steps() {
  static const std::vector<int> steps = {0, 5, 8, 10, 15, 20, 30};
  return steps;
}

std::string text(const json& value) {
  if (value.is_null()) return "–";
  if (value.is_string()) return value.get<std::string>();
  return control::json_dump(value);
}

std::string count_map(const json& counts) {
  std::string out;
  for (const auto& [name, n] : counts.items()) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n.get<int>(), name);
  return out.empty() ? "–" : out;
}

std::string candidate_label(const json& row) {
  const auto name = row.value("name", "");
  const auto key = row.value("key", "");
  return fmt::format("{} ({})", name.empty() ? key.substr(0, 12) : name, key.substr(0, 12));
}

Section overview(const json& report) {
  const auto& sweep = report["sweep"];
  const auto& done = report["completeness"];
  Section s{"overview", fmt::format("kbv sweep report: {}, epoch {}", sweep.value("name", ""), text(sweep["epoch"])), {}, {}, false};
  s.paragraphs.push_back(fmt::format("Generated {} by kbv {} from {} ({} mode). Plan {}; secret key id {}; re-verification window {} epochs.",
                                     text(report["generated_at"]), text(report["kbv_version"]), text(sweep["source"]),
                                     text(sweep["mode"]), text(sweep["plan_id"]), text(sweep["key_id"]), text(sweep["reverify_epochs"])));
  std::string completeness = fmt::format("{} of {} planned evaluations have a verdict for epoch {}.", text(done["evaluated"]),
                                         text(done["planned"]), text(sweep["epoch"]));
  if (!done["complete"].get<bool>())
    completeness += fmt::format(" INCOMPLETE: {} not evaluated{}.", text(done["not_evaluated"]),
                                done["stopped_because"].is_null() ? "" : " (" + text(done["stopped_because"]) + ")");
  s.paragraphs.push_back(completeness);
  const auto& shards = done["shards"];
  if (shards.value("count", 1) > 1)
    s.paragraphs.push_back(fmt::format("Shards: {} in all; complete {}; incomplete {}; missing {}.", text(shards["count"]),
                                       control::json_dump(shards["complete"]), control::json_dump(shards["incomplete"]), control::json_dump(shards["missing"])));
  return s;
}

Section headline(const json& report) {
  const auto& h = report["headline"];
  Section s{"headline", "Headline", {}, {}, false};
  if (h["baseline"].is_null()) {
    s.paragraphs.push_back("No fast_1 figure: " + text(h["baseline_note"]) + ".");
  } else {
    s.paragraphs.push_back(fmt::format("fast_1 (correct and faster than the baseline) against {} ({}).", text(h["baseline"]), text(h["baseline_note"])));
    Table t{{"model", "fast_1 vs " + text(h["baseline"])}, {}};
    for (const auto& [model, value] : h["fast_1"].items()) t.rows.push_back({model_label(model), percent_text(value)});
    s.tables.push_back(t);
  }
  s.paragraphs.push_back(fmt::format("Regressions (a pass in the last {} epochs that fails now): {}.", text(report["sweep"]["reverify_epochs"]),
                                     text(h["regressions"])));
  return s;
}

Section models(const json& report) {
  Section s{"models", "Per model", {}, {}, false};
  s.paragraphs.push_back("Correctness rate: passes over evaluated candidates. Speedups are geometric means over passing candidates "
                         "with a figure against that baseline (n of the passes); fast_p counts a candidate that passes and is more than p times "
                         "as fast as the baseline, over all evaluated candidates, and is given (else –) only where every pass has a figure "
                         "against that baseline: a pass on a problem with no calibration would count as slower. Memory ratio: the candidate's peak device memory over the "
                         "baseline's (geometric mean over passes that report it).");
  Table t{{"model", "evaluated", "passed", "correctness"}, {}};
  const auto& baselines = report["baselines"];
  for (const auto& b : baselines) {
    t.header.push_back("geomean vs " + b.get<std::string>());
    t.header.push_back("fast_1 vs " + b.get<std::string>());
  }
  for (const char* h : {"memory ratio", "hacks", "flags", "passes public only", "regressions"}) t.header.push_back(h);
  auto add = [&](const std::string& label, const json& m) {
    std::vector<std::string> row = {label, text(m["evaluated"]), text(m["passed"]), percent_text(m["correctness_rate"])};
    for (const auto& b : baselines) {
      const auto& figures = m["speedup"][b.get<std::string>()];
      row.push_back(speedup_text(figures["geomean"]) + fmt::format(" (n={} of {})", figures["timed_passes"].get<int>(), m["passed"].get<int>()));
      row.push_back(percent_text(figures["fast_p"][kFastPStepOfOne]));
    }
    row.push_back(speedup_text(m["memory_ratio"]["geomean"]));
    row.push_back(count_map(m["hacks"]));
    row.push_back(count_map(m["flags"]));
    row.push_back(text(m["passes_public_inputs_only"]));
    row.push_back(text(m["regressions"]));
    t.rows.push_back(row);
  };
  for (const auto& m : report["models"]) add(model_label(m["model"].get<std::string>()), m);
  add("all", report["totals"]);
  s.tables.push_back(t);
  if (!report["baselines_without_figures"].empty())
    s.paragraphs.push_back("Baselines named without any figure in these evaluations: " + control::json_dump(report["baselines_without_figures"]) + ".");
  return s;
}

Section levels(const json& report) {
  Section s{"levels", "Per level and model", {}, {}, false};
  s.paragraphs.push_back("The same figures per KernelBench level (level – : the problem was never known, e.g. the candidate did not load).");
  Table t{{"level", "model", "evaluated", "passed", "correctness"}, {}};
  for (const auto& b : report["baselines"]) {
    t.header.push_back("geomean vs " + b.get<std::string>());
    t.header.push_back("fast_1 vs " + b.get<std::string>());
  }
  t.header.push_back("memory ratio");
  t.header.push_back("hacks");
  for (const auto& l : report["levels"]) {
    std::vector<std::string> row = {l["level"].get<int>() > 0 ? text(l["level"]) : "–", model_label(l["model"].get<std::string>()),
                                    text(l["evaluated"]), text(l["passed"]), percent_text(l["correctness_rate"])};
    for (const auto& b : report["baselines"]) {
      const auto& figures = l["speedup"][b.get<std::string>()];
      row.push_back(speedup_text(figures["geomean"]));
      row.push_back(percent_text(figures["fast_p"][kFastPStepOfOne]));
    }
    row.push_back(speedup_text(l["memory_ratio"]["geomean"]));
    row.push_back(count_map(l["hacks"]));
    t.rows.push_back(row);
  }
  s.tables.push_back(t);
  return s;
}

Section fast_p(const json& report) {
  Section s{"fast_p", "fast_p curves", {}, {}, false};
  s.paragraphs.push_back("Fraction of evaluated candidates that pass and are more than p times as fast as the baseline, p from 0 to 3 "
                         "(– where some pass has no figure against that baseline).");
  for (const auto& b : report["baselines"]) {
    const auto baseline = b.get<std::string>();
    Table t{{"model (vs " + baseline + ")"}, {}};
    for (const int step : table_steps()) t.header.push_back(fmt::format("p={:g}", fast_p_point(step)));
    for (const auto& m : report["models"]) {
      std::vector<std::string> row = {model_label(m["model"].get<std::string>())};
      for (const int step : table_steps()) row.push_back(percent_text(m["speedup"][baseline]["fast_p"][static_cast<std::size_t>(step)]));
      t.rows.push_back(row);
    }
    s.tables.push_back(t);
  }
  if (report["baselines"].empty()) s.paragraphs.push_back("No baseline has figures in these evaluations.");
  return s;
}

Section problems(const json& report) {
  Section s{"problems", "Speedup by problem and model", {}, {}, false};
  const auto& baselines = report["baselines"];
  if (baselines.empty()) {
    s.paragraphs.push_back("No baseline has figures in these evaluations.");
    return s;
  }
  const auto baseline = baselines.front().get<std::string>();
  s.paragraphs.push_back(fmt::format("Geometric-mean speedup against {} of the passing candidates (passed/evaluated).", baseline));
  Table t{{"problem", "level"}, {}};
  std::vector<std::string> models;
  for (const auto& m : report["models"]) {
    models.push_back(m["model"].get<std::string>());
    t.header.push_back(model_label(models.back()));
  }
  for (const auto& p : report["problems"]) {
    std::vector<std::string> row = {text(p["problem"]), p["level"].get<int>() > 0 ? text(p["level"]) : "–"};
    for (const auto& model : models) {
      std::string cell = "";
      for (const auto& c : p["models"])
        if (c["model"] == model)
          cell = speedup_text(c["geomean_speedup"][baseline]) + fmt::format(" ({}/{})", c["passed"].get<int>(), c["evaluated"].get<int>());
      row.push_back(cell);
    }
    t.rows.push_back(row);
  }
  s.tables.push_back(t);
  return s;
}

Section hacks(const json& report) {
  Section s{"hacks", "Hacks and flags", {}, {}, false};
  s.paragraphs.push_back("hack_suspected verdicts by pattern, and flags raised for review (any verdict), per model.");
  Table t{{"kind", "name"}, {}};
  std::vector<std::string> models;
  for (const auto& m : report["models"]) {
    models.push_back(m["model"].get<std::string>());
    t.header.push_back(model_label(models.back()));
  }
  for (const char* kind : {"hacks", "flags"}) {
    const auto& all = report["totals"][kind];
    for (const auto& [name, n] : all.items()) {
      std::vector<std::string> row = {kind == std::string("hacks") ? "hack" : "flag", name};
      for (const auto& m : report["models"]) row.push_back(std::to_string(m[kind].value(name, 0)));
      t.rows.push_back(row);
    }
  }
  if (t.rows.empty()) s.paragraphs.push_back("No hack suspected and no flag raised.");
  else s.tables.push_back(t);
  return s;
}

Section public_gap(const json& report) {
  Section s{"public_gap", "Public vs hidden inputs", {}, {}, false};
  const auto& rows = report["public_hidden_gap"]["candidates"];
  s.paragraphs.push_back(fmt::format("{} candidates pass on the public inputs (U[0,1), as KernelBench draws them) but fail on a hidden family "
                                     "(flag passes_public_inputs_only): a KernelBench-style harness would have called them correct.",
                                     rows.size()));
  if (!rows.empty()) {
    Table t{{"candidate", "model", "problem", "verdict", "failed family"}, {}};
    for (const auto& r : rows) t.rows.push_back({candidate_label(r), model_label(r["model"]), text(r["problem"]), text(r["verdict"]), text(r["failed_family"])});
    s.tables.push_back(t);
  }
  return s;
}

Section regressions(const json& report) {
  const auto& rv = report["reverification"];
  Section s{"regressions", "Re-verification and regressions", {}, {}, false};
  s.paragraphs.push_back(fmt::format("Candidates that passed in the last {} epochs and were not found again this time: {} re-verified, {} of "
                                     "{} evaluated still pass. Regressions (latest verdict in the window was pass, this epoch's is not): {}.",
                                     text(rv["window_epochs"]), text(rv["planned"]), text(rv["still_pass"]), text(rv["evaluated"]),
                                     text(rv["regressions"])));
  if (!report["regressions"].empty()) {
    Table t{{"candidate", "model", "problem", "passed in epoch", "verdict now", "failed family", "detail"}, {}};
    for (const auto& r : report["regressions"])
      t.rows.push_back({candidate_label(r), model_label(r["model"]), text(r["problem"]), text(r["prior_epoch"]), text(r["verdict"]),
                        text(r["failed_family"]), text(r["detail"])});
    s.tables.push_back(t);
  }
  return s;
}

Section comparison(const json& report) {
  Section s{"comparison", "Against the previous sweep", {}, {}, false};
  const auto& c = report["comparison"];
  if (c.is_null()) {
    s.paragraphs.push_back("No previous sweep to compare with.");
    return s;
  }
  const auto& n = c["counts"];
  s.paragraphs.push_back(fmt::format("Previous sweep: {} (epoch {}, generated {}). {} candidates in both, {} new, {} no longer evaluated. "
                                     "New passes: {}; regressions after rotation: {}; verdict changes: {}.",
                                     text(c["previous_run"]), text(c["previous_epoch"]), text(c["previous_generated_at"]), text(n["in_both"]),
                                     text(n["only_now"]), text(n["only_previous"]), text(n["new_passes"]),
                                     text(n["regressions_after_rotation"]), text(n["verdict_changes"])));
  const auto list = [&](const char* key, const std::string& title) {
    if (c[key].empty()) return;
    Table t{{title, "model", "problem", "before", "now"}, {}};
    for (const auto& r : c[key]) t.rows.push_back({candidate_label(r), model_label(r["model"]), text(r["problem"]), text(r["previous_verdict"]), text(r["verdict"])});
    s.tables.push_back(t);
  };
  list("new_passes", "new pass");
  list("regressions_after_rotation", "regression after rotation");
  list("verdict_changes", "verdict change");
  return s;
}

Section issues(const json& report) {
  Section s{"issues", "Input issues", {}, {}, false};
  const auto& list = report["issues"];
  s.paragraphs.push_back(list.empty() ? std::string("None: every source, manifest and candidate file was usable.")
                                      : fmt::format("{} pieces of input were left out; the rest of the sweep ran.", list.size()));
  if (!list.empty()) {
    Table t{{"file", "field", "problem", "fix"}, {}};
    for (const auto& i : list) t.rows.push_back({text(i["file"]), text(i["field"]), text(i["problem"]), text(i["fix"])});
    s.tables.push_back(t);
  }
  return s;
}

Section not_evaluated(const json& report) {
  Section s{"not_evaluated", "Not evaluated", {}, {}, true};
  const auto& list = report["not_evaluated"];
  s.paragraphs.push_back(list.empty() ? std::string("Every planned evaluation has a verdict.")
                                      : fmt::format("{} planned evaluations have no verdict for this epoch yet.", list.size()));
  if (!list.empty()) {
    Table t{{"candidate", "model", "problem"}, {}};
    for (const auto& r : list) t.rows.push_back({candidate_label(r), model_label(r["model"]), text(r["problem"])});
    s.tables.push_back(t);
  }
  return s;
}

Section candidates(const json& report) {
  Section s{"candidates", "Every candidate", {}, {}, true};
  const auto& baselines = report["baselines"];
  Table t{{"candidate", "model", "problem", "role", "verdict", "flags"}, {}};
  for (const auto& b : baselines) t.header.push_back("vs " + b.get<std::string>());
  t.header.push_back("memory ratio");
  for (const auto& r : report["candidates"]) {
    std::string flags;
    for (const auto& f : r["flags"]) flags += (flags.empty() ? "" : ", ") + f.get<std::string>();
    std::string verdict = text(r["verdict"]);
    if (!r["hack_pattern"].is_null()) verdict += " (" + text(r["hack_pattern"]) + ")";
    std::vector<std::string> row = {candidate_label(r), model_label(r["model"]), text(r["problem"]), text(r["role"]), verdict, flags};
    for (const auto& b : baselines) row.push_back(speedup_text(r["speedup"].value(b.get<std::string>(), json(nullptr))));
    row.push_back(speedup_text(r["memory_ratio"]));
    t.rows.push_back(row);
  }
  s.tables.push_back(t);
  return s;
}

}  // namespace

// Rounding never says 0 % or 100 % of a fraction that is neither (review: 9999/10000 read
// "100.0 %", 1/3000 "0.0 %").
std::string percent_text(const json& fraction) {
  if (!fraction.is_number()) return "–";
  const double percent = 100.0 * fraction.get<double>();
  const std::string text = fmt::format("{:.1f}", percent);
  if (percent > 0 && text == "0.0") return "<0.1 %";
  if (percent < 100 && text == "100.0") return ">99.9 %";  // 1999/2000 is exactly 99.95 as a double
  return text + " %";
}

// Three significant digits, more where three would put a speedup on the other side of 1×, or
// on it (review: 0.9996, not counted in fast_1, and 1.0004, counted, both read "1×").
std::string speedup_text(const json& speedup) {
  if (!speedup.is_number()) return "–";
  const double value = speedup.get<double>();
  constexpr int kMostDigits = 9;
  std::string text;
  for (int digits = 3; digits <= kMostDigits; ++digits) {
    text = fmt::format("{:.{}g}", value, digits);
    const double shown = std::strtod(text.c_str(), nullptr);
    if ((shown > 1) == (value > 1) && (shown < 1) == (value < 1)) break;
  }
  return text + "×";
}

std::vector<Section> report_sections(const json& report) {
  return {overview(report), headline(report), models(report),      levels(report),     fast_p(report),     problems(report),
          hacks(report),    public_gap(report), regressions(report), comparison(report), issues(report),
          not_evaluated(report), candidates(report)};
}

}  // namespace kbv::sweep::report
