// tests/sweep/slurm_test.cpp — `kbv sweep --slurm` without Slurm: the job array's range and
// per-task command, the merge job and its dependency, which shards a resubmission runs, the key
// file check, and sbatch's answers and failures (a fake sbatch).
#include <sys/stat.h>

#include <algorithm>
#include <functional>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sweep/report/report_builder.hpp"
#include "sweep/report/report_sources.hpp"
#include "sweep/slurm.hpp"
#include "sweep_test_files.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

SlurmJob three_shards() {
  SlurmJob job;
  job.kbv = "/opt/kbv/bin/kbv";
  job.config_file = "/home/u/sweep.yaml";
  job.output_dir = "/shared/out";
  job.key_file = "/shared/keys/secret.key";
  job.slurm_dir = "/shared/out/epoch-47/slurm";
  job.name = "nightly";
  job.epoch = 47;
  job.plan_id = "0123456789abcdef";
  job.shard_count = 3;
  job.shards = {1, 2, 3};
  return job;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SlurmScripts, ArrayRangeIsOneTaskIdPerShardCompressed) {
  EXPECT_EQ(slurm_array_range({1, 2, 3}), "0-2");
  EXPECT_EQ(slurm_array_range({1}), "0");
  EXPECT_EQ(slurm_array_range({2, 4}), "1,3");
  EXPECT_EQ(slurm_array_range({7, 1, 3, 5, 6}), "0,2,4-6") << "sorted, runs compressed";
  EXPECT_THROW(slurm_array_range({}), SlurmError);
}

TEST(SlurmScripts, EachTaskRunsItsShardStandaloneWithTheFixedEpochAndKey) {
  const auto script = slurm_array_script(three_shards());
  EXPECT_TRUE(script.starts_with("#!/bin/bash\n"));
  EXPECT_TRUE(contains(script, "#SBATCH --array=0-2\n")) << script;
  EXPECT_TRUE(contains(script, "#SBATCH --ntasks=1\n")) << script;
  EXPECT_TRUE(contains(script, "#SBATCH --cpus-per-task=2\n")) << "an evaluator and its worker: Slurm's default of one CPU would put both on one core";
  EXPECT_TRUE(contains(script, "#SBATCH --output=/shared/out/epoch-47/slurm/logs/task-%a-job-%A.out\n")) << script;
  EXPECT_TRUE(contains(script, "exec /opt/kbv/bin/kbv sweep /home/u/sweep.yaml --standalone --shard $((SLURM_ARRAY_TASK_ID+1))/3 --epoch 47 "
                               "--plan 0123456789abcdef --key-file /shared/keys/secret.key --output /shared/out --device host --no-report\n"))
      << script;
  EXPECT_FALSE(contains(script, "--partition")) << "no partition asked for: the cluster's default";
  EXPECT_FALSE(contains(script, "--gpus-per-task")) << "a host sweep asks for no GPU";
  EXPECT_FALSE(contains(script, " report ")) << "the tasks write no report; the merge job does";
}

TEST(SlurmScripts, PartitionGpusAndJobsGoIntoTheScript) {
  auto job = three_shards();
  job.partition = "gpu-h200";
  job.gpus_per_task = 2;
  job.device = "cuda";
  job.jobs = 4;
  job.task_args = {"--budget-wall-s", "3600"};
  const auto script = slurm_array_script(job);
  EXPECT_TRUE(contains(script, "#SBATCH --partition=gpu-h200\n")) << script;
  EXPECT_TRUE(contains(script, "#SBATCH --gpus-per-task=2\n")) << script;
  EXPECT_TRUE(contains(script, "--device cuda --jobs 4 --budget-wall-s 3600 --no-report\n")) << script;
  EXPECT_TRUE(contains(slurm_merge_script(job), "#SBATCH --partition=gpu-h200\n"));
  EXPECT_FALSE(contains(slurm_merge_script(job), "--gpus-per-task")) << "the merge needs no GPU";
}

TEST(SlurmScripts, PathsWithSpacesAreQuoted) {
  auto job = three_shards();
  job.config_file = "/home/u/my sweeps/it's.yaml";
  const auto script = slurm_array_script(job);
  EXPECT_TRUE(contains(script, " sweep '/home/u/my sweeps/it'\\''s.yaml' --standalone")) << script;
  EXPECT_EQ(shell_quote("/plain/path-1.yaml"), "/plain/path-1.yaml");
  EXPECT_EQ(shell_quote(""), "''");
}

// Review: #SBATCH lines are read unquoted: an output_dir with a line break ran its rest as a bash
// command in both scripts, and a space split the argument. Such values are refused.
TEST(SlurmScripts, DirectiveValuesThatAnSbatchLineCannotCarryAreRefused) {
  auto job = three_shards();
  job.slurm_dir = "/x\ntouch /tmp/p #/epoch-47/slurm";
  EXPECT_THROW(slurm_array_script(job), SlurmError);
  EXPECT_THROW(slurm_merge_script(job), SlurmError);
  job = three_shards();
  job.slurm_dir = "/shared/my out/epoch-47/slurm";
  EXPECT_THROW(slurm_array_script(job), SlurmError);
  job = three_shards();
  job.partition = "gpu\ncmd";
  try {
    slurm_array_script(job);
    ADD_FAILURE() << "a partition with a line break was written";
  } catch (const SlurmError& error) {
    EXPECT_TRUE(contains(error.what(), "--partition gpu\\ncmd holds a space, a quote or a control character")) << error.what();
  }
}

TEST(SlurmScripts, AResubmissionArrayHasOnlyItsShards) {
  auto job = three_shards();
  job.shards = {2};
  const auto script = slurm_array_script(job);
  EXPECT_TRUE(contains(script, "#SBATCH --array=1\n")) << script;
  EXPECT_TRUE(contains(script, "--shard $((SLURM_ARRAY_TASK_ID+1))/3 ")) << "still shard I of all 3: " << script;
}

TEST(SlurmScripts, TheMergeJobReportsAfterAnyEndOfTheArray) {
  const auto script = slurm_merge_script(three_shards());
  EXPECT_TRUE(contains(script, "exec /opt/kbv/bin/kbv report /shared/out --epoch 47\n")) << script;
  EXPECT_TRUE(contains(script, "#SBATCH --output=/shared/out/epoch-47/slurm/logs/merge-job-%j.out\n")) << script;
  EXPECT_FALSE(contains(script, "--array")) << script;
  EXPECT_EQ(slurm_merge_arguments(std::string("1234")), std::vector<std::string>{"--dependency=afterany:1234"});
  EXPECT_TRUE(slurm_merge_arguments(std::nullopt).empty()) << "every shard complete: the merge runs on its own";
}

class SlurmFolder : public ::testing::Test {
 protected:
  void status(int index, const json& body) {
    test::write_text(shard_status_path(folder_, plan_, {index, plan_.shard_count}), body.dump());
  }
  json finished(int planned, int evaluated) {
    return {{"schema", "kbv.sweep.shard"}, {"state", "finished"}, {"epoch", plan_.epoch}, {"planned", planned}, {"evaluated", evaluated}};
  }
  test::TempFolder dir_;
  SweepFolder folder_{dir_.path()};
  Plan plan_ = [] {
    Plan p;
    p.epoch = 9;
    p.shard_count = 4;
    p.plan_id = "0123456789abcdef";
    return p;
  }();
};

TEST_F(SlurmFolder, AResubmissionRunsEveryShardWithoutACompleteStatus) {
  EXPECT_EQ(shards_to_submit(folder_, plan_), (std::vector<int>{1, 2, 3, 4})) << "nothing ran yet";
  status(1, finished(3, 3));
  status(2, finished(3, 2));                                                   // stopped early (budget, signal)
  status(3, {{"state", "running"}, {"planned", 2}, {"evaluated", 0}});         // killed or cancelled while running
  test::write_text(shard_status_path(folder_, plan_, {4, 4}), "{ not json");  // damaged
  EXPECT_EQ(shards_to_submit(folder_, plan_), (std::vector<int>{2, 3, 4}));
  status(2, finished(3, 3));
  status(3, finished(2, 2));
  status(4, finished(0, 0));
  EXPECT_TRUE(shards_to_submit(folder_, plan_).empty()) << "all complete: only the merge runs";
}

TEST_F(SlurmFolder, TheKeyFileMustBeReadableByItsOwnerOnly) {
  const auto key = dir_.path() / "secret.key";
  try {
    check_private_key_file(key);
    FAIL() << "a missing key is refused";
  } catch (const SlurmError& error) {
    EXPECT_TRUE(contains(error.what(), key.string())) << error.what();
    EXPECT_TRUE(contains(error.what(), "kbv keygen")) << error.what();
  }
  test::write_text(key, "0123");
  ::chmod(key.c_str(), 0644);
  try {
    check_private_key_file(key);
    FAIL() << "a key others can read is refused";
  } catch (const SlurmError& error) {
    EXPECT_TRUE(contains(error.what(), key.string())) << error.what();
    EXPECT_TRUE(contains(error.what(), "0644")) << error.what();
    EXPECT_TRUE(contains(error.what(), "fix: chmod 600 " + key.string())) << error.what();
  }
  ::chmod(key.c_str(), 0600);
  EXPECT_NO_THROW(check_private_key_file(key));
  ::chmod(key.c_str(), 0400);
  EXPECT_NO_THROW(check_private_key_file(key));
}

TEST_F(SlurmFolder, TheReportRefusesShardsThatDisagreeOnTheEpochAndNamesEachShardsEpochAndKey) {
  plan_.shard_count = 2;
  plan_.key_id = "k1";
  test::write_text(plan_path(folder_, plan_), plan_.to_json().dump());
  auto one = finished(0, 0), two = finished(0, 0);
  one["key_id"] = two["key_id"] = "k1";
  status(1, one);
  status(2, two);
  const auto merged = report::build_report(report::input_from_folder(folder_, plan_.epoch));
  const auto& shards = merged["completeness"]["shards"]["shards"];
  ASSERT_EQ(shards.size(), 2u) << merged["completeness"].dump(1);
  for (const auto& shard : shards) {
    EXPECT_EQ(shard["epoch"], 9) << shard.dump();
    EXPECT_EQ(shard["key_id"], "k1") << shard.dump();
  }

  two["epoch"] = 10;  // a task given another --epoch, its status copied here
  status(2, two);
  try {
    report::input_from_folder(folder_, plan_.epoch);
    FAIL() << "shards of two epochs are refused";
  } catch (const report::SourceError& error) {
    EXPECT_TRUE(contains(error.what(), "disagree on the epoch")) << error.what();
    EXPECT_TRUE(contains(error.what(), "shard 2 says epoch 10")) << error.what();
    EXPECT_TRUE(contains(error.what(), "fix:")) << error.what();
  }
}

// A plan file that cannot be read may have been the latest: the report of the newest readable
// plan says so in its issues, and with no readable plan the error names the damaged files
// (the report once fell back silently and left out what the damaged plan held).
TEST_F(SlurmFolder, ADamagedPlanIsNamedNeverSilentlySkipped) {
  plan_.shard_count = 1;
  test::write_text(plan_path(folder_, plan_), plan_.to_json().dump());
  Plan newer = plan_;
  newer.plan_id = "fedcba9876543210";
  newer.created_at = "2099-01-01T00:00:00Z";
  const fs::path damaged = plan_path(folder_, newer);
  test::write_text(damaged, newer.to_json().dump().substr(0, 100));
  const auto input = report::input_from_folder(folder_, plan_.epoch);
  EXPECT_EQ(input.plan_id, plan_.plan_id);
  const auto issue = std::find_if(input.issues.begin(), input.issues.end(), [&](const auto& i) { return i.file == damaged.string(); });
  ASSERT_NE(issue, input.issues.end()) << "no issue names " << damaged;
  EXPECT_TRUE(contains(issue->problem, "is a plan that cannot be read")) << issue->problem;
  EXPECT_TRUE(contains(issue->fix, "delete it")) << issue->fix;

  fs::remove(plan_path(folder_, plan_));
  for (const auto& ask : {std::function<void()>([&] { report::input_from_folder(folder_, plan_.epoch); }),
                          std::function<void()>([&] { report::latest_planned_epoch(folder_); })}) {
    try {
      ask();
      FAIL() << "no readable plan is an error";
    } catch (const report::SourceError& error) {
      EXPECT_TRUE(contains(error.what(), damaged.string())) << error.what();
      EXPECT_TRUE(contains(error.what(), "fix: delete the damaged plan files")) << error.what();
    }
  }
}

// A fake sbatch: records its arguments, then prints `out` and `err` and exits with `code`.
fs::path fake_sbatch(const fs::path& folder, const std::string& out, const std::string& err, int code) {
  const auto path = folder / "sbatch";
  test::write_text(path, fmt::format("#!/bin/sh\necho \"$@\" > {}/args\nprintf '%s' '{}'\nprintf '%s' '{}' >&2\nexit {}\n", folder.string(), out, err, code));
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST_F(SlurmFolder, SbatchAnswersTheJobId) {
  const auto sbatch = fake_sbatch(dir_.path(), "4242;cluster1\n", "", 0);
  EXPECT_EQ(submit_with_sbatch(sbatch.string(), {"--dependency=afterany:7"}, "/x/merge.sbatch"), "4242");
  EXPECT_EQ(test::read_text(dir_.path() / "args"), "--parsable --dependency=afterany:7 /x/merge.sbatch\n");
  const auto plain = fake_sbatch(dir_.path(), "77\n", "", 0);
  EXPECT_EQ(submit_with_sbatch(plain.string(), {}, "/x/array.sbatch"), "77");
}

TEST_F(SlurmFolder, SbatchFailingIsQuoted) {
  const auto sbatch = fake_sbatch(dir_.path(), "", "sbatch: error: invalid partition specified: nope", 1);
  try {
    submit_with_sbatch(sbatch.string(), {}, "/x/array.sbatch");
    FAIL() << "sbatch failed";
  } catch (const SlurmError& error) {
    EXPECT_TRUE(contains(error.what(), "\"sbatch: error: invalid partition specified: nope\"")) << error.what();
    EXPECT_TRUE(contains(error.what(), "exit 1")) << error.what();
    EXPECT_TRUE(contains(error.what(), "fix:")) << error.what();
  }
  const auto garbage = fake_sbatch(dir_.path(), "Submitted batch job\n", "", 0);
  EXPECT_THROW(submit_with_sbatch(garbage.string(), {}, "/x/array.sbatch"), SlurmError) << "no job id is an error";
}

TEST_F(SlurmFolder, SbatchNotInstalledSaysWhereToRun) {
  try {
    submit_with_sbatch((dir_.path() / "no-such-sbatch").string(), {}, "/x/array.sbatch");
    FAIL() << "no sbatch";
  } catch (const SlurmError& error) {
    EXPECT_TRUE(contains(error.what(), "cannot run")) << error.what();
    EXPECT_TRUE(contains(error.what(), "--dry-run")) << error.what();
  }
}

}  // namespace
}  // namespace kbv::sweep
