// messages_test.cpp — what a newcomer reads when something goes wrong: a refused call names its
// status and the fix; an exception says it was one; a dead worker names its signal (the JSON
// keeps the raw exit); the candidate's printf output reaches the report's tail; run-to-run
// bit differences within the tolerance are informational, beyond it a failure; a candidate
// built for the other device, or a cuda device that is not there, is a usage error (exit 2)
// that names the fix.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/device_diagnosis.hpp"
#include "eval/failure_text.hpp"
#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

constexpr int kExitNotPass = 1;
constexpr int kExitBadInput = 2;

// Correctness only: none of these messages needs timing, and the host timer check is what a
// machine loaded by parallel tests upsets.
EvalRun eval_host(const std::string& candidate, const std::string& problem = "relu") {
  return run_kbv_eval({hostile_candidate(candidate).string(), "--problem", problem, "--device", "host", "--shapes", "small", "--no-timing"});
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string detail_of(const EvalRun& run) { return run.report.is_object() ? run.report.value("detail", "") : ""; }

TEST(Messages, ARefusedCallNamesItsStatusAndTheMissingReason) {
  const EvalRun run = eval_host("relu_refuses");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, kExitNotPass) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const std::string detail = detail_of(run);
  for (const char* part : {"refused the call", "KBV_STATUS_UNSUPPORTED", "a valid request it does not implement", "gave no reason", "set_error()"})
    EXPECT_TRUE(contains(detail, part)) << "missing '" << part << "'\n" << explain(run);
  EXPECT_FALSE(contains(detail, "status 2")) << explain(run);
  EXPECT_FALSE(contains(detail, ": \n")) << explain(run);
}

TEST(Messages, AWrongInputNameIsReportedWithTheName) {
  const EvalRun run = eval_host("relu_wrong_input_name");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const std::string detail = detail_of(run);
  EXPECT_TRUE(contains(detail, "KBV_STATUS_INTERNAL")) << explain(run);
  EXPECT_TRUE(contains(detail, "nonexistent")) << explain(run);
}

TEST(Messages, AnExceptionEscapingRawRunIsCaughtAndNamed) {
  const EvalRun run = eval_host("relu_throws_raw");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const std::string detail = detail_of(run);
  EXPECT_TRUE(contains(detail, "run() threw a C++ exception: relu_throws_raw: the tensor shapes surprised me")) << explain(run);
  EXPECT_FALSE(run.report.contains("worker_exit")) << "the worker must survive the exception\n" << explain(run);
}

TEST(Messages, ADeadWorkerNamesItsSignalAndTheJsonKeepsIt) {
  const EvalRun run = eval_host("relu_segfault");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "crash") << explain(run);
  EXPECT_TRUE(contains(detail_of(run), "killed by SIGSEGV (Segmentation fault)")) << explain(run);
  ASSERT_TRUE(run.report.contains("worker_exit") && run.report["worker_exit"].is_object()) << explain(run);
  EXPECT_EQ(run.report["worker_exit"].value("signal_name", ""), "SIGSEGV") << explain(run);
  EXPECT_EQ(run.report["worker_exit"].value("signal", 0), 11) << explain(run);
}

TEST(Messages, AnExitByTheCandidateKeepsTheRawStatusAndSaysWhoMayHaveExited) {
  const EvalRun run = eval_host("relu_exit");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "crash") << explain(run);
  ASSERT_TRUE(run.report.contains("worker_exit") && run.report["worker_exit"].is_object()) << explain(run);
  const int status = run.report["worker_exit"].value("exit_status", -1);
  EXPECT_TRUE(contains(detail_of(run), "exited with status " + std::to_string(status) + " during call 1 without saying why")) << explain(run);
}

TEST(Messages, TheCandidatesPrintfOutputReachesTheTailWithoutSandboxNotices) {
  const EvalRun run = eval_host("relu_prints");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const std::string tail = run.report.value("worker_stderr_tail", "");
  const size_t out = tail.find("relu_prints: stdout on call 1"), err = tail.find("relu_prints: stderr on call 1");
  EXPECT_NE(out, std::string::npos) << explain(run);
  EXPECT_NE(err, std::string::npos) << explain(run);
  EXPECT_LT(out, err) << "stdout is line-buffered into the same pipe, so the lines keep their order\n" << explain(run);
  EXPECT_FALSE(contains(tail, "sandbox layer unavailable")) << explain(run);
  // The sandbox's report is in the environment instead, whatever this machine lacks.
  ASSERT_TRUE(run.report.contains("environment") && run.report["environment"].contains("worker_sandbox")) << explain(run);
  EXPECT_FALSE(run.report["environment"]["worker_sandbox"].value("applied", nlohmann::json::array()).empty()) << explain(run);
}

TEST(Messages, MoreOutputThanAPipeHoldsNeitherBlocksNorIsLostAtTheEnd) {
  const EvalRun run = eval_host("relu_prints_a_lot");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_NE(run.report.value("verdict", ""), "timeout") << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(contains(run.report.value("worker_stderr_tail", ""), "relu_prints_a_lot: end of the dump\n")) << explain(run);
}

TEST(Messages, AnHonestCandidatesTailIsEmpty) {
  const EvalRun run =
      run_kbv_eval({host_candidate("relu").string(), "--problem", "relu", "--device", "host", "--shapes", "small", "--no-timing"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_EQ(run.report.value("worker_stderr_tail", ""), "") << explain(run);
}

TEST(Messages, ReductionOrderBitsAreAnInformationalFlag) {
  const EvalRun run = eval_host("sum_random_order", "sum_dim1");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_EQ(run.report["flags"], nlohmann::json::array({"bitwise_nondeterministic"})) << explain(run);
}

TEST(Messages, OutputsThatDifferBeyondTheToleranceFail) {
  const EvalRun run = eval_host("sum_jitter", "sum_dim1");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  EXPECT_EQ(run.report.value("failed_family", nlohmann::json()), "uniform01") << explain(run);
  EXPECT_TRUE(contains(detail_of(run), "differ beyond the tolerance")) << explain(run);
}

#ifdef KBV_TEST_HAVE_CUDA
// A CUDA candidate evaluated on the host device: the worker loads it (no GPU needed for that),
// learns its device and kbv stops with a usage error that names the fix.
TEST(Messages, ACudaCandidateOnTheHostDeviceIsAUsageError) {
  const auto candidate = candidate_dir() / "cuda" / "libcuda_relu_vec4.so";
  ASSERT_TRUE(std::filesystem::exists(candidate)) << candidate;
  const EvalRun run = run_kbv_eval({candidate.string(), "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, kExitBadInput) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "bad_input") << explain(run);
  EXPECT_TRUE(contains(detail_of(run), "built for the cuda device")) << explain(run);
  EXPECT_TRUE(contains(detail_of(run), "fix: pass --device cuda")) << explain(run);
}
#endif

// Where no NVIDIA driver is installed (CI), --device cuda says so instead of CUDA's "driver
// version is insufficient".
TEST(Messages, CudaWithoutADriverSaysNoDriverWasFound) {
  const eval::CudaMachineFacts facts = eval::inspect_cuda_machine();
  if (facts.kernel_module || facts.driver_library) GTEST_SKIP() << "this machine has an NVIDIA driver: the message is checked where none is";
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), "--device", "cuda", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, kExitBadInput) << explain(run);
  const std::string message = run.report.contains("error") ? run.report.value("error", "") : detail_of(run);
  EXPECT_TRUE(contains(message, "no NVIDIA driver or GPU was found")) << explain(run);
  EXPECT_TRUE(contains(message, "--device host")) << explain(run);
}

// The explanation for each machine state, without the machine.
TEST(DeviceDiagnosis, NamesTheCauseAndKeepsCudasWords) {
  using eval::CudaMachineFacts;
  const std::string insufficient = "cudaSetDevice: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)";
  CudaMachineFacts none;
  const std::string no_driver = eval::explain_cuda_unavailable(insufficient, none);
  EXPECT_EQ(no_driver.rfind("no NVIDIA driver or GPU was found", 0), 0u) << no_driver;
  EXPECT_TRUE(contains(no_driver, insufficient)) << no_driver;

  CudaMachineFacts old_driver{true, "470.57.02", true, 1, std::nullopt};
  const std::string old = eval::explain_cuda_unavailable(insufficient, old_driver);
  EXPECT_TRUE(contains(old, "the NVIDIA driver 470.57.02 is older than this kbv's CUDA runtime needs")) << old;

  CudaMachineFacts hidden{true, "580.159.04", true, 8, std::string("")};
  EXPECT_TRUE(contains(eval::explain_cuda_unavailable("cudaSetDevice: no CUDA-capable device is detected (cudaErrorNoDevice)", hidden),
                       "CUDA_VISIBLE_DEVICES='' hides every GPU"));

  CudaMachineFacts no_gpu{true, "580.159.04", true, 0, std::nullopt};
  EXPECT_TRUE(contains(eval::explain_cuda_unavailable("cudaSetDevice: no CUDA-capable device is detected (cudaErrorNoDevice)", no_gpu),
                       "lists no GPU"));

  CudaMachineFacts module_only{true, "580.159.04", false, 1, std::nullopt};
  EXPECT_TRUE(contains(eval::explain_cuda_unavailable(insufficient, module_only), "libcuda.so.1 is not installed"));

  CudaMachineFacts fine{true, "580.159.04", true, 1, std::nullopt};
  const std::string other = "cudaSetDevice: out of memory (cudaErrorMemoryAllocation)";
  EXPECT_EQ(eval::explain_cuda_unavailable(other, fine), other);
}

TEST(FailureText, StatusesSignalsAndOutputLines) {
  EXPECT_EQ(eval::signal_text(11), "SIGSEGV (Segmentation fault)");
  EXPECT_EQ(eval::signal_text(6), "SIGABRT (Aborted)");
  EXPECT_EQ(eval::signal_text(200), "signal 200");
  const std::string with_reason = eval::refused_call_text({1, "x has rank 3, expected 2", false, ""});
  EXPECT_EQ(with_reason,
            "the candidate refused the call: run() returned KBV_STATUS_INVALID_ARGUMENT (shapes, dtypes or counts it cannot handle): x "
            "has rank 3, expected 2");
  EXPECT_TRUE(contains(eval::refused_call_text({42, "", false, ""}), "status 42 (not a kbv_status)"));
  const std::string device = eval::refused_call_text({3, "my_kernel launch failed", false, "cudaErrorInvalidConfiguration (invalid argument)"});
  EXPECT_TRUE(contains(device, "the last CUDA error run() left: cudaErrorInvalidConfiguration")) << device;
  EXPECT_EQ(eval::last_output_line("first\nsecond line\n\n  \n"), "second line");
  EXPECT_EQ(eval::last_output_line(""), "");
  EXPECT_EQ(eval::last_output_line(std::string(1000, 'a')).size(), eval::kMaxQuotedOutputBytes + std::string("…").size());
  eval::WorkerExit killed;
  killed.exited = killed.signaled = true;
  killed.signal = 9;
  EXPECT_EQ(eval::exit_json(killed), nlohmann::json({{"signal", 9}, {"signal_name", "SIGKILL"}}));
  eval::WorkerExit internal;
  internal.exited = true;
  internal.exit_status = 8;
  EXPECT_EQ(eval::exit_text(internal, true), "exited with status 8 (kbv's own code in the worker failed)");
  EXPECT_EQ(eval::exit_text(internal, false), "exited with status 8");
}

}  // namespace
}  // namespace kbv::test
