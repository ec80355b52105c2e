// tests/kbvd/fault_injection_test.cpp — the fault-injection suite (issue #22): each fault an
// adversarial operator found, reproduced on the host device against a real kbvd, and shown handled.
// Orphans after SIGKILL/SIGTERM/SIGINT of `kbv eval` and after kill -9 of kbvd (a busy candidate,
// and one whose child left its process group), the control socket pointed at the database, 2,000
// idle control clients while candidates evaluate, a full disk (a small tmpfs, where mounting is
// allowed, and an injected write failure everywhere), a slow writer, a symlink submit, a newline in
// a file name, and configuration errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "client/control_client.hpp"
#include "harness.hpp"
#include "lifetime/cgroup.hpp"
#include "store/sqlite.hpp"

extern char** environ;

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using nlohmann::json;
using test::KbvdProcess;
using test::TempDir;

const fs::path kHang = fs::path(KBV_CANDIDATE_DIR) / "hostile" / "libhostile_relu_hang.so";
const fs::path kEscape = fs::path(KBV_CANDIDATE_DIR) / "kbvd" / "libkbvd_escape_group.so";
// Long enough that the candidates spin for the whole test, short enough that a failing test
// leaves nothing for long.
constexpr const char* kCallTimeout = "120";

// A process the test started (inside `cgroup` when given), killed and reaped at the end
// whatever happened.
class Spawned {
 public:
  Spawned(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const fs::path& log,
          const fs::path& cgroup = {}) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp, args;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_copy = argv;
    for (auto& a : argv_copy) args.push_back(a.data());
    args.push_back(nullptr);
    const std::string procs = cgroup.empty() ? std::string() : (cgroup / "cgroup.procs").string();
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_ = ::fork();
    if (pid_ == 0) {
      if (!procs.empty()) {
        const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || ::write(fd, "0", 1) != 1) ::_exit(126);
      }
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(out, 2);
      ::execve(args[0], args.data(), envp.data());
      ::_exit(127);
    }
    ::close(out);
    ::close(in);
  }
  ~Spawned() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  // The wait status once it ended within `timeout`, else nothing.
  std::optional<int> wait(std::chrono::milliseconds timeout) {
    std::optional<int> status;
    test::wait_until(
        [&] {
          int s = 0;
          if (pid_ > 0 && ::waitpid(pid_, &s, WNOHANG) == pid_) {
            status = s;
            pid_ = -1;
          }
          return status.has_value();
        },
        timeout);
    return status;
  }

 private:
  pid_t pid_ = -1;
};

std::string cmdline(pid_t pid) {
  std::string text = test::read_file("/proc/" + std::to_string(pid) + "/cmdline");
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

// Live processes (not zombies) whose command line contains every one of `words`.
std::vector<pid_t> processes_with(const std::vector<std::string>& words) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    const pid_t pid = std::stoi(name);
    const auto line = cmdline(pid);
    bool all = !line.empty();
    for (const auto& w : words) all = all && line.find(w) != std::string::npos;
    if (all && !test::process_gone(pid)) found.push_back(pid);
  }
  return found;
}

// The parent pid of `pid` (/proc/PID/stat), -1 when it is gone.
pid_t parent_of(pid_t pid) {
  const std::string stat = test::read_file("/proc/" + std::to_string(pid) + "/stat");
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 4 >= stat.size()) return -1;
  return static_cast<pid_t>(std::atol(stat.c_str() + paren + 4));  // after ") S "
}

// Live kbv-workers whose evaluator's command line contains every one of `words` (a worker's own
// command line names its folders, not its candidate: it is started before the candidate is known),
// and whose own contains `worker_word`.
std::vector<pid_t> workers_of_evaluators_with(const std::vector<std::string>& words, const std::string& worker_word = "--candidate-dir") {
  const std::vector<pid_t> evaluators = processes_with(words);
  std::vector<pid_t> workers;
  for (pid_t worker : processes_with({"kbv-worker", "--candidate-dir", worker_word}))
    if (std::find(evaluators.begin(), evaluators.end(), parent_of(worker)) != evaluators.end()) workers.push_back(worker);
  return workers;
}

// Live processes named `comm` whose cgroup path contains `cgroup_part`.
std::vector<pid_t> processes_named(const std::string& comm, const std::string& cgroup_part) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    const auto base = entry.path();
    std::string their = test::read_file(base / "comm");
    if (!their.empty() && their.back() == '\n') their.pop_back();
    if (their == comm && test::read_file(base / "cgroup").find(cgroup_part) != std::string::npos &&
        !test::process_gone(std::stoi(name)))
      found.push_back(std::stoi(name));
  }
  return found;
}

bool all_gone(const std::vector<pid_t>& pids, std::chrono::milliseconds within) {
  return test::wait_until(
      [&] { return std::all_of(pids.begin(), pids.end(), [](pid_t p) { return test::process_gone(p); }); }, within);
}

// A cgroup of the test's own, so that what it kills is killed by kbv and kbvd, not by another
// test's sweep running in parallel (every kbvd sweeps the abandoned groups next to its own).
// Nothing when cgroup v2 is not writable here.
std::optional<lifetime::OwnedCgroup> test_cgroup(const std::string& name) {
  std::string why;
  const auto own = lifetime::own_cgroup(&why);
  if (!own) return std::nullopt;
  return lifetime::OwnedCgroup::create(*own, "test-" + name + "-" + std::to_string(::getpid()), &why);
}

std::vector<fs::path> entries_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) out.push_back(entry.path());
  return out;
}

fs::path make_key(const fs::path& dir) {
  const auto key = dir / "secret.key";
  const auto r = test::run_command(std::string(KBV_BINARY) + " keygen --key-file " + key.string());
  EXPECT_EQ(r.status, 0) << r.output;
  return key;
}

std::string real_evaluator_yaml(const fs::path& key, const std::vector<std::string>& extra) {
  std::string args;
  for (const auto& a : extra) args += (args.empty() ? "" : ", ") + ("\"" + a + "\"");
  return "evaluator:\n  command: " KBV_BINARY "\n  timeout_s: 300\n  key_file: " + key.string() +
         "\n  warm_spare: false\n  extra_args: [" + args + "]\n";
}

// ---------------------------------------------------------------------------------------------
// kbv eval stopped by a signal: its worker goes with it.

class KbvEvalStopped : public ::testing::TestWithParam<int> {};

TEST_P(KbvEvalStopped, TakesItsBusyWorkerWithIt) {
  ASSERT_TRUE(fs::exists(kHang)) << kHang << " (build target kbv_hostile_candidates)";
  TempDir dir;
  const auto key = make_key(dir.path());
  const auto tmp = dir.path() / "tmp";
  fs::create_directories(tmp);
  const auto isolated = test_cgroup("kbv-eval");
  Spawned eval({KBV_BINARY, "eval", kHang.string(), "--problem", "relu", "--timeout-s", kCallTimeout},
               {{"TMPDIR", tmp.string()}, {"KBV_KEY_FILE", key.string()}}, dir.path() / "eval.log",
               isolated ? isolated->path() : fs::path());
  ASSERT_GT(eval.pid(), 0);
  std::vector<pid_t> workers;
  ASSERT_TRUE(test::wait_until([&] { return !(workers = workers_of_evaluators_with({"eval", kHang.string()}, tmp.string())).empty(); }, 30s))
      << test::read_file(dir.path() / "eval.log");
  std::this_thread::sleep_for(300ms);  // in the candidate's spinning call by now
  ASSERT_EQ(entries_starting(tmp, "kbv-scratch-").size(), 1u);
  const int sig = GetParam();
  ::kill(eval.pid(), sig);
  const auto status = eval.wait(10s);
  ASSERT_TRUE(status);
  EXPECT_TRUE(WIFSIGNALED(*status) && WTERMSIG(*status) == sig) << "dies of " << strsignal(sig) << ": " << *status;
  EXPECT_TRUE(all_gone(workers, 5s)) << "the worker outlived its evaluator (" << strsignal(sig) << ")";
  if (sig != SIGKILL) {
    EXPECT_TRUE(entries_starting(tmp, "kbv-scratch-").empty()) << "stopped by " << strsignal(sig) << ", it cleans up";
    EXPECT_TRUE(entries_starting(tmp, "kbv-candidate-").empty()) << "stopped by " << strsignal(sig) << ", it cleans up";
    return;
  }
  // SIGKILL leaves scratch behind: the next evaluation sweeps it (its owner is gone).
  ASSERT_EQ(entries_starting(tmp, "kbv-scratch-").size(), 1u);
  const auto next = test::run_command("TMPDIR=" + tmp.string() + " KBV_KEY_FILE=" + key.string() + " " KBV_BINARY
                                      " eval " KBV_HOST_RELU " --json");
  EXPECT_EQ(next.status, 0) << next.output;
  EXPECT_TRUE(entries_starting(tmp, "kbv-scratch-").empty()) << "the next evaluation swept what SIGKILL left";
  EXPECT_TRUE(entries_starting(tmp, "kbv-candidate-").empty()) << "the next evaluation swept the candidate's copy SIGKILL left";
}

INSTANTIATE_TEST_SUITE_P(Signals, KbvEvalStopped, ::testing::Values(SIGKILL, SIGTERM, SIGINT),
                         [](const ::testing::TestParamInfo<int>& param_info) {
                           return std::string(param_info.param == SIGKILL ? "SIGKILL" : param_info.param == SIGTERM ? "SIGTERM" : "SIGINT");
                         });

// ---------------------------------------------------------------------------------------------
// kill -9 of kbvd: the busy worker dies with its evaluator; what escaped the process group is
// killed by the next kbvd's recovery, through the evaluation's cgroup.

TEST(Faults, KbvdKilledTakesTheBusyWorkerWithIt) {
  ASSERT_TRUE(fs::exists(kHang)) << kHang;
  TempDir dir;
  const auto key = make_key(dir.path());
  const auto isolated = test_cgroup("kbvd-killed");
  KbvdProcess kbvd(dir.path(), real_evaluator_yaml(key, {"--timeout-s", kCallTimeout}));
  if (isolated) kbvd.run_in_cgroup(isolated->path());
  kbvd.start();
  EXPECT_EQ(control::submit(kbvd.socket(), kHang)["result"], "queued");
  const auto objects = (dir.path() / "state" / "objects").string();
  std::vector<pid_t> workers;
  ASSERT_TRUE(test::wait_until([&] { return !(workers = workers_of_evaluators_with({"eval", objects})).empty(); }, 30s))
      << test::read_file(kbvd.log_file());
  kbvd.signal(SIGKILL);
  kbvd.wait_exit(5s);
  EXPECT_TRUE(all_gone(workers, 5s)) << "the candidate's worker outlived kbvd";
  EXPECT_TRUE(processes_with({"eval", objects}).empty()) << "an evaluator outlived kbvd";
}

TEST(Faults, KbvdRecoveryKillsWhatLeftTheProcessGroup) {
  ASSERT_TRUE(fs::exists(kEscape)) << kEscape << " (build target kbvd_escape_group)";
  if (!test_cgroup("probe"))
    GTEST_SKIP() << "cgroup v2 is not writable here: kbvd falls back to process groups, which this escapee leaves";
  TempDir dir;
  const auto key = make_key(dir.path());
  auto isolated = test_cgroup("kbvd-recovery");
  ASSERT_TRUE(isolated);
  // Without the worker sandbox, whose seccomp filter refuses fork: the candidate can escape.
  KbvdProcess kbvd(dir.path(), real_evaluator_yaml(key, {"--timeout-s", kCallTimeout, "--no-sandbox"}));
  kbvd.run_in_cgroup(isolated->path());
  kbvd.start();
  ASSERT_NE(kbvd.status()["cgroups"], nullptr) << kbvd.status().dump();
  control::submit(kbvd.socket(), kEscape);
  const std::string group = "kbvd-" + std::to_string(kbvd.pid()) + "-";
  std::vector<pid_t> escapees;
  ASSERT_TRUE(test::wait_until([&] { return !(escapees = processes_named("kbv-escapee", group)).empty(); }, 30s))
      << test::read_file(kbvd.log_file());
  kbvd.signal(SIGKILL);
  kbvd.wait_exit(5s);
  std::this_thread::sleep_for(1s);
  // The evaluator and worker died with kbvd; the escapee is in its own session and process group.
  EXPECT_FALSE(test::process_gone(escapees[0])) << "the escapee should survive until recovery";
  KbvdProcess again(dir.path(), real_evaluator_yaml(key, {"--timeout-s", kCallTimeout, "--no-sandbox"}));
  again.run_in_cgroup(isolated->path());
  again.start();
  EXPECT_TRUE(all_gone(escapees, 5s)) << "recovery did not kill the evaluation's cgroup";
  EXPECT_NE(test::read_file(again.log_file()).find("processes in its evaluators' cgroups"), std::string::npos)
      << test::read_file(again.log_file());
}

// ---------------------------------------------------------------------------------------------
// control.socket pointed at the database kbvd has just opened.

TEST(Faults, ControlSocketOnTheDatabaseIsRefusedAndTheDatabaseKept) {
  TempDir dir;
  {
    KbvdProcess kbvd(dir.path());
    kbvd.start();
    kbvd.drop("keep.so", "KBV_FAKE:pass keep me");
    ASSERT_TRUE(kbvd.wait_done(1, 10s));
    kbvd.signal(SIGTERM);
    ASSERT_EQ(kbvd.wait_exit(10s), 0);
  }
  const auto db = dir.path() / "state" / "kbvd.sqlite3";
  const auto before = control::file_sha256(db);
  const auto r = test::run_command(std::string(KBVD_BINARY) + " --config " + (dir.path() / "kbvd.yaml").string() +
                                   " --socket " + db.string());
  EXPECT_EQ(r.status, 78) << r.output;
  EXPECT_NE(r.output.find("a regular file is there, not a socket"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix:"), std::string::npos) << r.output;
  EXPECT_EQ(control::file_sha256(db), before) << "the database is untouched";
  const auto check = test::run_command(std::string(KBVD_BINARY) + " --check-config --config " +
                                       (dir.path() / "kbvd.yaml").string() + " --socket " + db.string());
  EXPECT_EQ(check.status, 78) << check.output;
  KbvdProcess again(dir.path());
  again.start();
  EXPECT_EQ(again.results().size(), 1u) << "the results are still there";
}

// ---------------------------------------------------------------------------------------------
// 2,000 idle control clients while candidates evaluate: they still finish.

TEST(Faults, TwoThousandIdleControlClientsDoNotStopEvaluation) {
  constexpr int kClients = 2000;
  constexpr int kCandidates = 20;
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_max < kClients + 200) GTEST_SKIP() << "this test needs " << kClients + 200 << " descriptors; the hard limit is " << limit.rlim_max;
  const rlimit saved = limit;
  limit.rlim_cur = std::min<rlim_t>(limit.rlim_max, kClients + 1024);
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &limit), 0);
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "", {{"FAKE_KBV_DELAY_S", "0.05"}});
  kbvd.start();
  // kbvd as it was found: the default soft limit of 1024 descriptors.
  const rlimit daemon_limit{1024, saved.rlim_max};
  ASSERT_EQ(::prlimit(kbvd.pid(), RLIMIT_NOFILE, &daemon_limit, nullptr), 0);
  for (int i = 0; i < kCandidates; ++i) kbvd.drop("f" + std::to_string(i) + ".so", "KBV_FAKE:pass flood " + std::to_string(i));
  std::vector<int> idle;
  for (int i = 0; i < kClients; ++i) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0) << i << ": " << std::strerror(errno);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, kbvd.socket().c_str(), sizeof addr.sun_path - 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) idle.push_back(fd);
    else ::close(fd);  // the backlog was full for a moment: that one is refused, not kbvd's problem
  }
  EXPECT_GT(idle.size(), static_cast<std::size_t>(kClients / 2));
  // Status and /metrics answer during the flood, and every candidate is evaluated.
  const auto started = std::chrono::steady_clock::now();
  const auto status = kbvd.status();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_LE(status["control_clients"].get<int>(), 64) << "clients are capped at control.max_clients";
  EXPECT_TRUE(kbvd.wait_done(kCandidates, 60s)) << test::read_file(kbvd.log_file());
  EXPECT_TRUE(test::http_get(kbvd.metrics_port(), "/metrics").has_value());
  for (const int fd : idle) ::close(fd);
  ::setrlimit(RLIMIT_NOFILE, &saved);
}

// ---------------------------------------------------------------------------------------------
// A full disk: kbvd degrades, keeps finished results, and resumes when space returns.

// Fills `dir`'s file system with one file; returns its path.
fs::path fill(const fs::path& dir) {
  const auto filler = dir / "filler";
  const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  std::vector<char> block(1 << 16, 'x');
  while (::write(fd, block.data(), block.size()) > 0) {
  }
  while (::write(fd, block.data(), 1) > 0) {
  }
  ::close(fd);
  return filler;
}

json metrics_line(int port, const std::string& name) {
  const auto body = test::http_get(port, "/metrics").value_or("");
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
  return nullptr;
}

// Drops candidates, makes the store refuse writes while some finish, drops more, then lets it
// write again: every candidate ends with one verdict, and the store passes integrity_check.
void degrade_and_resume(KbvdProcess& kbvd, const std::function<void()>& break_store,
                        const std::function<void()>& mend_store) {
  for (int i = 0; i < 3; ++i) kbvd.drop("before" + std::to_string(i) + ".so", "KBV_FAKE:sleep:0.5 before " + std::to_string(i));
  ASSERT_TRUE(test::wait_until([&] { return kbvd.results().size() == 3; }, 10s));
  break_store();
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["store"]["writable"] == false; }, 20s))
      << kbvd.status().dump(2);
  kbvd.drop("during.so", "KBV_FAKE:pass dropped while the disk is full");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["queue"]["running"] == 0 || kbvd.status()["store"]["unsaved_results"] >= 1; }, 10s));
  const auto degraded = kbvd.status();
  EXPECT_FALSE(degraded["store"]["error"].is_null()) << degraded.dump(2);
  EXPECT_EQ(metrics_line(kbvd.metrics_port(), "kbv_store_writable"), json(0.0));
  std::this_thread::sleep_for(1s);
  EXPECT_TRUE(kbvd.running()) << "kbvd must not exit on a full disk";
  EXPECT_NO_THROW(kbvd.status());
  mend_store();
  EXPECT_TRUE(kbvd.wait_done(4, 30s)) << kbvd.results().dump(2) << test::read_file(kbvd.log_file());
  EXPECT_EQ(kbvd.status()["store"]["writable"], true);
  EXPECT_EQ(metrics_line(kbvd.metrics_port(), "kbv_results_unsaved"), json(0.0));
  for (const auto& row : kbvd.results()) {
    const auto shown = control::results_show(kbvd.socket(), row["sha256"]);
    int done = 0;
    for (const auto& e : shown["evaluations"]) done += e["state"] == "done" ? 1 : 0;
    EXPECT_EQ(done, 1) << shown.dump(2);
    EXPECT_EQ(row["evaluation"]["verdict"], "pass") << row.dump();
  }
  sqlite::Database db(kbvd.root() / "state" / "kbvd.sqlite3");
  auto check = db.prepare("PRAGMA integrity_check");
  ASSERT_TRUE(check.step());
  EXPECT_EQ(check.text(0), "ok");
}

TEST(Faults, DiskFullOnASmallTmpfsDegradesAndResumes) {
  TempDir dir;
  const auto state = dir.path() / "state";
  fs::create_directories(state);
  if (::mount("kbvd-test", state.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=0700") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                 << "; needs root with CAP_SYS_ADMIN): WriteFailuresDegradeAndResume covers the same path";
  struct Unmount {
    fs::path at;
    ~Unmount() { ::umount2(at.c_str(), MNT_DETACH); }
  } unmount{state};
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  fs::path filler;
  degrade_and_resume(
      kbvd, [&] { filler = fill(state); }, [&] { fs::remove(filler); });
}

TEST(Faults, WriteFailuresDegradeAndResume) {
  TempDir dir;
  // The evaluator is not under the limit injected into kbvd (it would die of SIGXFSZ).
  const auto wrapper = dir.path() / "evaluator.sh";
  test::write_file(wrapper, "#!/bin/sh\nulimit -S -f unlimited\nexec " KBVD_FAKE_EVALUATOR " \"$@\"\n");
  fs::permissions(wrapper, fs::perms::owner_all);
  KbvdProcess kbvd(dir.path() / "d", "evaluator:\n  command: " + wrapper.string() + "\n  timeout_s: 20\n");
  kbvd.start();
  rlimit unlimited{};
  ::getrlimit(RLIMIT_FSIZE, &unlimited);
  // RLIMIT_FSIZE of one byte: every write past the first byte of any file fails with EFBIG,
  // as on a full disk (SQLite: an I/O error; the object store: EFBIG).
  degrade_and_resume(
      kbvd,
      [&] {
        const rlimit one{1, unlimited.rlim_max};
        ASSERT_EQ(::prlimit(kbvd.pid(), RLIMIT_FSIZE, &one, nullptr), 0);
      },
      [&] {
        const rlimit back{unlimited.rlim_max, unlimited.rlim_max};
        ASSERT_EQ(::prlimit(kbvd.pid(), RLIMIT_FSIZE, &back, nullptr), 0);
      });
}

// ---------------------------------------------------------------------------------------------
// A slow, non-atomic writer straight into the folder, pausing longer than settle_s and than the
// rescan interval: judged once, whole.

TEST(Faults, ASlowWriterIsJudgedOnceWhole) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "watch:\n  dir: " + (dir.path() / "inbox").string() +
                                   "\n  rescan_interval_s: 0.2\n  settle_s: 0.2\n");
  kbvd.start();
  std::string content = "\x7f" "ELF KBV_FAKE:pass slow writer ";
  content.resize(6 * 4096, 'z');
  const auto path = kbvd.inbox() / "slow.so";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  for (std::size_t at = 0; at < content.size(); at += 4096) {
    ASSERT_EQ(::write(fd, content.data() + at, 4096), 4096);
    std::this_thread::sleep_for(600ms);  // three rescans and three settle times per pause
  }
  ::close(fd);
  ASSERT_TRUE(kbvd.wait_done(1, 10s)) << kbvd.results().dump(2);
  std::this_thread::sleep_for(1s);  // more rescans: nothing more is taken
  const auto rows = kbvd.results();
  ASSERT_EQ(rows.size(), 1u) << rows.dump(2);
  EXPECT_EQ(rows[0]["sha256"], control::file_sha256(path)) << "the whole file, not a prefix";
  EXPECT_EQ(rows[0]["evaluation"]["verdict"], "pass");
  EXPECT_EQ(metrics_line(kbvd.metrics_port(), "kbv_candidates_ingested_total{result=\"rejected\"}"), json(0.0));
}

// ---------------------------------------------------------------------------------------------
// kbv submit of a symbolic link (as root, to a file only root may read) publishes nothing; a
// link dropped into the folder is refused, once, and never followed.

TEST(Faults, SymlinksAreNeverFollowed) {
  TempDir dir;
  // A link makes no close or rename event: rescans find it (every 0.3 s here).
  KbvdProcess kbvd(dir.path(), "watch:\n  dir: " + (dir.path() / "inbox").string() +
                                   "\n  rescan_interval_s: 0.3\n  settle_s: 0.2\n");
  kbvd.start();
  const auto secret = dir.path() / "shadow";
  test::write_file(secret, "root:secret-hash:19000::::::\n");
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink(secret, dir.path() / "evil.so");
  try {
    control::submit(kbvd.socket(), dir.path() / "evil.so");
    FAIL() << "kbv submit followed a symbolic link";
  } catch (const control::ControlError& e) {
    EXPECT_NE(std::string(e.what()).find("a symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(entries_starting(kbvd.inbox(), "evil").empty()) << "nothing was published";
  fs::create_symlink(secret, kbvd.inbox() / "dropped.so");
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("dropped.so: a symbolic link") != std::string::npos; }, 5s))
      << test::read_file(kbvd.log_file());
  std::this_thread::sleep_for(1500ms);  // rescans: the same link is not counted or logged again
  EXPECT_EQ(kbvd.results().size(), 0u);
  for (const auto& object : fs::directory_iterator(dir.path() / "state" / "objects"))
    EXPECT_NE(test::read_file(object.path()), test::read_file(secret)) << "the target's bytes reached objects/";
  EXPECT_EQ(metrics_line(kbvd.metrics_port(), "kbv_candidates_ingested_total{result=\"rejected\"}"), json(1.0));
  // A regular file the submitter's group cannot read is not published group-readable.
  const auto private_so = dir.path() / "private.so";
  test::write_file(private_so, "KBV_FAKE:pass private");
  ASSERT_EQ(::chmod(private_so.c_str(), 0640), 0);
  ASSERT_EQ(::chown(private_so.c_str(), ::geteuid(), 4242), 0) << "a group that is not the watch folder's";
  const auto answer = control::submit(kbvd.socket(), private_so);
  struct stat published {};
  ASSERT_EQ(::stat((kbvd.inbox() / answer["name"].get<std::string>()).c_str(), &published), 0);
  EXPECT_EQ(published.st_mode & 0777, 0600u) << "never more readable than the source";
}

// ---------------------------------------------------------------------------------------------
// A file name with newlines cannot forge kbvd's log lines.

TEST(Faults, ANewlineInAFileNameForgesNoLogLine) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  const std::string forged = "2026-01-01 00:00:00.000 info: slot host: forged.so (0123456789ab) -> pass in 0.01 s";
  const std::string name = "evil\n" + forged + "\nx.so";
  kbvd.drop(name, "KBV_FAKE:fail newline name");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  const auto log = test::read_file(kbvd.log_file());
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);)
    EXPECT_NE(line.rfind(forged.substr(0, 40), 0), 0u) << "a forged line: " << line;
  EXPECT_NE(log.find("evil\\n2026-01-01"), std::string::npos) << log;
  EXPECT_EQ(kbvd.results()[0]["name"], name) << "the name itself is kept";
  const auto table = test::run_command(std::string(KBVCTL_BINARY) + " --socket " + kbvd.socket().string() + " results");
  EXPECT_EQ(table.output.find("\n2026-01-01"), std::string::npos) << table.output;
}

// ---------------------------------------------------------------------------------------------
// Configuration errors: exit 78 with the line, the field and the fix, and nothing created.

TEST(Faults, ConfigurationErrorsExit78AndCreateNothing) {
  TempDir dir;
  struct Case {
    std::string yaml, expected;
  };
  const Case cases[] = {
      {"log:\n  level: info\nlog:\n  level: debug\n", "k.yaml:3: log: given twice"},
      {"log:\n  level: \"debug\nevaluator:\n  timeout_s: 5\n", "k.yaml:2: (syntax)"},
      {"evaluator:\n  key_file: " + (dir.path() / "nowhere/secret.key").string() + "\n", "evaluator.key_file"},
  };
  for (const auto& c : cases) {
    test::write_file(dir.path() / "k.yaml", c.yaml + "store:\n  state_dir: " + (dir.path() / "state").string() + "\n");
    for (const std::string mode : {"", " --check-config"}) {
      const auto r = test::run_command(std::string(KBVD_BINARY) + mode + " --config " + (dir.path() / "k.yaml").string());
      EXPECT_EQ(r.status, 78) << c.yaml << mode << "\n" << r.output;
      EXPECT_NE(r.output.find(c.expected), std::string::npos) << r.output;
      EXPECT_NE(r.output.find("fix:"), std::string::npos) << r.output;
    }
  }
  EXPECT_FALSE(fs::exists(dir.path() / "nowhere")) << "no key (and no folder for it) was made";
  EXPECT_FALSE(fs::exists(dir.path() / "state")) << "a configuration error creates nothing";
}

}  // namespace
}  // namespace kbv::kbvd
