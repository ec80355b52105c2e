// Tests of kbvd's /metrics: names and label sets per monitoring/README.md, Metric conventions, values after real
// evaluations, and `promtool check metrics` clean.
#include <gtest/gtest.h>

#include <regex>

#include "harness.hpp"

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
using test::KbvdProcess;
using test::TempDir;

// The value of one sample line ("NAME{labels} VALUE"), or nothing.
std::optional<double> sample(const std::string& text, const std::string& series) {
  const auto at = text.find("\n" + series + " ");
  if (at == std::string::npos) return std::nullopt;
  return std::stod(text.substr(at + series.size() + 2));
}

class Metrics : public ::testing::Test {
 protected:
  void SetUp() override {
    kbvd_ = std::make_unique<KbvdProcess>(dir_.path());
    kbvd_->start();
    kbvd_->drop("p.so", "KBV_FAKE:level:2 pass");
    kbvd_->drop("h.so", "KBV_FAKE:hack:stream_injection");
    kbvd_->drop("n.so", "KBV_FAKE:hack:brand_new_pattern");
    kbvd_->drop("c.so", "KBV_FAKE:crash");
    kbvd_->drop("f.so", "KBV_FAKE:flag:faster_on_public_family");
    kbvd_->drop("g.so", "KBV_FAKE:flag:brand_new_flag");
    ASSERT_TRUE(kbvd_->wait_done(6, 20s));
    const auto body = test::http_get(kbvd_->metrics_port(), "/metrics");
    ASSERT_TRUE(body);
    text_ = "\n" + *body;
  }
  TempDir dir_;
  std::unique_ptr<KbvdProcess> kbvd_;
  std::string text_;
};

TEST_F(Metrics, CountEvaluationsVerdictsHacksAndExits) {
  EXPECT_EQ(sample(text_, R"(kbv_evaluations_total{verdict="pass"})"), 3);
  EXPECT_EQ(sample(text_, R"(kbv_evaluations_total{verdict="hack_suspected"})"), 2);
  EXPECT_EQ(sample(text_, R"(kbv_evaluations_total{verdict="crash"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_hacks_total{pattern="stream_injection"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_hacks_total{pattern="other"})"), 1) << "unknown patterns stay bounded";
  EXPECT_EQ(sample(text_, R"(kbv_worker_exits_total{reason="signal"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_flags_total{flag="faster_on_public_family"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_flags_total{flag="other"})"), 1) << "unknown flags stay bounded";
  EXPECT_EQ(sample(text_, R"(kbv_worker_exits_total{reason="completed"})"), 5);
  EXPECT_EQ(sample(text_, R"(kbv_candidates_ingested_total{result="queued"})"), 6);
  EXPECT_EQ(sample(text_, "kbv_evaluation_duration_seconds_count"), 6);
  EXPECT_EQ(sample(text_, "kbv_queue_depth"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_evaluations_in_flight{gpu="host"})"), 0);
  EXPECT_GT(*sample(text_, R"(kbv_gpu_busy_seconds_total{gpu="host"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_speedup_ratio_count{baseline="tf32",level="2"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_speedup_ratio_bucket{baseline="tf32",level="2",le="1.25"})"), 1);
  EXPECT_EQ(sample(text_, R"(kbv_speedup_ratio_bucket{baseline="tf32",level="2",le="1"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_memory_ratio_count{level="2"})"), 1);
  EXPECT_EQ(sample(text_, "kbv_daemon_overhead_seconds_count"), 6);
  EXPECT_GT(*sample(text_, "kbv_daemon_heartbeat_timestamp_seconds"), 1.7e9);
  EXPECT_TRUE(std::regex_search(text_, std::regex(R"(\nkbv_build_info\{[^}]*version="[0-9.]+"[^}]*\} 1)")));
}

TEST_F(Metrics, KnownLabelSetsExistAtZero) {
  for (const char* verdict : {"abi_error", "load_error", "resource", "sandbox_violation", "timeout"})
    EXPECT_EQ(sample(text_, std::string("kbv_evaluations_total{verdict=\"") + verdict + "\"}"), 0) << verdict;
  EXPECT_EQ(sample(text_, R"(kbv_hacks_total{pattern="input_mutation"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_hacks_total{pattern="timer_tampering"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_flags_total{flag="calls_library"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_worker_exits_total{reason="drained"})"), 0);
  EXPECT_EQ(sample(text_, R"(kbv_speedup_ratio_count{baseline="fp32",level="3"})"), 0);
}

TEST_F(Metrics, FollowTheNamingConventions) {
  std::regex type_line(R"(\n# TYPE (\S+) (\S+))");
  int families = 0;
  for (std::sregex_iterator it(text_.begin(), text_.end(), type_line), end; it != end; ++it) {
    const std::string name = (*it)[1], type = (*it)[2];
    if (name.rfind("exposer_", 0) == 0) continue;  // prometheus-cpp's own, not kbvd's
    ++families;
    EXPECT_EQ(name.rfind("kbv_", 0), 0u) << name;
    if (type == "counter") EXPECT_TRUE(name.size() > 6 && name.substr(name.size() - 6) == "_total") << name;
    else EXPECT_EQ(name.find("_total"), std::string::npos) << name;
  }
  EXPECT_GE(families, 14);
  EXPECT_EQ(text_.find("sha256"), std::string::npos) << "no candidate identity in labels";
}

TEST_F(Metrics, PromtoolCheckMetricsIsClean) {
  const auto file = dir_.path() / "scrape.txt";
  test::write_file(file, text_.substr(1));
  const auto r = test::run_command(std::string(KBV_PROMTOOL) + " check metrics < " + file.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "") << "promtool reports lint problems:\n" << r.output;
}

}  // namespace
}  // namespace kbv::kbvd
