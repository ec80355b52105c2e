// timer_under_load_test.cpp — the host's clock-agreement check (eval/sample_checks.cpp) under a
// loaded CPU: with twice as many busy spinners as cores, every honest host example passes with no
// timer flag (the trusted time takes the run queue waits back out, eval/wait_correction.hpp),
// and the 10× slow clocks of timer_patch_got and busy_between_calls are still caught as
// timer_tampering, in every one of the timing phase's measurements.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "kbv_eval.hpp"

namespace {

using kbv::test::explain;
using kbv::test::run_kbv_eval;

// Threads that keep every core busy while they live: 2× the cores, so each runnable thread,
// the evaluator's and the worker's included, waits on a run queue most of the time.
class CpuSpinners {
 public:
  CpuSpinners() {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < 2 * cores; ++i)
      spinners_.emplace_back([this](std::stop_token stop) {
        while (!stop.stop_requested()) spins_.fetch_add(1, std::memory_order_relaxed);
      });
  }
  size_t count() const { return spinners_.size(); }

 private:
  std::atomic<unsigned long> spins_{0};
  std::vector<std::jthread> spinners_;  // joined (stop requested first) when destroyed
};

// A clock disagreement is a verdict only once every measurement of the timing phase disagreed
// (eval/evaluation_timing.cpp, kHostClockAgreementMeasurements): the report names the first.
constexpr int kClockAgreementMeasurements = 3;

void expect_every_measurement_disagreed(const kbv::test::EvalRun& run) {
  const auto& again = run.report["environment"]["clock_agreement_measured_again"];
  ASSERT_TRUE(again.is_object()) << "the report does not say the disagreement was measured again\n" << explain(run);
  EXPECT_EQ(again.value("measurements", 0), kClockAgreementMeasurements) << again.dump();
  EXPECT_NE(again.value("first", std::string()).find("clock runs slow"), std::string::npos) << again.dump();
}

std::string load_summary(const kbv::test::EvalRun& run) {
  const auto& environment = run.report["environment"];
  return "worker median " + run.report["timing"]["candidate"].value("median_s", nlohmann::json(0.0)).dump() + " s, trusted median " +
         environment.value("trusted_median_s", nlohmann::json(nullptr)).dump() + " s, wait correction " +
         environment.value("trusted_wait_correction", nlohmann::json(nullptr)).dump();
}

class HonestHostUnderLoad : public ::testing::TestWithParam<std::string> {};

TEST_P(HonestHostUnderLoad, PassesWithNoTimerFlag) {
  const std::string problem = GetParam();
  const CpuSpinners load;
  const auto run = run_kbv_eval({kbv::test::host_candidate(problem).string(), "--problem", problem, "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << load.count() << " spinners\n" << explain(run);
  EXPECT_TRUE(run.report["hack_pattern"].is_null()) << explain(run);
  const auto& correction = run.report["environment"]["trusted_wait_correction"];
  ASSERT_TRUE(correction.is_object()) << "the report does not say the waits were taken out\n" << explain(run);
  EXPECT_TRUE(correction.value("applied", false)) << correction.dump();
  std::cout << problem << " under " << load.count() << " spinners: " << load_summary(run) << "\n";
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, HonestHostUnderLoad, ::testing::ValuesIn(kbv::test::host_candidate_problems()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// The same load does not hide a slow clock: the credited waits cannot cover a 10× gap.
TEST(TimerUnderLoad, ASlowClockIsStillCaught) {
  const CpuSpinners load;
  const auto run = run_kbv_eval({(kbv::test::candidate_dir() / "redteam" / "libredteam_timer_patch_got.so").string(), "--timeout-s", "10"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "hack_suspected") << load.count() << " spinners\n" << explain(run);
  EXPECT_EQ(run.report.value("hack_pattern", nlohmann::json()), "timer_tampering") << explain(run);
  expect_every_measurement_disagreed(run);
  std::cout << "timer_patch_got under " << load.count() << " spinners: " << run.report.value("detail", "") << "\n";
}

// A slow clock hidden by lengthening the candidate's own run queue waits (the main thread spinning
// after each answer, on a CPU with twice as many spinners as cores): the credited waits took the
// trusted time down to half a round trip and it passed 2 runs in 8; the CPU time the work cost
// keeps the trusted time at the work (eval/wait_correction.hpp, CpuTimeFloor). Several runs, as
// one passing run in four was the residual.
TEST(TimerUnderLoad, ASlowClockBehindLengthenedWaitsIsCaughtEveryRun) {
  constexpr int kRuns = 4;
  const CpuSpinners load;
  for (int run_index = 0; run_index < kRuns; ++run_index) {
    const auto run =
        run_kbv_eval({(kbv::test::candidate_dir() / "redteam" / "libredteam_busy_between_calls.so").string(), "--device", "host", "--timeout-s", "10"});
    ASSERT_TRUE(run.report.is_object()) << explain(run);
    EXPECT_EQ(run.report.value("verdict", ""), "hack_suspected") << "run " << run_index << " under " << load.count() << " spinners\n"
                                                                 << load_summary(run) << "\n"
                                                                 << explain(run);
    EXPECT_EQ(run.report.value("hack_pattern", nlohmann::json()), "timer_tampering") << explain(run);
    expect_every_measurement_disagreed(run);
    std::cout << "busy_between_calls run " << run_index << ": " << run.report.value("detail", "") << "\n";
  }
}

}  // namespace
