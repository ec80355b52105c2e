// hostile_host_test.cpp — each hostile host candidate (tests/eval/candidates) gets exactly the
// verdict, hack pattern and exit status its first comment names.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

// --timeout-s for the hang: short, so the test is quick, yet far above any honest call.
constexpr const char* kHangTimeoutSeconds = "5";
constexpr int kExitNotPass = 1;

struct HostileCase {
  std::string name;                        // libhostile_<name>.so
  std::string verdict;
  std::optional<std::string> hack_pattern; // nullopt: the report's hack_pattern must be null
  std::vector<std::string> extra_args;
  std::string detail_mentions;             // a word the report's detail must contain ("" = any)
};

std::vector<HostileCase> hostile_cases() {
  return {
      {"relu_identity_on_public", "fail_correctness", std::nullopt, {}, ""},
      {"relu_mutates_input", "hack_suspected", "input_mutation", {}, ""},
      {"relu_noop", "fail_correctness", std::nullopt, {}, ""},
      {"relu_cache_by_pointer", "fail_correctness", std::nullopt, {}, ""},
      {"relu_segfault", "crash", std::nullopt, {}, ""},
      {"relu_abort", "crash", std::nullopt, {}, ""},
      {"relu_exit", "crash", std::nullopt, {}, ""},
      {"relu_hang", "timeout", std::nullopt, {"--timeout-s", kHangTimeoutSeconds}, ""},
      {"relu_wrong_abi", "abi_error", std::nullopt, {}, ""},
      {"relu_wrong_problem", "load_error", std::nullopt, {}, "gelu"},
      // create() fails silently after negotiate left a note: the detail must not quote the stale note.
      {"relu_create_fails_quietly", "load_error", std::nullopt, {}, "create() returned KBV_STATUS_INTERNAL and gave no reason"},
  };
}

class HostileHostCandidate : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileHostCandidate, GetsItsVerdict) {
  const HostileCase& expected = GetParam();
  std::vector<std::string> args = {hostile_candidate(expected.name).string(), "--problem", "relu", "--device", "host",
                                   "--shapes", "small"};
  args.insert(args.end(), expected.extra_args.begin(), expected.extra_args.end());
  const EvalRun run = run_kbv_eval(args);
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, kExitNotPass) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), expected.verdict) << explain(run);
  if (expected.hack_pattern) {
    EXPECT_EQ(run.report["hack_pattern"], *expected.hack_pattern) << explain(run);
  } else {
    EXPECT_TRUE(run.report["hack_pattern"].is_null()) << explain(run);
  }
  if (!expected.detail_mentions.empty()) {
    EXPECT_NE(run.report.value("detail", "").find(expected.detail_mentions), std::string::npos) << explain(run);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostileHostCandidate, ::testing::ValuesIn(hostile_cases()),
                         [](const ::testing::TestParamInfo<HostileCase>& param_info) { return param_info.param.name; });

// A load or ABI error names the file the user gave, not kbv's private copy the worker loaded.
TEST(HostileHostCandidates, LoadErrorsNameTheSubmittedPath) {
  const std::string path = hostile_candidate("relu_wrong_abi").string();
  const EvalRun run = run_kbv_eval({path, "--device", "host"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("detail", "").rfind(path + ": no ABI version in common", 0), 0u) << explain(run);
  EXPECT_EQ(run.report.value("detail", "").find("kbv-candidate-"), std::string::npos) << explain(run);
}

// The published ReLU hack must pass the public family and be caught on a hidden one.
TEST(HostileHostCandidates, IdentityOnPublicFailsOnAHiddenFamily) {
  const EvalRun run = run_kbv_eval({hostile_candidate("relu_identity_on_public").string(), "--problem", "relu",
                                    "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_TRUE(run.report["failed_family"].is_string()) << explain(run);
  EXPECT_NE(run.report["failed_family"], "uniform01") << explain(run);
  for (const auto& family : run.report["families"]) {
    if (family.value("family", "") == "uniform01") {
      EXPECT_TRUE(family.value("passed", false)) << family.dump();
    }
  }
}

// The timing slots share one set of parameters (eval/arena_layout.hpp): a weight "prepacked" once
// per address, away from the correctness slot's, passes every correctness trial and is caught by
// the timed outputs' recheck, since every sample writes fresh weights there.
TEST(HostileHostCandidates, WeightCacheByPointerFailsTheTimedRecheck) {
  const EvalRun run = run_kbv_eval({hostile_candidate("gemm_weight_cache_by_pointer").string(), "--problem", "gemm_bias_gelu", "--device",
                                    "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, kExitNotPass) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  EXPECT_NE(run.report.value("detail", "").find("a timed call's output was wrong"), std::string::npos) << explain(run);
  for (const auto& family : run.report["families"]) {
    if (family.value("gating", false)) {
      EXPECT_TRUE(family.value("passed", false)) << "its correctness trials pass: " << family.dump();
    }
  }
  EXPECT_EQ(run.report["environment"].value("timing_slots", 0), 4) << explain(run);
}

// `kbv eval --forbid PATH` (kbvd passes its results store and watch folder): the worker cannot
// read the path even under the mount fallback, where everything else stays readable. The
// same run without --forbid shows the candidate does read it when it can.
TEST(HostileHostCandidates, ForbiddenPathsStayUnreadableUnderTheMountFallback) {
  const std::filesystem::path probe = "/tmp/kbv_forbidden_probe.txt";
  const std::string token = "kbv-probe-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}());
  {
    std::ofstream out(probe);
    out << token;
  }
  const std::map<std::string, std::string> mount_fallback = {{"KBV_SANDBOX_SKIP", "landlock"}};
  const std::vector<std::string> args = {hostile_candidate("relu_reads_probe_file").string(), "--device", "host", "--shapes", "small"};
  const EvalRun readable = run_kbv_eval(args, mount_fallback);
  std::vector<std::string> forbidding = args;
  forbidding.insert(forbidding.end(), {"--forbid", probe.string()});
  const EvalRun forbidden = run_kbv_eval(forbidding, mount_fallback);
  const EvalRun landlock = run_kbv_eval(args);
  std::filesystem::remove(probe);
  ASSERT_TRUE(readable.report.is_object()) << explain(readable);
  EXPECT_EQ(readable.report.value("verdict", ""), "fail_correctness") << explain(readable);
  EXPECT_NE(readable.result.out.find(token), std::string::npos) << "the candidate could not read an unforbidden file\n" << explain(readable);
  for (const EvalRun* run : {&forbidden, &landlock}) {
    ASSERT_TRUE(run->report.is_object()) << explain(*run);
    EXPECT_EQ(run->report.value("verdict", ""), "pass") << explain(*run);
    EXPECT_EQ(run->result.out.find(token), std::string::npos) << "the forbidden file leaked\n" << explain(*run);
  }
}

}  // namespace
}  // namespace kbv::test
