// tests/sdk/helper_eval_test.cpp — the C++ helper's behaviour as `kbv eval` reports it: the
// stateful form passes and its destroy() runs, a failing constructor is a load_error with its
// message, the helper's error texts reach the verdict, a plugin built against a future ABI 2
// header passes on this ABI 1 kbv, and a -O0 build passes with a note.
#include <gtest/gtest.h>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

std::filesystem::path sdk_candidate(const std::string& name) {
  return std::filesystem::path(KBV_SDK_TEST_CANDIDATE_DIR) / ("libsdk_" + name + ".so");
}

// Correctness only: what these tests check is decided before timing.
EvalRun eval(const std::string& name) {
  return run_kbv_eval({sdk_candidate(name).string(), "--device", "host", "--shapes", "small", "--no-timing"});
}

TEST(SdkHelperEval, StatefulCandidatePassesAndIsDestroyed) {
  const EvalRun run = eval("stateful_counter");
  ASSERT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const std::string log = run.report.value("worker_stderr_tail", "");
  EXPECT_NE(log.find("stateful_counter: created"), std::string::npos) << log;
  EXPECT_NE(log.find("stateful_counter: destroyed after "), std::string::npos) << log;
}

TEST(SdkHelperEval, FailingConstructorIsALoadErrorWithItsMessage) {
  const EvalRun run = eval("throwing_constructor");
  EXPECT_EQ(run.report.value("verdict", ""), "load_error") << explain(run);
  const std::string detail = run.report.value("detail", "");
  EXPECT_NE(detail.find("create()"), std::string::npos) << detail;
  EXPECT_NE(detail.find("no workspace: the allocation failed"), std::string::npos) << detail;
}

TEST(SdkHelperEval, WrongInputNameIsNamedWithTheValidOnes) {
  const EvalRun run = eval("wrong_input_name");
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const std::string detail = run.report.value("detail", "");
  EXPECT_NE(detail.find("no input named 'X' (the problem's inputs: x)"), std::string::npos) << detail;
}

TEST(SdkHelperEval, ExceptionInRunSaysSo) {
  const EvalRun run = eval("throws_in_run");
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  EXPECT_NE(run.report.value("detail", "").find("C++ exception in run(): boom"), std::string::npos) << explain(run);
}

TEST(SdkHelperEval, PluginBuiltAgainstAFutureHeaderPassesOnThisKbv) {
  const EvalRun run = eval("next_abi_relu");
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_EQ(run.report["candidate"].value("abi_version", 0), 2) << "it must choose ABI 2, the newest version this kbv speaks";
}

// ABI 1 carries float32 tensors only: a plugin that chose it is refused for a problem with an
// int64 input, naming the input and the fix, before any call.
TEST(SdkHelperEval, Abi1PluginIsRefusedForAProblemWithInt64Inputs) {
  const EvalRun run = eval("abi1_cross_entropy");
  EXPECT_EQ(run.report.value("verdict", ""), "abi_error") << explain(run);
  EXPECT_EQ(run.report["candidate"].value("abi_version", 0), 1) << explain(run);
  const std::string detail = run.report.value("detail", "");
  EXPECT_NE(detail.find("int64 input 'targets'"), std::string::npos) << detail;
  EXPECT_NE(detail.find("ABI 2 or later"), std::string::npos) << detail;
}

TEST(SdkHelperEval, ReadingInt64TargetsAsFloatFailsNamingTheTensorAndTheType) {
  const EvalRun run = eval("targets_as_float");
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const std::string detail = run.report.value("detail", "");
  EXPECT_NE(detail.find("tensor 'targets' is int64_t, read with data<float>() (fix: use data<int64_t>())"), std::string::npos) << detail;
  EXPECT_NE(detail.find("INVALID_ARGUMENT"), std::string::npos) << detail;
}

TEST(SdkHelperEval, UnoptimisedBuildPassesWithANote) {
  const EvalRun run = eval("unoptimised_relu");
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const nlohmann::json& built = run.report["candidate"]["build"];
  EXPECT_EQ(built.value("optimisation", ""), "unoptimised") << built.dump();
  EXPECT_EQ(built["levels"], nlohmann::json::array({"-O0"})) << built.dump();
  EXPECT_NE(built.value("note", "").find("compiled without optimisation"), std::string::npos) << built.dump();
}

}  // namespace
}  // namespace kbv::test
