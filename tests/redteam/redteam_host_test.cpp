// redteam_host_test.cpp — every host red-team candidate gets its exact verdict (EXPECTED.md),
// sandbox escapes are contained and reported, and an honest candidate evaluated right after
// still passes untouched.
#include <gtest/gtest.h>

#include <sys/ipc.h>
#include <sys/shm.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include "kbv_eval.hpp"

namespace {

using kbv::test::explain;
using kbv::test::run_kbv_eval;

std::filesystem::path redteam(const std::string& name) {
  return kbv::test::candidate_dir() / "redteam" / ("libredteam_" + name + ".so");
}

struct Expected {
  std::string candidate;
  std::string verdict;
  std::optional<std::string> hack_pattern;
};

// A stable test name for ctest (gtest would print the struct's bytes, pointers included).
void PrintTo(const Expected& expected, std::ostream* out) { *out << expected.candidate << " -> " << expected.verdict; }

class RedTeamHost : public ::testing::TestWithParam<Expected> {};

TEST_P(RedTeamHost, GetsItsExactVerdict) {
  const Expected& expected = GetParam();
  const auto run = run_kbv_eval({redteam(expected.candidate).string(), "--timeout-s", "10"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), expected.verdict) << explain(run);
  if (expected.hack_pattern) {
    EXPECT_EQ(run.report.value("hack_pattern", nlohmann::json()), *expected.hack_pattern) << explain(run);
  }
  EXPECT_EQ(run.result.exit_code, 1) << explain(run);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, RedTeamHost,
    ::testing::Values(Expected{"thread_injection", "hack_suspected", "thread_injection"},
                      Expected{"background_spin", "hack_suspected", "thread_injection"},
                      Expected{"thread_at_create", "hack_suspected", "thread_injection"},
                      Expected{"thread_at_load", "hack_suspected", "thread_injection"},
                      Expected{"lazy_output", "fail_correctness", std::nullopt},
                      Expected{"batch_and_skip", "fail_correctness", std::nullopt},
                      Expected{"phase_detection", "fail_correctness", std::nullopt},
                      Expected{"precision_bf16_host", "fail_correctness", std::nullopt},
                      Expected{"precision_bf16_timing_host", "fail_correctness", std::nullopt},
                      Expected{"precision_bf16_relu_host", "fail_correctness", std::nullopt},
                      Expected{"garbage_reads_host", "fail_correctness", std::nullopt},
                      Expected{"layernorm_identity", "fail_correctness", std::nullopt},
                      Expected{"known_seed_replay", "fail_correctness", std::nullopt},
                      Expected{"timer_patch_got", "hack_suspected", "timer_tampering"},
                      Expected{"result_forgery", "hack_suspected", "result_forgery"},
                      Expected{"read_reference", "fail_correctness", std::nullopt},
                      Expected{"socket_escape", "sandbox_violation", std::nullopt},
                      Expected{"ptrace_parent", "sandbox_violation", std::nullopt},
                      Expected{"fork_bomb", "sandbox_violation", std::nullopt},
                      Expected{"sampling_relu_host", "fail_correctness", std::nullopt},
                      Expected{"softmax_no_max_host", "fail_correctness", std::nullopt},
                      Expected{"layernorm_biased_merge_host", "fail_correctness", std::nullopt},
                      Expected{"matmul_fp16_host", "fail_correctness", std::nullopt},
                      Expected{"input_mutation_int64_host", "hack_suspected", "input_mutation"},
                      Expected{"forged_frame_types", "hack_suspected", "result_forgery"},
                      Expected{"deep_frame", "hack_suspected", "result_forgery"},
                      Expected{"wake_ping_precompute", "fail_correctness", std::nullopt},
                      Expected{"null_call_completion", "fail_correctness", std::nullopt}),
    [](const auto& param_info) { return param_info.param.candidate; });

// Slow clocks hidden by spending the worker's CPU around its answers, or by a thread that waits
// without working: ctest runs them alone (RUN_SERIAL, tests/redteam/CMakeLists.txt), as their
// thresholds were set on a CPU that is not oversubscribed (busy_between_calls is also run under
// load: timer_under_load_test.cpp).
INSTANTIATE_TEST_SUITE_P(TimingCorpus, RedTeamHost,
                         ::testing::Values(Expected{"null_call_inflation", "hack_suspected", "timer_tampering"},
                                           Expected{"busy_between_calls", "hack_suspected", "timer_tampering"},
                                           Expected{"yield_waiter", "hack_suspected", "timer_tampering"}),
                         [](const auto& param_info) { return param_info.param.candidate; });

// The candidates that only one class of hidden families can catch (inputs/family_classes.hpp):
// the family that gated for that class must be one the candidate failed, whichever family the
// verdict names first. bench/keysweep runs them under 40 keys; here, under the test key.
struct CaughtBy {
  std::string candidate;
  std::string family_class;
};

void PrintTo(const CaughtBy& expected, std::ostream* out) { *out << expected.candidate << " -> " << expected.family_class; }

class RedTeamHostCaughtByClass : public ::testing::TestWithParam<CaughtBy> {};

TEST_P(RedTeamHostCaughtByClass, FailsTheFamilyItsClassGatedOn) {
  const CaughtBy& expected = GetParam();
  const auto run = run_kbv_eval({redteam(expected.candidate).string(), "--no-timing"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  std::string gating;
  for (const auto& entry : run.report["classes"])
    if (entry.value("class", "") == expected.family_class && entry["gating_family"].is_string()) gating = entry["gating_family"].get<std::string>();
  ASSERT_FALSE(gating.empty()) << "class " << expected.family_class << " did not gate\n" << explain(run);
  bool failed = false;
  for (const auto& family : run.report["families"])
    if (family.value("family", "") == gating) failed = !family.value("passed", true) && family.value("gating", false);
  EXPECT_TRUE(failed) << expected.candidate << " passed " << gating << ", the family class " << expected.family_class << " gated on\n" << explain(run);
  EXPECT_TRUE(run.report["degenerate_classes"].empty()) << explain(run);
}

INSTANTIATE_TEST_SUITE_P(Corpus, RedTeamHostCaughtByClass,
                         ::testing::Values(CaughtBy{"sampling_relu_host", "rare"}, CaughtBy{"softmax_no_max_host", "magnitude"},
                                           CaughtBy{"matmul_fp16_host", "magnitude"}),
                         [](const auto& param_info) { return param_info.param.candidate; });

// The precision check end to end (docs/problem-spec.md, Precision check): a bf16 GEMM after a bias
// and a relu fails with the flag bf16_operands, and the failing family's ratio says why.
TEST(RedTeamHostPrecision, Bf16OperandsAreFlaggedWithTheFamilysRatio) {
  const auto run = run_kbv_eval({redteam("precision_bf16_relu_host").string(), "--no-timing"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  const auto& flags = run.report["flags"];
  EXPECT_NE(std::find(flags.begin(), flags.end(), "bf16_operands"), flags.end()) << explain(run);
  const std::string failed = run.report.value("failed_family", "");
  bool seen = false;
  for (const auto& family : run.report["families"])
    if (family.value("family", "") == failed) {
      seen = true;
      ASSERT_TRUE(family["bf16_distance_ratio"].is_number()) << explain(run);
      EXPECT_LT(family["bf16_distance_ratio"].get<double>(), 0.5) << explain(run);
      EXPECT_NE(family.value("detail", "").find("bfloat16-rounded operands"), std::string::npos) << explain(run);
    }
  EXPECT_TRUE(seen) << explain(run);
}

double median_of(const kbv::test::EvalRun& run) {
  return run.report["timing"]["candidate"].value("median_s", 0.0);
}

// Attacks the sandbox silently refuses (Landlock answers EACCES, nothing to report): the
// candidate's honest relu then passes, and the test proves the attack had no effect.
// Work deferred past the worker's answer (a hook on its send, no thread): the worker is stopped
// on every answer, so the timed outputs are unwritten (or written in part) when they are read,
// or, should the work fit in the instant before the stop, it is inside the round trip. Its timed
// run() returns at once, so on an idle CPU the physical floor usually names it first.
TEST(RedTeamHostContained, WorkAfterTheAnswerNeverPasses) {
  const auto run = run_kbv_eval({redteam("deferred_after_answer").string(), "--timeout-s", "10"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  const std::string verdict = run.report.value("verdict", "");
  const nlohmann::json pattern = run.report.value("hack_pattern", nlohmann::json());
  EXPECT_TRUE(verdict == "fail_correctness" || (verdict == "hack_suspected" && (pattern == "timer_tampering" || pattern == "impossible_time")))
      << explain(run);
}

TEST(RedTeamHostContained, WritingOutsideScratchCreatesNothing) {
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    if (entry.path().filename().string().rfind("kbv_escape_", 0) == 0) std::filesystem::remove(entry.path());
  const auto run = run_kbv_eval({redteam("write_outside").string()});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_TRUE(run.report.value("verdict", "") == "pass" || run.report.value("verdict", "") == "sandbox_violation") << explain(run);
  for (const auto& entry : std::filesystem::directory_iterator("/tmp"))
    EXPECT_NE(entry.path().filename().string().rfind("kbv_escape_", 0), 0u) << "escaped file " << entry.path();
}

// A candidate filling its scratch folder stops at the private tmpfs's bound, not at the disk's
// end (sandbox/sandbox.hpp, kDefaultScratchBytes); the evaluation goes on to its own verdict.
TEST(RedTeamHostContained, FillingScratchStopsAtItsBound) {
  const auto run = run_kbv_eval({redteam("fill_scratch").string(), "--no-timing", "--timeout-s", "20"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  const std::string applied = run.report["environment"]["worker_sandbox"].value("applied", nlohmann::json::array()).dump();
  if (applied.find("scratch is a private tmpfs") == std::string::npos)
    GTEST_SKIP() << "no mount namespace here, so scratch is the folder, bounded per file only: " << applied;
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const std::string output = run.report.value("worker_stderr_tail", "");
  const auto line = output.find("fill_scratch: MiB written, stopped by: ");
  ASSERT_NE(line, std::string::npos) << output;
  std::istringstream fields(output.substr(line + std::string("fill_scratch: MiB written, stopped by: ").size()));
  int mib = -1;
  std::string stop;
  fields >> mib;
  std::getline(fields, stop);
  EXPECT_LE(mib, 512) << output;
  EXPECT_NE(stop.find("No space left on device"), std::string::npos) << output;
}

// A candidate that would resume itself while kbv holds it stopped (a timer's SIGCONT) cannot arm
// the timer nor handle SIGCONT: seccomp refuses timer_create and the handler, and its honest relu passes.
TEST(RedTeamHostContained, ATimerThatWouldResumeTheStoppedWorkerIsRefused) {
  const auto run = run_kbv_eval({redteam("self_resume").string(), "--timeout-s", "10"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_NE(run.report.value("worker_stderr_tail", "").find("self_resume: timer_create refused"), std::string::npos) << explain(run);
  EXPECT_NE(run.report.value("worker_stderr_tail", "").find("self_resume: sigaction(SIGCONT) refused"), std::string::npos) << explain(run);
}

// Red-team: outputs stashed in a System V segment outlived the worker, for a later evaluation
// of the same problem (another candidate's) to copy. Each worker has an IPC namespace of its own,
// so the second evaluation finds no segment of the first's, and its honest relu passes.
TEST(RedTeamHostContained, SystemVSegmentsDoNotOutliveTheEvaluation) {
  constexpr key_t kStashKey = 0x6b627673;  // tests/redteam/candidates/sysv_stash.cpp
  const auto remove_stash = [] {
    if (const int id = ::shmget(kStashKey, 0, 0); id >= 0) ::shmctl(id, IPC_RMID, nullptr);
  };
  remove_stash();
  for (int evaluation = 0; evaluation < 2; ++evaluation) {
    const auto run = run_kbv_eval({redteam("sysv_stash").string(), "--no-timing", "--timeout-s", "10"});
    ASSERT_TRUE(run.report.is_object()) << explain(run);
    const std::string applied = run.report["environment"]["worker_sandbox"].value("applied", nlohmann::json::array()).dump();
    if (applied.find("namespace: new ipc") == std::string::npos) {
      remove_stash();
      GTEST_SKIP() << "no IPC namespace here (unprivileged namespaces off?), so System V objects are the host's: " << applied;
    }
    EXPECT_EQ(run.report.value("verdict", ""), "pass") << "evaluation " << evaluation << "\n" << explain(run);
    EXPECT_EQ(run.report.value("worker_stderr_tail", "").find("found another evaluation's segment"), std::string::npos) << explain(run);
  }
  EXPECT_LT(::shmget(kStashKey, 0, 0), 0) << "the segment is in the host's IPC namespace";
  remove_stash();
}

TEST(RedTeamHostContained, TheSecretKeyNeverReachesTheCandidate) {
  const auto& key_file = kbv::test::test_key_file();
  // The candidate looks in $KBV_KEY_FILE too: point it at the key this evaluation really uses.
  auto run = run_kbv_eval({redteam("read_secret").string()}, {{"KBV_KEY_FILE", key_file.string()}});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  std::ifstream in(key_file);
  std::string key_hex;
  in >> key_hex;
  ASSERT_EQ(key_hex.size(), 64u);
  EXPECT_EQ(run.result.out.find(key_hex), std::string::npos) << "the key leaked into kbv's output";
  EXPECT_EQ(run.result.err.find(key_hex), std::string::npos) << "the key leaked into kbv's stderr";
  EXPECT_TRUE(run.report.value("verdict", "") == "pass" || run.report.value("verdict", "") == "sandbox_violation") << explain(run);
}

TEST(RedTeamHostContained, PatchingTheClockThroughProcMemGainsNothing) {
  const auto honest = run_kbv_eval({kbv::test::host_candidate("relu").string()});
  const auto patched = run_kbv_eval({redteam("timer_patch_procmem").string()});
  ASSERT_TRUE(patched.report.is_object()) << explain(patched);
  const std::string verdict = patched.report.value("verdict", "");
  if (verdict == "pass") {
    // Same honest relu underneath: a clock that ran slow would show as a far shorter median.
    EXPECT_GT(median_of(patched), 0.5 * median_of(honest)) << explain(patched);
  } else {
    EXPECT_TRUE(verdict == "sandbox_violation" || verdict == "hack_suspected") << explain(patched);
  }
}

TEST(RedTeamHostContained, ContentCachingNeverHits) {
  const auto honest = run_kbv_eval({kbv::test::host_candidate("relu").string()});
  const auto caching = run_kbv_eval({redteam("cache_content_hash").string()});
  ASSERT_EQ(caching.report.value("verdict", ""), "pass") << explain(caching);
  EXPECT_GT(median_of(caching), 0.5 * median_of(honest)) << "a cache hit: contents repeated across samples\n" << explain(caching);
}

// Text the candidate hands kbv (its name, an error, its stderr) need not be UTF-8 nor short: it
// reaches the result with U+FFFD in place of an invalid byte, names are cut at 256 bytes, and
// the verdict is the candidate's own, never a crash of kbv's encoder or a stalled load.
TEST(RedTeamHostCandidateText, InvalidUtf8AndLongNamesKeepTheVerdict) {
  const auto refused = run_kbv_eval({redteam("utf8_error_text").string(), "--no-timing"});
  ASSERT_TRUE(refused.report.is_object()) << explain(refused);
  EXPECT_EQ(refused.report.value("verdict", ""), "fail_correctness") << explain(refused);
  EXPECT_NE(refused.report.value("detail", "").find("not yet \xEF\xBF\xBD"), std::string::npos) << explain(refused);

  for (const char* honest : {"utf8_name", "long_name", "stderr_split_utf8"}) {
    const auto start = std::chrono::steady_clock::now();
    const auto run = run_kbv_eval({redteam(honest).string(), "--no-timing", "--timeout-s", "10"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(run.report.is_object()) << honest << ": " << explain(run);
    EXPECT_EQ(run.report.value("verdict", ""), "pass") << honest << ": " << explain(run);
    EXPECT_EQ(run.result.exit_code, 0) << honest << ": " << explain(run);
    EXPECT_LT(seconds, 30) << honest << ": no load that waits out a limit";
  }
  const auto named = run_kbv_eval({redteam("utf8_name").string(), "--no-timing"});
  EXPECT_EQ(named.report["candidate"].value("name", ""), "bad\xEF\xBF\xBD") << explain(named);
  const auto long_named = run_kbv_eval({redteam("long_name").string(), "--no-timing"});
  EXPECT_EQ(long_named.report["candidate"].value("name", ""), std::string(256, 'A') + "\xE2\x80\xA6 (cut at 256 bytes)") << explain(long_named);
}

// The text report escapes what the candidate wrote: no escape sequence reaches the terminal and
// no line of the report is the candidate's (it forges "verdict    PASS" after a newline).
TEST(RedTeamHostCandidateText, TheTextReportEscapesTheCandidatesWords) {
  kbv::test::Command command;
  command.argv = {kbv::test::kbv_binary().string(), "eval", redteam("terminal_escape").string(), "--no-timing", "--verbose", "--key-file",
                  kbv::test::test_key_file().string()};
  const kbv::test::CommandResult text = kbv::test::run_command(command);
  EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("\nverdict    PASS"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("verdict    FAIL_CORRECTNESS"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\\x1b[2J"), std::string::npos) << "the sequence is shown, escaped:\n" << text.out;
}

TEST(RedTeamHostAftermath, AnHonestCandidatePassesAfterTheCorpus) {
  for (const char* hostile : {"fork_bomb", "background_spin", "socket_escape"}) (void)run_kbv_eval({redteam(hostile).string()});
  const auto run = run_kbv_eval({kbv::test::host_candidate("relu").string()});
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["flags"].empty()) << explain(run);
}

}  // namespace
