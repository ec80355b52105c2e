// tests/sweep/slurm_cluster_test.cpp — `kbv sweep --slurm` on a real single-node Slurm cluster
// this test starts itself (munged, slurmctld, slurmd; no systemd) in a temporary folder, and
// `kbv sweep --slurm` without one: the dry run, a resubmission's shards and its errors (a fake
// sbatch). On the cluster: a 3-task array of host evaluations plus the merge job gives the
// verdicts a --standalone run gives; a task cancelled before it ran is a missing shard in the
// report, and a resubmission runs only that shard and completes the report.
//
// The cluster tests skip (saying why) only when Slurm's binaries are absent or its daemons
// cannot start here; the daemons are shut down in every case.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "inputs/secret_key.hpp"
#include "run_command.hpp"
#include "sweep_test_files.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

const fs::path kKbv = KBV_TEST_KBV_BINARY;
const fs::path kCandidates = KBV_TEST_CANDIDATE_DIR;
const std::vector<std::string> kProblems = {"relu", "gelu", "softmax", "rmsnorm", "sum_dim1", "layernorm"};
constexpr const char* kEpoch = "31";

json load(const fs::path& path) { return json::parse(test::read_text(path)); }

std::string which(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream in(path ? path : "");
  for (std::string dir; std::getline(in, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return (fs::path(dir) / program).string();
  for (const char* dir : {"/usr/sbin", "/sbin", "/usr/local/sbin"})
    if (::access((fs::path(dir) / program).c_str(), X_OK) == 0) return (fs::path(dir) / program).string();
  return "";
}

std::string tail(const std::string& text, std::size_t n = 2000) { return text.size() > n ? "…" + text.substr(text.size() - n) : text; }

bool pid_alive(pid_t pid) { return pid > 0 && ::kill(pid, 0) == 0; }

pid_t read_pid(const fs::path& file) {
  try {
    return static_cast<pid_t>(std::stol(test::read_text(file)));
  } catch (const std::exception&) {
    return -1;
  }
}

// munged, slurmctld and slurmd of a one-node cluster (NodeName=localhost) in `dir`; every
// client command needs env() (SLURM_CONF).
class SlurmCluster {
 public:
  explicit SlurmCluster(fs::path dir) : dir_(std::move(dir)) {}
  ~SlurmCluster() { stop(); }
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // Empty when the cluster is up, else why it is not (for GTEST_SKIP).
  std::string start() {
    for (const char* program : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"}) {
      bins_[program] = which(program);
      if (bins_[program].empty())
        return fmt::format("Slurm binaries absent: {} is not installed (scripts/install-deps.sh installs slurm-wlm and munge)", program);
    }
    if (::geteuid() != 0) return "slurmd cannot start here: it must run as root (SlurmUser=root) to start jobs, and this test runs as uid " +
                                 std::to_string(::geteuid());
    for (const char* sub : {"munge", "state", "spool", "log"}) fs::create_directories(dir_ / sub);
    fs::permissions(dir_ / "munge", fs::perms::owner_all, fs::perm_options::replace);
    {
      std::ifstream random("/dev/urandom", std::ios::binary);
      std::string key(1024, '\0');
      random.read(key.data(), static_cast<std::streamsize>(key.size()));
      test::write_text(dir_ / "munge" / "munge.key", key);
      fs::permissions(dir_ / "munge" / "munge.key", fs::perms::owner_read, fs::perm_options::replace);
    }
    const auto munged = run({bins_["munged"], "--force", "--socket=" + socket().string(), "--key-file=" + (dir_ / "munge" / "munge.key").string(),
                             "--pid-file=" + (dir_ / "munge" / "munged.pid").string(), "--log-file=" + (dir_ / "munge" / "munged.log").string(),
                             "--seed-file=" + (dir_ / "munge" / "seed").string()});
    if (munged.exit_code != 0) return "munged cannot start here: " + tail(munged.err + test::read_text(dir_ / "munge" / "munged.log"));
    // Ports of our own, so that a Slurm already on this machine is not in the way.
    const int port = 20000 + (::getpid() % 10000) * 2;
    test::write_text(conf(), fmt::format(R"(ClusterName=kbvtest
SlurmctldHost=localhost
SlurmctldPort={0}
SlurmdPort={1}
AuthType=auth/munge
AuthInfo=socket={2}
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={3}/state
SlurmdSpoolDir={3}/spool
SlurmctldPidFile={3}/slurmctld.pid
SlurmdPidFile={3}/slurmd.pid
SlurmctldLogFile={3}/log/slurmctld.log
SlurmdLogFile={3}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=localhost NodeAddr=127.0.0.1 CPUs={4} State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
)",
                                         port, port + 1, socket().string(), dir_.string(), std::thread::hardware_concurrency()));
    started_ = true;
    const auto ctld = run({bins_["slurmctld"], "-f", conf().string(), "-i"});
    if (ctld.exit_code != 0) return "slurmctld cannot start here: " + tail(ctld.err + logs());
    const auto slurmd = run({bins_["slurmd"], "-f", conf().string(), "-N", "localhost"});
    if (slurmd.exit_code != 0) return "slurmd cannot start here: " + tail(slurmd.err + logs());
    for (const auto deadline = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(250ms)) {
      const auto state = run({bins_["sinfo"], "-h", "-o", "%T"});
      if (state.exit_code == 0 && state.out.find("idle") != std::string::npos) return "";
    }
    return "the Slurm daemons started but the node never became idle within 30 s: sinfo says '" + run({bins_["sinfo"], "-h", "-o", "%T"}).out +
           "'; " + tail(logs());
  }

  // Cancels every job, then stops slurmd, slurmctld and munged (SIGKILL when they linger).
  void stop() {
    if (started_) {
      for (const auto& id : job_ids()) run({bins_["scancel"], id});
      run({bins_["scontrol"], "shutdown"});
      started_ = false;
    }
    for (const auto& pid_file : {dir_ / "slurmd.pid", dir_ / "slurmctld.pid", dir_ / "munge" / "munged.pid"}) {
      const pid_t pid = read_pid(pid_file);
      if (!pid_alive(pid)) continue;
      ::kill(pid, SIGTERM);
      for (int i = 0; i < 50 && pid_alive(pid); ++i) std::this_thread::sleep_for(100ms);
      if (pid_alive(pid)) ::kill(pid, SIGKILL);
    }
  }

  std::map<std::string, std::string> env() const { return {{"SLURM_CONF", conf().string()}}; }

  kbv::test::CommandResult run(const std::vector<std::string>& argv) const {
    return kbv::test::run_command({argv, env(), {}, std::chrono::milliseconds(60000)});
  }
  kbv::test::CommandResult scontrol(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {bins_.at("scontrol")};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv);
  }
  kbv::test::CommandResult scancel(const std::string& id) const { return run({bins_.at("scancel"), id}); }

  // Jobs pending or running (squeue's default states).
  std::vector<std::string> job_ids() const {
    std::vector<std::string> ids;
    std::stringstream in(run({bins_.at("squeue"), "-h", "-o", "%i"}).out);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) ids.push_back(line);
    return ids;
  }
  // Waits until no job is pending or running; false after `limit`.
  bool wait_idle(std::chrono::seconds limit) const {
    for (const auto deadline = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(300ms))
      if (job_ids().empty()) return true;
    return false;
  }

  std::string logs() const {
    return "\n--- slurmctld.log\n" + tail(test::read_text(dir_ / "log" / "slurmctld.log")) + "\n--- slurmd.log\n" +
           tail(test::read_text(dir_ / "log" / "slurmd.log"));
  }

 private:
  fs::path conf() const { return dir_ / "slurm.conf"; }
  fs::path socket() const { return dir_ / "munge" / "munge.socket"; }

  fs::path dir_;
  std::map<std::string, std::string> bins_;
  bool started_ = false;
};

class SlurmSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& problem : kProblems) ASSERT_TRUE(fs::exists(host_example(problem))) << "build the host examples";
    key_file_ = root() / "keys" / "secret.key";
    fs::create_directories(key_file_.parent_path());
    inputs::SecretKey::create(key_file_);
    for (const auto& problem : kProblems) {
      fs::create_directories(root() / "cands");
      fs::copy_file(host_example(problem), root() / "cands" / (problem + ".so"));
      test::write_text(root() / "cands" / (problem + ".so.yaml"), "problem: " + problem + "\n");
    }
    config_ = root() / "sweep.yaml";
    test::write_text(config_, fmt::format("name: slurm-test\noutput_dir: out\ncandidates: [{}]\nmode: standalone\nstandalone:\n  key_file: {}\n"
                                          "  extra_args: [--timeout-s, '2']\n",
                                          (root() / "cands").string(), key_file_.string()));
  }

  static fs::path host_example(const std::string& problem) { return kCandidates / "host" / ("libhost_" + problem + ".so"); }
  const fs::path& root() const { return dir_.path(); }
  fs::path out() const { return root() / "out"; }
  fs::path slurm_dir() const { return out() / fmt::format("epoch-{}", kEpoch) / "slurm"; }

  kbv::test::CommandResult kbv(std::vector<std::string> args, std::map<std::string, std::string> env = {}) const {
    args.insert(args.begin(), kKbv.string());
    return kbv::test::run_command({args, std::move(env), {}, std::chrono::milliseconds(300000)});
  }

  // A fake sbatch first in PATH: records each call's arguments, answers job ids 101, 102, …
  std::map<std::string, std::string> fake_sbatch_env() const {
    const auto bin = root() / "fakebin";
    test::write_text(bin / "sbatch", fmt::format("#!/bin/sh\nn=$(($(cat {0}/count 2>/dev/null || echo 100) + 1))\necho $n > {0}/count\n"
                                                 "echo \"$@\" >> {0}/calls\necho $n\n",
                                                 bin.string()));
    ::chmod((bin / "sbatch").c_str(), 0755);
    return {{"PATH", bin.string() + ":" + std::getenv("PATH")}};
  }
  // The plan files of the epoch (not the shards' status files).
  std::vector<fs::path> plan_files() const {
    std::vector<fs::path> plans;
    for (const auto& entry : fs::directory_iterator(out() / fmt::format("epoch-{}", kEpoch) / "plans"))
      if (entry.path().extension() == ".json" && entry.path().filename().string().find(".shard-") == std::string::npos) plans.push_back(entry.path());
    return plans;
  }
  // Array task `task` of the submitted script, run here as Slurm would run it (its #SBATCH lines are comments to bash).
  kbv::test::CommandResult run_array_task(int task) const {
    return kbv::test::run_command({{"/bin/bash", (slurm_dir() / "array.sbatch").string()}, {{"SLURM_ARRAY_TASK_ID", std::to_string(task)}}, {},
                                   std::chrono::milliseconds(300000)});
  }
  std::vector<std::string> fake_calls() const {
    std::vector<std::string> calls;
    std::stringstream in(test::read_text(root() / "fakebin" / "calls"));
    for (std::string line; std::getline(in, line);) calls.push_back(line);
    return calls;
  }

  static std::map<std::string, std::string> verdicts(const json& report) {
    std::map<std::string, std::string> out;
    for (const auto& row : report["candidates"]) out[row["key"]] = row["verdict"].is_string() ? row["verdict"].get<std::string>() : "";
    return out;
  }

  test::TempFolder dir_;
  fs::path key_file_, config_;
};

TEST_F(SlurmSweep, DryRunPrintsBothScriptsAndSubmitsNothing) {
  const auto run = kbv({"sweep", config_.string(), "--slurm", "--dry-run", "--array-size", "3", "--epoch", kEpoch, "--partition", "debug"},
                       fake_sbatch_env());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::exists(root() / "fakebin" / "calls")) << "a dry run submits nothing";
  EXPECT_NE(run.out.find("#SBATCH --array=0-2\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("#SBATCH --partition=debug\n"), std::string::npos) << run.out;
  const auto plans = plan_files();
  ASSERT_EQ(plans.size(), 1u) << "the plan the printed scripts name is written, for a submission by hand";
  EXPECT_NE(run.out.find(fmt::format("{} sweep {} --standalone --shard $((SLURM_ARRAY_TASK_ID+1))/3 --epoch {} --plan {} --key-file {} --output {}",
                                     kKbv.string(), config_.string(), kEpoch, plans[0].stem().string(), key_file_.string(), out().string())),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("--dependency=afterany:<array job id>"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(fmt::format("{} report {} --epoch {}", kKbv.string(), out().string(), kEpoch)), std::string::npos) << run.out;
  EXPECT_TRUE(fs::exists(slurm_dir() / "array.sbatch")) << "the scripts are written for a look or a hand submission";

  const auto gpu = kbv({"sweep", config_.string(), "--slurm", "--dry-run", "--array-size", "2", "--epoch", kEpoch, "--gpus-per-task", "1"});
  ASSERT_EQ(gpu.exit_code, 0) << gpu.err;
  EXPECT_NE(gpu.out.find("#SBATCH --gpus-per-task=1\n"), std::string::npos) << gpu.out;
  EXPECT_NE(gpu.out.find("--shard $((SLURM_ARRAY_TASK_ID+1))/2 "), std::string::npos) << gpu.out;
  EXPECT_NE(gpu.out.find(" --device cuda --no-report\n"), std::string::npos) << gpu.out;
  EXPECT_NE(gpu.out.find("#SBATCH --cpus-per-task=2\n"), std::string::npos) << "one evaluation on its one GPU: 2 CPUs\n" << gpu.out;

  // CPUs per task: 2 per evaluation at once (--jobs on the host, one per GPU on cuda), or as asked.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cpus = {
      {{"--jobs", "3"}, "6"}, {{"--gpus-per-task", "2"}, "4"}, {{"--jobs", "3", "--cpus-per-task", "5"}, "5"}};
  for (const auto& [extra, expected] : cpus) {
    std::vector<std::string> args = {"sweep", config_.string(), "--slurm", "--dry-run", "--array-size", "2", "--epoch", kEpoch};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto asked = kbv(args);
    ASSERT_EQ(asked.exit_code, 0) << asked.err;
    EXPECT_NE(asked.out.find("#SBATCH --cpus-per-task=" + expected + "\n"), std::string::npos) << extra.front() << " " << extra.back() << "\n" << asked.out;
  }
  const auto none = kbv({"sweep", config_.string(), "--slurm", "--dry-run", "--epoch", kEpoch, "--cpus-per-task", "0"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--cpus-per-task must be 1 to 4096"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(slurm_dir() / "submission.json"));
}

TEST_F(SlurmSweep, ResubmissionRunsOnlyShardsWithoutACompleteStatus) {
  const auto env = fake_sbatch_env();
  auto run = kbv({"sweep", config_.string(), "--slurm", "--array-size", "3", "--epoch", kEpoch}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "array job 101 (shards 1,2,3 of 3)\nmerge job 102\n");
  ASSERT_EQ(fake_calls().size(), 2u);
  EXPECT_EQ(fake_calls()[0], "--parsable " + (slurm_dir() / "array.sbatch").string());
  EXPECT_EQ(fake_calls()[1], "--parsable --dependency=afterany:101 " + (slurm_dir() / "merge.sbatch").string());
  const auto submission = load(slurm_dir() / "submission.json");
  EXPECT_EQ(submission["shard_count"], 3);
  EXPECT_EQ(submission["epoch"], std::stoi(kEpoch));

  // Shard 2 runs by hand (as its task would); a resubmission without --array-size keeps 3 shards.
  ASSERT_EQ(kbv({"sweep", config_.string(), "--standalone", "--shard", "2/3", "--epoch", kEpoch}).exit_code, 0);
  run = kbv({"sweep", config_.string(), "--slurm", "--epoch", kEpoch}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "array job 103 (shards 1,3 of 3)\nmerge job 104\n");
  EXPECT_NE(test::read_text(slurm_dir() / "array.sbatch").find("#SBATCH --array=0,2\n"), std::string::npos);

  for (const char* shard : {"1/3", "3/3"}) ASSERT_EQ(kbv({"sweep", config_.string(), "--standalone", "--shard", shard, "--epoch", kEpoch}).exit_code, 0);
  run = kbv({"sweep", config_.string(), "--slurm", "--epoch", kEpoch}, env);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "merge job 105\n") << "every shard complete: only the merge";
  EXPECT_EQ(fake_calls().back(), "--parsable " + (slurm_dir() / "merge.sbatch").string()) << "no dependency without an array";
}

// Each task evaluates the plan written at submission, not the folders as they are when it starts:
// a candidate added between submission and the tasks' starts would change the shards' cut (review:
// tasks planned again, so an item could move to a shard that had already run, or be run twice).
TEST_F(SlurmSweep, TasksEvaluateTheSubmittedPlanNotTheFolderAsItIsWhenTheyStart) {
  auto run = kbv({"sweep", config_.string(), "--slurm", "--array-size", "3", "--epoch", kEpoch}, fake_sbatch_env());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string plan_id = load(slurm_dir() / "submission.json")["plan_id"];
  const json plan = load(out() / fmt::format("epoch-{}", kEpoch) / "plans" / (plan_id + ".json"));
  ASSERT_EQ(plan["items"].size(), kProblems.size());
  EXPECT_NE(test::read_text(slurm_dir() / "array.sbatch").find(" --plan " + plan_id + " "), std::string::npos);

  // Two more relu candidates after submission (other bytes: an ELF loads with bytes appended).
  for (const char* name : {"relu_late_a", "relu_late_b"}) {
    fs::copy_file(root() / "cands" / "relu.so", root() / "cands" / (std::string(name) + ".so"));
    std::ofstream(root() / "cands" / (std::string(name) + ".so"), std::ios::app) << name;
    test::write_text(root() / "cands" / (std::string(name) + ".so.yaml"), "problem: relu\n");
  }
  for (int task = 0; task < 3; ++task) {
    const auto ran = run_array_task(task);
    EXPECT_EQ(ran.exit_code, 0) << "task " << task << ": " << ran.err;
  }
  std::set<std::string> planned, recorded;
  for (const auto& item : plan["items"]) planned.insert(item["candidate"]["sha256"].get<std::string>() + "-" + item["candidate"]["problem"].get<std::string>());
  for (const auto& entry : fs::directory_iterator(out() / fmt::format("epoch-{}", kEpoch) / "results")) recorded.insert(entry.path().stem().string());
  EXPECT_EQ(recorded, planned) << "every planned evaluation once, the late candidates in none";
  EXPECT_EQ(plan_files().size(), 1u) << "no task made a plan of its own";
  for (int shard = 1; shard <= 3; ++shard) {
    const json status = load(out() / fmt::format("epoch-{}", kEpoch) / "plans" / fmt::format("{}.shard-{}-of-3.json", plan_id, shard));
    EXPECT_EQ(status["state"], "finished");
    EXPECT_EQ(status["evaluated"], status["planned"]);
  }

  // A task whose plan is missing, or of another epoch, evaluates nothing and says which file and what to do.
  const auto missing = kbv({"sweep", config_.string(), "--standalone", "--shard", "1/3", "--epoch", kEpoch, "--plan", "00000000deadbeef"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("00000000deadbeef.json: the plan this task was submitted with cannot be read"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("fix: submit the sweep again with kbv sweep --slurm"), std::string::npos) << missing.err;
  fs::create_directories(out() / "epoch-32" / "plans");
  fs::copy_file(out() / fmt::format("epoch-{}", kEpoch) / "plans" / (plan_id + ".json"), out() / "epoch-32" / "plans" / (plan_id + ".json"));
  const auto other_epoch = kbv({"sweep", config_.string(), "--standalone", "--shard", "1/3", "--epoch", "32", "--plan", plan_id});
  EXPECT_EQ(other_epoch.exit_code, 2);
  EXPECT_NE(other_epoch.err.find(fmt::format("the plan is of epoch {}, this task evaluates epoch 32", kEpoch)), std::string::npos) << other_epoch.err;
  const auto other_count = kbv({"sweep", config_.string(), "--standalone", "--shard", "1/2", "--epoch", kEpoch, "--plan", plan_id});
  EXPECT_EQ(other_count.exit_code, 2);
  EXPECT_NE(other_count.err.find("the plan has 3 shards, this task is shard 1-of-2"), std::string::npos) << other_count.err;
  EXPECT_FALSE(fs::exists(out() / "epoch-32" / "results")) << "nothing evaluated";

  const auto traversal = kbv({"sweep", config_.string(), "--standalone", "--plan", "../../x"});
  EXPECT_EQ(traversal.exit_code, 2);
  EXPECT_NE(traversal.err.find("--plan must be a plan id"), std::string::npos) << traversal.err;
  const auto through_kbvd = kbv({"sweep", config_.string(), "--plan", plan_id});
  EXPECT_EQ(through_kbvd.exit_code, 2);
  EXPECT_NE(through_kbvd.err.find("fix: add --standalone"), std::string::npos) << through_kbvd.err;
}

TEST_F(SlurmSweep, ErrorsNameTheOptionOrFileAndTheFix) {
  auto run = kbv({"sweep", config_.string(), "--slurm", "--array-size", "0"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--array-size 0"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("fix:"), std::string::npos) << run.err;
  run = kbv({"sweep", config_.string(), "--slurm", "--array-size", "many"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("array-size"), std::string::npos) << run.err;
  run = kbv({"sweep", config_.string(), "--array-size", "3"});
  EXPECT_EQ(run.exit_code, 2) << "--array-size without --slurm";
  EXPECT_NE(run.err.find("--slurm"), std::string::npos) << run.err;

  run = kbv({"sweep", config_.string(), "--slurm", "--epoch", kEpoch}, {{"PATH", (root() / "nowhere").string()}});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("cannot run sbatch"), std::string::npos) << run.err;

  const auto bin = root() / "failbin";
  test::write_text(bin / "sbatch", "#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n");
  ::chmod((bin / "sbatch").c_str(), 0755);
  run = kbv({"sweep", config_.string(), "--slurm", "--epoch", kEpoch, "--partition", "gpu"}, {{"PATH", bin.string() + ":/usr/bin:/bin"}});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("\"sbatch: error: invalid partition specified: gpu\""), std::string::npos) << run.err;

  ::chmod(key_file_.c_str(), 0644);
  run = kbv({"sweep", config_.string(), "--slurm", "--dry-run", "--epoch", kEpoch});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(key_file_.string()), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("chmod 600"), std::string::npos) << run.err;
}

class SlurmClusterSweep : public SlurmSweep {
 protected:
  void SetUp() override {
    SlurmSweep::SetUp();
    if (HasFatalFailure()) return;
    cluster_.emplace(root() / "slurm");
    const auto why_not = cluster_->start();
    if (!why_not.empty()) {
      cluster_.reset();  // shuts down whatever started
      GTEST_SKIP() << why_not;
    }
  }
  void TearDown() override { cluster_.reset(); }

  // kbv sweep --slurm on the cluster; its array and merge job ids (the array's empty when none).
  std::pair<std::string, std::string> submit(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"sweep", config_.string(), "--slurm", "--epoch", kEpoch};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = kbv(args, cluster_->env());
    EXPECT_EQ(run.exit_code, 0) << run.err << cluster_->logs();
    std::smatch m;
    std::string array, merge;
    if (std::regex_search(run.out, m, std::regex("array job (\\d+)"))) array = m[1];
    if (std::regex_search(run.out, m, std::regex("merge job (\\d+)"))) merge = m[1];
    EXPECT_FALSE(merge.empty()) << run.out;
    return {array, merge};
  }

  std::string task_logs() const {
    std::string text;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(slurm_dir() / "logs", error))
      text += "\n--- " + entry.path().filename().string() + "\n" + tail(test::read_text(entry.path()), 1500);
    return text;
  }

  std::optional<SlurmCluster> cluster_;
};

TEST_F(SlurmClusterSweep, JobArrayAndMergeGiveTheStandaloneVerdicts) {
  const auto [array, merge] = submit({"--array-size", "3"});
  ASSERT_FALSE(array.empty());
  ASSERT_TRUE(cluster_->wait_idle(100s)) << "jobs still queued: " << ::testing::PrintToString(cluster_->job_ids()) << task_logs() << cluster_->logs();
  ASSERT_TRUE(fs::exists(out() / "report.json")) << "the merge job wrote no report" << task_logs() << cluster_->logs();
  const auto report = load(out() / "report.json");
  EXPECT_EQ(report["completeness"]["shards"]["complete"], json({1, 2, 3})) << report["completeness"].dump(1) << task_logs();
  EXPECT_EQ(report["completeness"]["not_evaluated"], 0);
  for (const auto& shard : report["completeness"]["shards"]["shards"]) {
    EXPECT_EQ(shard["epoch"], std::stoi(kEpoch)) << shard.dump();
    EXPECT_EQ(shard["key_id"], report["sweep"]["key_id"]) << shard.dump();
  }

  const auto whole = kbv({"sweep", config_.string(), "--standalone", "--epoch", kEpoch, "--output", (root() / "whole").string()});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto standalone = load(root() / "whole" / "report.json");
  EXPECT_EQ(verdicts(report), verdicts(standalone));
  EXPECT_EQ(verdicts(report).size(), kProblems.size());
  EXPECT_EQ(report["sweep"]["key_id"], standalone["sweep"]["key_id"]);
}

TEST_F(SlurmClusterSweep, ACancelledTaskIsAMissingShardUntilResubmitted) {
  // Jobs queue on a DOWN partition but do not start: task 2 (shard 3) is cancelled while it waits.
  ASSERT_EQ(cluster_->scontrol({"update", "PartitionName=debug", "State=DOWN"}).exit_code, 0) << cluster_->logs();
  const auto [array, merge] = submit({"--array-size", "3"});
  ASSERT_FALSE(array.empty());
  const auto cancel = cluster_->scancel(array + "_2");
  ASSERT_EQ(cancel.exit_code, 0) << cancel.err;
  ASSERT_EQ(cluster_->scontrol({"update", "PartitionName=debug", "State=UP"}).exit_code, 0);
  ASSERT_TRUE(cluster_->wait_idle(100s)) << task_logs() << cluster_->logs();
  ASSERT_TRUE(fs::exists(out() / "report.json")) << "the merge job runs after any end of the array" << task_logs() << cluster_->logs();
  auto report = load(out() / "report.json");
  EXPECT_EQ(report["completeness"]["shards"]["missing"], json({3})) << report["completeness"].dump(1);
  EXPECT_EQ(report["completeness"]["shards"]["complete"], json({1, 2}));
  EXPECT_GT(report["completeness"]["not_evaluated"].get<int>(), 0);
  EXPECT_EQ(report["candidates"].size(), kProblems.size()) << "the cancelled shard's candidates are listed, not dropped";

  const auto [again, merge_again] = submit();
  ASSERT_FALSE(again.empty()) << "shard 3 is submitted again";
  EXPECT_NE(test::read_text(slurm_dir() / "array.sbatch").find("#SBATCH --array=2\n"), std::string::npos);
  ASSERT_TRUE(cluster_->wait_idle(100s)) << task_logs() << cluster_->logs();
  report = load(out() / "report.json");
  EXPECT_EQ(report["completeness"]["shards"]["complete"], json({1, 2, 3})) << report["completeness"].dump(1) << task_logs();
  EXPECT_EQ(report["completeness"]["not_evaluated"], 0);
}

}  // namespace
}  // namespace kbv::sweep
