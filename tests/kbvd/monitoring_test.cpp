// Tests of monitoring/: promtool checks of the scrape config and rules, the rule unit tests,
// and a Grafana dashboard whose every query uses metrics kbvd exports (or rules built on them).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <yaml-cpp/yaml.h>

#include "client/control_client.hpp"
#include "harness.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

const fs::path kMonitoring = fs::path(KBV_SOURCE_DIR) / "monitoring";

std::string promtool(const std::string& args, const fs::path& cwd, int* status) {
  const auto r = test::run_command("cd " + cwd.string() + " && " KBV_PROMTOOL " " + args);
  *status = r.status;
  return r.output;
}

// Every metric and recording-rule name a PromQL expression mentions.
std::set<std::string> referenced(const std::string& expr) {
  static const std::regex name(R"(\bkbv[_:][a-z0-9_:]+)");
  std::set<std::string> out;
  for (std::sregex_iterator it(expr.begin(), expr.end(), name), end; it != end; ++it) out.insert(it->str());
  return out;
}

// The sample names of a live kbvd's /metrics (histograms contribute _bucket, _sum, _count),
// after a sweep reported to it (sweep series exist once a sweep has run).
std::set<std::string> exported_names() {
  test::TempDir dir;
  test::KbvdProcess kbvd(dir.path());
  kbvd.start();
  control::request(kbvd.socket(), {{"cmd", "sweep"}, {"sweep", "nightly"}, {"epoch", 3}, {"state", "finished"}, {"planned", 2}, {"done", 2},
                                   {"complete", true}, {"headline", {{"baseline", "tf32"}, {"fast_1", {{"m", 0.5}}}, {"regressions", 0}}}});
  const auto body = test::http_get(kbvd.metrics_port(), "/metrics");
  if (!body) return {};
  std::set<std::string> names;
  std::istringstream lines(*body);
  std::string line;
  while (std::getline(lines, line))
    if (!line.empty() && line[0] != '#') names.insert(line.substr(0, line.find_first_of("{ ")));
  return names;
}

struct Rules {
  std::map<std::string, std::string> recorded;  // name -> expr
  std::vector<std::string> alert_exprs;
};

Rules load_rules() {
  Rules rules;
  const auto doc = YAML::LoadFile((kMonitoring / "prometheus/kbv-rules.yml").string());
  for (const auto& group : doc["groups"])
    for (const auto& rule : group["rules"]) {
      if (rule["record"]) rules.recorded[rule["record"].as<std::string>()] = rule["expr"].as<std::string>();
      else rules.alert_exprs.push_back(rule["expr"].as<std::string>());
    }
  return rules;
}

TEST(Monitoring, PromtoolChecksConfigAndRules) {
  int status = 0;
  auto out = promtool("check config prometheus.yml", kMonitoring / "prometheus", &status);
  EXPECT_EQ(status, 0) << out;
  out = promtool("check rules kbv-rules.yml", kMonitoring / "prometheus", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("SUCCESS"), std::string::npos) << out;
}

TEST(Monitoring, RuleUnitTestsPass) {
  int status = 0;
  const auto out = promtool("test rules kbv-rules.test.yml", kMonitoring / "prometheus", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("SUCCESS"), std::string::npos) << out;
}

TEST(Monitoring, ScrapeConfigStaysOnLoopback) {
  const auto doc = YAML::LoadFile((kMonitoring / "prometheus/prometheus.yml").string());
  for (const auto& job : doc["scrape_configs"])
    for (const auto& sc : job["static_configs"])
      for (const auto& target : sc["targets"])
        EXPECT_EQ(target.as<std::string>().rfind("127.0.0.1:", 0), 0u) << target.as<std::string>();
}

TEST(Monitoring, RulesAndDashboardUseExportedMetrics) {
  const auto exported = exported_names();
  ASSERT_GT(exported.size(), 20u);
  const auto rules = load_rules();
  auto known = [&](const std::string& n) { return exported.count(n) || rules.recorded.count(n); };
  std::set<std::string> covered;  // base metrics the dashboard shows, through rules or directly
  std::function<void(const std::string&)> cover = [&](const std::string& n) {
    if (auto it = rules.recorded.find(n); it != rules.recorded.end())
      for (const auto& m : referenced(it->second)) cover(m);
    else covered.insert(n);
  };
  for (const auto& [name, expr] : rules.recorded)
    for (const auto& m : referenced(expr)) EXPECT_TRUE(exported.count(m)) << name << " uses " << m;
  for (const auto& expr : rules.alert_exprs)
    for (const auto& m : referenced(expr)) EXPECT_TRUE(known(m)) << expr << " uses " << m;

  const auto dashboard = json::parse(test::read_file(kMonitoring / "grafana/dashboards/kbv-overview.json"));
  ASSERT_FALSE(dashboard["panels"].empty());
  for (const auto& panel : dashboard["panels"]) {
    if (panel.value("type", "") == "row") continue;  // a row only groups the panels below it
    const auto title = panel.value("title", std::string("?"));
    ASSERT_TRUE(panel.contains("targets") && !panel["targets"].empty()) << title;
    EXPECT_EQ(panel["datasource"]["uid"], "kbv-prometheus") << title;
    for (const auto& target : panel["targets"]) {
      const auto expr = target.at("expr").get<std::string>();
      const auto names = referenced(expr);
      EXPECT_FALSE(names.empty()) << title << ": " << expr;
      for (const auto& n : names) {
        EXPECT_TRUE(known(n)) << title << ": " << n << " is neither exported by kbvd nor recorded";
        cover(n);
      }
    }
  }
  for (const auto& variable : dashboard["templating"]["list"])
    for (const auto& n : referenced(variable["query"]["query"].get<std::string>())) EXPECT_TRUE(known(n)) << n;
  // What the dashboard must show: throughput, latency, verdict mix, hacks, queue, per-GPU busy.
  for (const char* m : {"kbv_evaluations_total", "kbv_evaluation_duration_seconds_bucket", "kbv_hacks_total",
                        "kbv_queue_depth", "kbv_evaluations_in_flight", "kbv_gpu_busy_seconds_total",
                        "kbv_sweep_evaluations", "kbv_sweep_last_fast_1_ratio", "kbv_sweep_last_regressions"})
    EXPECT_TRUE(covered.count(m)) << m << " is on no panel";
}

TEST(Monitoring, GrafanaProvisioningPointsAtTheDashboardAndDatasource) {
  const auto ds = YAML::LoadFile((kMonitoring / "grafana/provisioning/datasources/kbv-prometheus.yaml").string());
  EXPECT_EQ(ds["datasources"][0]["uid"].as<std::string>(), "kbv-prometheus");
  EXPECT_EQ(ds["datasources"][0]["type"].as<std::string>(), "prometheus");
  const auto dash = YAML::LoadFile((kMonitoring / "grafana/provisioning/dashboards/kbv.yaml").string());
  const auto path = dash["providers"][0]["options"]["path"].as<std::string>();
  EXPECT_NE(path.find("monitoring/grafana/dashboards"), std::string::npos) << path;
}

}  // namespace
}  // namespace kbv::kbvd
