// batch_eval_test.cpp — consecutive candidates in one `kbv eval` (eval/evaluation_session.hpp)
// share the data plane, the family validations and an early-started worker, and each still gets the
// verdict it gets alone: a no-op after an honest candidate (whose outputs for the same seeds were in
// the same buffers) fails, a crash or a hang in the middle changes nothing for the ones after it,
// and a marker one candidate leaves in the shared arena does not reach the next.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "eval/evaluation_session.hpp"
#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

// --timeout-s for the batch that holds the hang: far above any honest small-shape call.
constexpr const char* kHangTimeoutSeconds = "5";

struct Expected {
  std::string name;  // host_relu or hostile_<name>
  std::string verdict;
};

std::filesystem::path candidate_path(const std::string& name) {
  return name == "host_relu" ? host_candidate("relu") : hostile_candidate(name);
}

// Runs `kbv eval` on the candidates in order; one report per candidate, in order.
std::vector<nlohmann::json> run_batch(const std::vector<std::string>& names, const TempDir& dir,
                                      const std::vector<std::string>& extra_args = {},
                                      const std::map<std::string, std::string>& env = {}) {
  std::vector<std::string> args;
  for (size_t i = 0; i < names.size(); ++i) {
    // Distinct files: kbv eval names each result by its path.
    const std::filesystem::path copy = dir.path() / (std::to_string(i) + "_" + candidate_path(names[i]).filename().string());
    std::filesystem::copy_file(candidate_path(names[i]), copy);
    args.push_back(copy.string());
  }
  args.insert(args.end(), {"--problem", "relu", "--device", "host", "--shapes", "small", "--timeout-s", kHangTimeoutSeconds});
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const EvalRun run = run_kbv_eval(args, env);
  std::vector<nlohmann::json> reports;
  std::istringstream lines(run.result.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) reports.push_back(nlohmann::json::parse(line, nullptr, false));
  EXPECT_EQ(reports.size(), names.size()) << explain(run);
  return reports;
}

TEST(BatchEval, EachCandidateGetsTheVerdictItGetsAloneWhileTheBatchSharesItsPlane) {
  const std::vector<Expected> batch = {
      {"host_relu", "pass"},
      {"relu_noop", "fail_correctness"},  // the honest outputs of the same seeds were in these buffers
      {"host_relu", "pass"},
      {"relu_mutates_input", "hack_suspected"},
      {"relu_segfault", "crash"},
      {"host_relu", "pass"},
      {"relu_hang", "timeout"},
      {"relu_identity_on_public", "fail_correctness"},
      {"relu_cache_by_pointer", "fail_correctness"},
      {"host_relu", "pass"},
  };
  TempDir dir;
  std::vector<std::string> names;
  for (const auto& item : batch) names.push_back(item.name);
  const std::vector<nlohmann::json> reports = run_batch(names, dir);
  ASSERT_EQ(reports.size(), batch.size());
  int reused = 0, early = 0;
  for (size_t i = 0; i < batch.size(); ++i) {
    ASSERT_TRUE(reports[i].is_object()) << i;
    EXPECT_EQ(reports[i]["verdict"], batch[i].verdict) << i << " " << batch[i].name << ": " << reports[i].value("detail", "");
    const auto& environment = reports[i]["environment"];
    if (i == 0) {
      EXPECT_EQ(environment["data_plane_reused"], false);
      EXPECT_EQ(environment["family_validations_reused"], 0);
      continue;
    }
    EXPECT_EQ(environment["data_plane_reused"], true) << i << " " << batch[i].name;
    reused += environment.value("family_validations_reused", 0) > 0;
    early += environment.value("worker_started_early", false);
  }
  EXPECT_EQ(reused, static_cast<int>(batch.size()) - 1) << "every later candidate had the families validated already";
  EXPECT_EQ(early, static_cast<int>(batch.size()) - 1) << "the next worker starts during a candidate's correctness phase";
}

TEST(BatchEval, AMarkerLeftInTheSharedArenaDoesNotReachTheNextCandidate) {
  TempDir dir;
  // The reader alone passes: what it looks for is not there.
  const std::vector<nlohmann::json> alone = run_batch({"relu_stash_reader"}, dir);
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_EQ(alone[0]["verdict"], "pass") << alone[0].dump(2);
  TempDir batch_dir;
  const std::vector<nlohmann::json> reports = run_batch({"relu_stash_writer", "relu_stash_reader", "relu_stash_writer", "relu_stash_reader"}, batch_dir);
  ASSERT_EQ(reports.size(), 4u);
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i]["verdict"], "pass") << i << ": " << reports[i].value("detail", "");
    if (i > 0) {
      EXPECT_EQ(reports[i]["environment"]["data_plane_reused"], true) << i;
    }
  }
}

// A worker started early whose own start failed is not the next candidate's doing (on CUDA the
// previous candidate may have held the device's memory while it came up): a fresh worker,
// started once the previous candidate is gone, decides. The stand-in worker fails its second
// start as kbv-worker reports an unavailable device and then lingers (CUDA's teardown), so the
// evaluator finds it stopped, not gone; before, the second candidate got bad_input for it.
TEST(BatchEval, AnEarlyWorkerThatFailedToStartIsReplacedNotBlamedOnTheNextCandidate) {
  TempDir dir;
  const std::filesystem::path starts = dir.path() / "starts";
  const std::filesystem::path stand_in = dir.path() / "kbv-worker-second-start-fails";
  {
    std::ofstream script(stand_in);
    script << "#!/bin/sh\n"
           << "count=0\n"
           << "[ -f '" << starts.string() << "' ] && read count < '" << starts.string() << "'\n"
           << "count=$((count + 1))\n"
           << "echo $count > '" << starts.string() << "'\n"
           << "if [ $count -eq 2 ]; then\n"
           << "  printf '%s' '{\"type\":\"load_failed\",\"kind\":\"device_unavailable\",\"error\":\"the stand-in worker: second start\"}' >&3\n"
           << "  /bin/sleep 20\n"
           << "  exit 3\n"
           << "fi\n"
           << "exec '" << (kbv_binary().parent_path() / "kbv-worker").string() << "' \"$@\"\n";
  }
  std::filesystem::permissions(stand_in, std::filesystem::perms::owner_all);
  const std::vector<nlohmann::json> reports = run_batch({"host_relu", "host_relu"}, dir, {}, {{"KBV_WORKER", stand_in.string()}});
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0]["verdict"], "pass") << reports[0].dump(2);
  EXPECT_EQ(reports[1]["verdict"], "pass") << reports[1].dump(2);
  EXPECT_EQ(reports[1]["environment"].value("worker_started_early_failed", ""), "device_unavailable: the stand-in worker: second start")
      << reports[1]["environment"].dump(2);
  EXPECT_EQ(reports[1]["environment"]["worker_started_early"], false) << "the fresh worker evaluated it";
}

// Without the sandbox a candidate could fork and move its child out of the worker's cgroup, where
// it would outlive the worker and reach the next arena: nothing is shared.
TEST(BatchEval, NothingIsSharedWithoutTheSandbox) {
  TempDir dir;
  const std::vector<nlohmann::json> reports = run_batch({"host_relu", "host_relu"}, dir, {"--no-sandbox"});
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[1]["verdict"], "pass") << reports[1].dump(2);
  EXPECT_EQ(reports[1]["environment"]["data_plane_reused"], false);
}

// Nor when the operator leaves seccomp out (KBV_SANDBOX_SKIP, for diagnosis): new processes are
// allowed then, and the worker's cgroup alone does not keep a child from outliving the worker.
TEST(BatchEval, NothingIsSharedWithoutSeccomp) {
  TempDir dir;
  const std::vector<nlohmann::json> reports = run_batch({"host_relu", "host_relu"}, dir, {}, {{"KBV_SANDBOX_SKIP", "seccomp"}});
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[1]["verdict"], "pass") << reports[1].dump(2);
  EXPECT_EQ(reports[1]["environment"]["data_plane_reused"], false) << reports[1]["environment"].dump(2);
}

// The decision itself, against reports a worker could send: a report claiming seccomp counts only
// where the evaluator knows the worker applied it (sandbox on, built with it, not skipped by the
// operator). A candidate runs in the worker before its report is sent, and one that speaks the
// protocol in the worker's place (harness_impostor) can claim any layer (review: the evaluator
// believed the report alone, so under KBV_SANDBOX_SKIP=seccomp a forged line shared the plane).
TEST(BatchEval, APlaneIsSharedOnlyWhereTheEvaluatorKnowsSeccompWasApplied) {
  const nlohmann::json claims_seccomp = {{"applied", {"no_new_privs", "seccomp: default allow; 40 escape rules trap"}}};
  EXPECT_TRUE(eval::worker_leaves_nothing(true, true, {}, claims_seccomp));
  EXPECT_TRUE(eval::worker_leaves_nothing(true, true, {"landlock"}, claims_seccomp)) << "another layer skipped: seccomp still refuses new processes";
  EXPECT_FALSE(eval::worker_leaves_nothing(true, true, {"landlock", "seccomp"}, claims_seccomp)) << "the operator left seccomp out: a forged report";
  EXPECT_FALSE(eval::worker_leaves_nothing(false, true, {}, claims_seccomp)) << "--no-sandbox: a forged report";
  EXPECT_FALSE(eval::worker_leaves_nothing(true, false, {}, claims_seccomp)) << "a worker built without the sandbox: a forged report";
  EXPECT_FALSE(eval::worker_leaves_nothing(true, true, {}, {{"applied", {"no_new_privs"}}, {"unavailable", {"seccomp: skipped"}}}));
  EXPECT_FALSE(eval::worker_leaves_nothing(true, true, {}, {{"applied", "seccomp: as a string, not a list"}}));
  EXPECT_FALSE(eval::worker_leaves_nothing(true, true, {}, nullptr)) << "no report";
}

}  // namespace
}  // namespace kbv::test
