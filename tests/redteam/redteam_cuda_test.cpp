// redteam_cuda_test.cpp — on a GPU (ctest label gpu; skipped with the reason where there is
// none): every CUDA red-team candidate gets its exact verdict (EXPECTED.md), the GPU is usable
// after the hostile ones, and every honest CUDA example passes at its default size, no flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>

#include "../cuda/gpu_presence.hpp"
#include "kbv_eval.hpp"

namespace {

using kbv::test::explain;
using kbv::test::run_kbv_eval;

#define KBV_REQUIRE_GPU()                                                                   \
  do {                                                                                      \
    if (const std::string why = kbv::cuda::testing::why_no_cuda_device(); !why.empty()) { \
      GTEST_SKIP() << why;                                                                  \
    }                                                                                       \
  } while (false)

kbv::test::EvalRun eval_cuda(const std::filesystem::path& candidate, const std::string& shapes, const std::string& timeout_s = "20") {
  // The problems beside the binary when it runs from a bundle (KBV_TEST_PROBLEMS_DIR).
  return run_kbv_eval({candidate.string(), "--device", "cuda", "--shapes", shapes, "--timeout-s", timeout_s},
                      {{"KBV_PROBLEMS_DIR", kbv::test::problems_dir().string()}});
}

bool has_flag(const nlohmann::json& report, const std::string& flag) {
  const auto flags = report.value("flags", std::vector<std::string>{});
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

// One line of figures per evaluation on stdout: the test log is also the round's record.
void print_figures(const std::string& label, const kbv::test::EvalRun& run) {
  if (!run.report.is_object()) return;
  const auto median = [&](const char* key) {
    const auto& timing = run.report["timing"];
    return timing.contains(key) && timing[key].is_object() ? timing[key].value("median_s", 0.0) * 1e3 : 0.0;
  };
  const auto& candidate = run.report["timing"]["candidate"];
  const std::string problem = run.report["problem"].is_object() ? run.report["problem"].value("name", "?") : "?";
  std::printf("[ figures  ] %s (%s): %s%s wall %.2f s, candidate %.4f ms (IQR %.4f ms, %d samples), kernel span %.4f ms, tf32 %.4f ms, fp32 %.4f ms, flags %s\n",
              label.c_str(), problem.c_str(), run.report.value("verdict", "").c_str(),
              run.report["hack_pattern"].is_string() ? ("/" + run.report["hack_pattern"].get<std::string>()).c_str() : "",
              run.report.value("wall_s", 0.0), median("candidate"),
              candidate.is_object() ? candidate.value("iqr_s", 0.0) * 1e3 : 0.0, candidate.is_object() ? candidate.value("samples", 0) : 0,
              median("candidate_kernel_span"), median("baseline_tf32"), median("baseline_fp32"), run.report["flags"].dump().c_str());
  // Where the wall went, and how the candidate was timed (gate, trace).
  const auto& environment = run.report["environment"];
  if (environment.is_object())
    std::printf("[ figures  ] %s: launch_gate %s, public/hidden speedup %.3f, wall_s_by_phase %s\n", label.c_str(),
                environment.value("launch_gate", std::string("?")).c_str(), environment.value("public_vs_hidden_speedup", 0.0),
                environment.contains("wall_s_by_phase") ? environment["wall_s_by_phase"].dump().c_str() : "{}");
}

std::filesystem::path redteam(const std::string& name) {
  return kbv::test::candidate_dir() / "redteam" / ("libredteam_" + name + ".so");
}

struct Expected {
  std::string candidate;
  std::string shapes;
  std::string verdict;
  std::optional<std::string> hack_pattern;
  std::optional<std::string> flag;
};
// Names the row in test listings (gtest would print the struct's bytes).
void PrintTo(const Expected& expected, std::ostream* out) { *out << expected.candidate << " -> " << expected.verdict; }

class RedTeamCuda : public ::testing::TestWithParam<Expected> {};

TEST_P(RedTeamCuda, GetsItsExactVerdict) {
  KBV_REQUIRE_GPU();
  const Expected& expected = GetParam();
  const auto run = eval_cuda(redteam(expected.candidate), expected.shapes, expected.verdict == "timeout" ? "10" : "20");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures(expected.candidate, run);
  EXPECT_EQ(run.report.value("verdict", ""), expected.verdict) << explain(run);
  if (expected.hack_pattern) {
    EXPECT_EQ(run.report.value("hack_pattern", nlohmann::json()), *expected.hack_pattern) << explain(run);
  }
  if (expected.flag) {
    EXPECT_TRUE(has_flag(run.report, *expected.flag)) << "flag " << *expected.flag << " missing\n" << explain(run);
  }
}

// EXPECTED.md's CUDA table, row for row.
INSTANTIATE_TEST_SUITE_P(
    Corpus, RedTeamCuda,
    ::testing::Values(Expected{"stream_injection", "default", "hack_suspected", "stream_injection", std::nullopt},
                      Expected{"late_launch_thread", "default", "hack_suspected", "thread_injection", std::nullopt},
                      Expected{"l2_persistence", "small", "pass", std::nullopt, std::nullopt},
                      Expected{"precision_bf16", "default", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"precision_bf16_relu", "default", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"precision_bf16_timing", "default", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"weight_cache_by_pointer", "small", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"garbage_reads", "default", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"library_cublas", "default", "pass", std::nullopt, "calls_library"},
                      Expected{"device_oom", "default", "resource", std::nullopt, std::nullopt},
                      Expected{"gpu_spin", "default", "timeout", std::nullopt, std::nullopt},
                      Expected{"identity_public", "default", "fail_correctness", std::nullopt, "passes_public_inputs_only"},
                      Expected{"input_mutation", "default", "hack_suspected", "input_mutation", std::nullopt},
                      Expected{"input_mutation_int64", "default", "hack_suspected", "input_mutation", std::nullopt},
                      Expected{"noop", "default", "fail_correctness", std::nullopt, std::nullopt},
                      Expected{"phase_kernels", "default", "hack_suspected", "phase_detection", std::nullopt},
                      Expected{"early_side_stream", "default", "hack_suspected", "stream_injection", std::nullopt},
                      Expected{"public_fast_path", "default", "pass", std::nullopt, "faster_on_public_family"},
                      Expected{"timer_patch_cuda", "default", "hack_suspected", "timer_tampering", std::nullopt},
                      Expected{"sampling_relu", "default", "fail_correctness", std::nullopt, "passes_public_inputs_only"},
                      Expected{"softmax_no_max", "default", "fail_correctness", std::nullopt, "passes_public_inputs_only"},
                      Expected{"layernorm_biased_merge", "default", "fail_correctness", std::nullopt, "passes_public_inputs_only"},
                      Expected{"matmul_fp16", "default", "fail_correctness", std::nullopt, "passes_public_inputs_only"}),
    [](const auto& param_info) { return param_info.param.candidate; });

// Work outside every call's timed window, each caught by the check written for it
// (cupti/window_escapes.hpp): the verdict's detail names which.
struct Escaped {
  std::string candidate;
  std::string hack_pattern;
  std::string detail_names;
};
void PrintTo(const Escaped& expected, std::ostream* out) { *out << expected.candidate << " -> " << expected.detail_names; }

class RedTeamCudaOutsideTheWindow : public ::testing::TestWithParam<Escaped> {};

TEST_P(RedTeamCudaOutsideTheWindow, IsCaughtByItsOwnCheck) {
  KBV_REQUIRE_GPU();
  const Escaped& expected = GetParam();
  const auto run = eval_cuda(redteam(expected.candidate), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures(expected.candidate, run);
  EXPECT_EQ(run.report.value("verdict", ""), "hack_suspected") << explain(run);
  EXPECT_EQ(run.report.value("hack_pattern", nlohmann::json()), expected.hack_pattern) << explain(run);
  EXPECT_NE(run.report.value("detail", "").find(expected.detail_names), std::string::npos) << explain(run);
}

INSTANTIATE_TEST_SUITE_P(Corpus, RedTeamCudaOutsideTheWindow,
                         ::testing::Values(Escaped{"harness_impostor", "timer_tampering", "named as kbv's own timing kernels"},
                                           Escaped{"deferred_on_answer_gpu", "stream_injection", "between calls"},
                                           Escaped{"null_call_gpu_spin", "stream_injection", "between calls"},
                                           Escaped{"early_copy", "stream_injection", "copies or memsets of the call started before"}),
                         [](const auto& param_info) { return param_info.param.candidate; });

// The candidates that only one class of hidden families can catch (inputs/family_classes.hpp):
// the family that gated for that class must be one the candidate failed. bench/keysweep runs
// them under 40 keys (--device cuda); here, under the test key.
struct CaughtBy {
  std::string candidate;
  std::string family_class;
};
void PrintTo(const CaughtBy& expected, std::ostream* out) { *out << expected.candidate << " -> " << expected.family_class; }

class RedTeamCudaCaughtByClass : public ::testing::TestWithParam<CaughtBy> {};

TEST_P(RedTeamCudaCaughtByClass, FailsTheFamilyItsClassGatedOn) {
  KBV_REQUIRE_GPU();
  const CaughtBy& expected = GetParam();
  const auto run = eval_cuda(redteam(expected.candidate), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures(expected.candidate, run);
  ASSERT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  std::string gating;
  for (const auto& entry : run.report["classes"])
    if (entry.value("class", "") == expected.family_class && entry["gating_family"].is_string()) gating = entry["gating_family"].get<std::string>();
  ASSERT_FALSE(gating.empty()) << "class " << expected.family_class << " did not gate\n" << explain(run);
  bool failed = false;
  for (const auto& family : run.report["families"])
    if (family.value("family", "") == gating) failed = !family.value("passed", true) && family.value("gating", false);
  EXPECT_TRUE(failed) << expected.candidate << " passed " << gating << ", the family class " << expected.family_class << " gated on\n" << explain(run);
}

INSTANTIATE_TEST_SUITE_P(Corpus, RedTeamCudaCaughtByClass,
                         ::testing::Values(CaughtBy{"sampling_relu", "rare"}, CaughtBy{"softmax_no_max", "magnitude"},
                                           CaughtBy{"layernorm_biased_merge", "structure"}, CaughtBy{"matmul_fp16", "magnitude"}),
                         [](const auto& param_info) { return param_info.param.candidate; });

// The hostile candidates that hold the GPU (a spinning kernel, every byte of device memory)
// leave nothing behind: an honest relu right after passes, untouched.
TEST(RedTeamCudaAftermath, AnHonestCandidatePassesAfterTheGpuHogs) {
  KBV_REQUIRE_GPU();
  for (const char* hostile : {"gpu_spin", "device_oom"}) (void)eval_cuda(redteam(hostile), "small", "5");
  const auto run = eval_cuda(kbv::test::candidate_dir() / "cuda" / "libcuda_relu_vec4.so", "small");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
}

// A CUDA worker's writes outside its scratch directory are refused (Landlock; the driver's
// own needs, /dev/shm and its thread names under /proc/self/task, stay writable).
TEST(RedTeamCudaContained, WritingOutsideScratchCreatesNothing) {
  KBV_REQUIRE_GPU();
  const auto is_escape = [](const std::filesystem::path& path) { return path.filename().string().rfind("kbv_escape_cuda_", 0) == 0; };
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    if (is_escape(entry.path())) std::filesystem::remove(entry.path());
  const auto run = eval_cuda(redteam("write_outside_cuda"), "small");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures("write_outside_cuda", run);
  const std::string verdict = run.report.value("verdict", "");
  EXPECT_TRUE(verdict == "pass" || verdict == "sandbox_violation") << explain(run);
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    EXPECT_FALSE(is_escape(entry.path())) << "escaped file " << entry.path() << "\n" << explain(run);
}

// A run() that waits for the device while the launch gate holds the stream is honest: the gate
// times out a few calls in a row, the worker times without it from then on, and the candidate
// passes.
TEST(RedTeamCudaLaunchGate, ASynchronisingRunPassesWithoutTheGate) {
  KBV_REQUIRE_GPU();
  const auto run = eval_cuda(redteam("sync_in_run"), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures("sync_in_run", run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
  const std::string gate = run.report["environment"].value("launch_gate", "");
  EXPECT_EQ(gate.rfind("off after", 0), 0u) << "launch_gate: " << gate << "\n" << explain(run);
}

// An honest candidate that picks its kernel by its inputs' values passes: the kernel-set rule
// holds each family's timed calls to what its own correctness calls launched.
TEST(RedTeamCudaKernelSets, AKernelChosenByInputValuesPasses) {
  KBV_REQUIRE_GPU();
  const auto run = eval_cuda(redteam("value_dispatch"), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures("value_dispatch", run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
  // Both paths ran (otherwise this test proves nothing): every epoch draws families of both kinds.
  EXPECT_GE(run.report["environment"].value("kernel_sets_seen", 0), 2) << explain(run);
}

// Honest candidates that allocate device memory in each way CUDA offers pass in the sandboxed,
// traced worker, with no flag and no KBV_SANDBOX_SKIP, and their allocations count in the memory
// figure (CUPTI MEMORY2 in the worker).
struct Allocating {
  std::string candidate;
  double min_peak_bytes;  // what the candidate's own allocations reach at least
  bool synchronises;      // cudaFree in run() waits for the device: the launch gate turns off
};
void PrintTo(const Allocating& allocating, std::ostream* out) { *out << allocating.candidate; }

class HonestAllocation : public ::testing::TestWithParam<Allocating> {};

TEST_P(HonestAllocation, PassesWithNoFlagAndCountsItsMemory) {
  KBV_REQUIRE_GPU();
  const Allocating& expected = GetParam();
  const auto run = eval_cuda(redteam(expected.candidate), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures(expected.candidate, run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
  ASSERT_TRUE(run.report["memory"].is_object()) << explain(run);
  std::printf("[ figures  ] %s: memory %s\n", expected.candidate.c_str(), run.report["memory"].dump().c_str());
  EXPECT_GE(run.report["memory"].value("candidate_peak_bytes", 0.0), expected.min_peak_bytes) << explain(run);
  const std::string gate = run.report["environment"].value("launch_gate", "");
  EXPECT_EQ(gate.rfind(expected.synchronises ? "off after" : "on", 0), 0u) << "launch_gate: " << gate << "\n" << explain(run);
  // The worker's address-space limit was sized from the device, not skipped.
  const std::string sandbox = run.report["environment"].value("worker_sandbox", nlohmann::json::object()).dump();
  EXPECT_NE(sandbox.find("rlimits: as="), std::string::npos) << sandbox;
}

INSTANTIATE_TEST_SUITE_P(
    EveryWay, HonestAllocation,
    ::testing::Values(Allocating{"alloc_async_layernorm", 1, false},  // cudaMallocAsync / cudaFreeAsync, a few KB
                      Allocating{"alloc_pool", 8e6, false},           // cudaMallocFromPoolAsync on the default pool, 8.4 MB
                      Allocating{"alloc_in_run", 8e6, true},          // cudaMalloc / cudaFree in run()
                      Allocating{"alloc_in_create", 16.0 * (1 << 20), false}),  // cudaMalloc in create(), held throughout
    [](const auto& param_info) { return param_info.param.candidate; });

// A sticky CUDA error is a crash whose detail names the error and the call that reported it;
// the GPU is usable afterwards.
TEST(RedTeamCudaDetails, AnIllegalAddressIsACrashNamingTheErrorAndTheCall) {
  KBV_REQUIRE_GPU();
  const auto run = eval_cuda(redteam("illegal_address"), "small");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures("illegal_address", run);
  EXPECT_EQ(run.report.value("verdict", ""), "crash") << explain(run);
  const std::string detail = run.report.value("detail", "");
  EXPECT_NE(detail.find("cudaErrorIllegalAddress"), std::string::npos) << explain(run);
  EXPECT_NE(detail.find("after run() returned"), std::string::npos) << explain(run);
  const auto after = eval_cuda(kbv::test::candidate_dir() / "cuda" / "libcuda_relu_vec4.so", "small");
  ASSERT_TRUE(after.report.is_object()) << explain(after);
  EXPECT_EQ(after.report.value("verdict", ""), "pass") << explain(after);
}

// An honest atomicAdd reduction passes: its run-to-run differences are rounding, within the
// tolerance, worth at most the informational flag.
TEST(RedTeamCudaDeterminism, AnAtomicAddReductionPassesWithAtMostTheInformationalFlag) {
  KBV_REQUIRE_GPU();
  const auto run = eval_cuda(redteam("atomic_sum"), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  print_figures("atomic_sum", run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  for (const auto& flag : run.report["flags"]) EXPECT_EQ(flag, "bitwise_nondeterministic") << explain(run);
}

std::vector<std::string> honest_cuda_candidates() {
  std::vector<std::string> files;
  std::stringstream list(KBV_TEST_CUDA_CANDIDATES);  // problem=target,...
  for (std::string item; std::getline(list, item, ',');)
    if (const auto equals = item.find('='); equals != std::string::npos) files.push_back("lib" + item.substr(equals + 1) + ".so");
  return files;
}

class HonestCuda : public ::testing::TestWithParam<std::string> {};

TEST_P(HonestCuda, PassesWithNoFlagAtItsDefaultSize) {
  KBV_REQUIRE_GPU();
  const auto run = eval_cuda(kbv::test::candidate_dir() / "cuda" / GetParam(), "default");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  // A problem whose trusted side needs more device memory than this GPU has is refused before
  // anything runs (conv2d's default needs ~94 GB: an 80 GB H100 cannot evaluate it, 2026-12-05):
  // not this candidate's result, and said so, not counted as a pass.
  if (const std::string detail = run.report.value("detail", ""); run.report.value("verdict", "") == "resource" &&
                                                                 detail.find("of device memory on the trusted side") != std::string::npos)
    GTEST_SKIP() << "this GPU has too little memory for the problem's default size: " << detail;
  print_figures(GetParam(), run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
  // None of the examples waits for the device inside run(): the gate stays on (a first call may
  // time out once while CUDA loads its kernel).
  EXPECT_EQ(run.report["environment"].value("launch_gate", "").rfind("on", 0), 0u) << explain(run);
  // Both baselines on every kept sample; one program in both modes (relu: kbv kernels only) is
  // timed once a sample and its figures are both modes'.
  const nlohmann::json& timing = run.report["timing"];
  const int samples = timing["candidate"].value("samples", 0);
  EXPECT_EQ(timing["baseline_tf32"].value("samples", -1), samples) << explain(run);
  EXPECT_EQ(timing["baseline_fp32"].value("samples", -1), samples) << explain(run);
  const bool one_program = run.report["environment"].value("baselines_one_program", false);
  if (GetParam() == "libcuda_relu_vec4.so") {
    EXPECT_TRUE(one_program) << explain(run);
  }
  if (one_program) {
    EXPECT_EQ(timing["baseline_fp32"], timing["baseline_tf32"]) << explain(run);
  }
  // Where the span goes, kernel by kernel: every kept sample traced, the same kernels in the same
  // order each call (none of the examples chooses its kernels by input), and the kernels' time
  // within the span they make up (medians of the same calls: the sum's median is not the
  // span's, so the kernels may reach the span's largest sample, not beyond it).
  const nlohmann::json& kernels = timing["candidate_kernels"];
  ASSERT_TRUE(kernels.is_object()) << explain(run);
  EXPECT_EQ(kernels.value("samples", -1), samples) << explain(run);
  EXPECT_EQ(kernels.value("by", ""), "position") << explain(run);
  EXPECT_FALSE(kernels["kernels"].empty()) << explain(run);
  EXPECT_GT(kernels.value("kernel_sum_s", 0.0), 0.0) << explain(run);
  EXPECT_LE(kernels.value("kernel_sum_s", 0.0), timing["candidate_kernel_span"].value("max_s", 0.0)) << explain(run);
  if (GetParam() == "libcuda_kb_l3_1_mlp_wmma_tf32.so") {
    EXPECT_EQ(kernels["kernels"].size(), 3u) << explain(run);  // two hidden layers and the output layer
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, HonestCuda, ::testing::ValuesIn(honest_cuda_candidates()), [](const auto& param_info) {
  std::string name = param_info.param.substr(3, param_info.param.size() - 6);  // lib….so
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
});

}  // namespace

// Consecutive candidates in one kbv eval share the data plane (eval/evaluation_session.hpp): a
// no-op after an honest relu (whose outputs for the same seeds were in the same device buffers)
// fails, an illegal address in the middle leaves the shared plane usable, and the honest relu after
// it passes on the kept plane, untouched.
TEST(RedTeamCudaBatch, EachCandidateGetsItsVerdictOnASharedPlane) {
  KBV_REQUIRE_GPU();
  const auto honest = kbv::test::candidate_dir() / "cuda" / "libcuda_relu_vec4.so";
  kbv::test::TempDir dir;
  const auto second_honest = dir.path() / "libcuda_relu_vec4_again.so";
  std::filesystem::copy_file(honest, second_honest);
  const auto run = run_kbv_eval({honest.string(), redteam("noop").string(), redteam("illegal_address").string(), second_honest.string(),
                                 "--device", "cuda", "--shapes", "small", "--timeout-s", "20"},
                                {{"KBV_PROBLEMS_DIR", kbv::test::problems_dir().string()}});
  std::vector<nlohmann::json> reports;
  std::istringstream lines(run.result.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) reports.push_back(nlohmann::json::parse(line, nullptr, false));
  ASSERT_EQ(reports.size(), 4u) << explain(run);
  const std::vector<std::string> verdicts = {"pass", "fail_correctness", "crash", "pass"};
  for (size_t i = 0; i < reports.size(); ++i) {
    ASSERT_TRUE(reports[i].is_object()) << i << explain(run);
    EXPECT_EQ(reports[i].value("verdict", ""), verdicts[i]) << i << ": " << reports[i].value("detail", "");
    EXPECT_EQ(reports[i]["environment"].value("data_plane_reused", false), i > 0) << i;
  }
  EXPECT_TRUE(reports[3]["flags"].empty()) << reports[3].dump(2);
}
