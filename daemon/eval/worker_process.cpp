// eval/worker_process.cpp — posix_spawn of kbv-worker in its own process group and cgroup, with
// fixed fds; the worker dies with this process (PR_SET_PDEATHSIG, the stop-signal thread).
#include "eval/worker_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>

#include "lifetime/cgroup.hpp"
#include "lifetime/stop_signals.hpp"
#include "protocol/messages.hpp"

extern char** environ;

namespace kbv::eval {

namespace {

// Keep this much of the worker's stderr for the verdict's diagnostics.
constexpr size_t kStderrTailBytes = 4096;
// Source fds are first moved above this, so the dup2 into 3/4/5 never clobbers one another.
constexpr int kHighFd = 64;
// Each worker's cgroup, below this process's own: PREFIX<evaluator pid>-<n>. A later evaluator
// sweeps the ones whose owner died (lifetime/cgroup.hpp).
constexpr const char* kWorkerCgroupPrefix = "kbv-worker-of-";
// How often reap() looks for the worker's exit while it waits.
constexpr std::chrono::milliseconds kExitPoll{1};
// While waiting for the stop: yield this many times before sleeping between looks.
constexpr int kStopYields = 200;
constexpr std::chrono::microseconds kStopPoll{20};

std::atomic<int> g_workers_started{0};

[[noreturn]] void throw_errno(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

int dup_high(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, kHighFd);
  if (copy < 0) throw_errno("fcntl(F_DUPFD_CLOEXEC)");
  return copy;
}

// The worker's environment: only what the loader and the CUDA driver need. The key file's
// location, the daemon's settings and anything else of the caller's stay behind.
std::vector<std::string> worker_environment(const std::filesystem::path& scratch) {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_MODULE_LOADING",
                           "NVIDIA_TF32_OVERRIDE", "LANG", "KBV_SANDBOX_SKIP", "KBV_WORKER_TRACE",
                           "KBV_WORKER_LAUNCH_GATE", "KBV_WORKER_CUPTI_ZEROED"})
    if (const char* value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
  env.push_back("HOME=" + scratch.string());
  env.push_back("TMPDIR=" + scratch.string());
  return env;
}

// A group of the worker's own below this process's, where cgroup v2 lets us make one: killing it
// ends the worker and anything it started, whatever process group or session they moved to.
std::optional<lifetime::OwnedCgroup> make_worker_cgroup() {
  std::string why_not;
  const std::optional<std::filesystem::path> own = lifetime::own_cgroup(&why_not);
  if (!own) return std::nullopt;
  lifetime::sweep_abandoned_cgroups(*own, kWorkerCgroupPrefix);
  return lifetime::OwnedCgroup::create(
      *own, kWorkerCgroupPrefix + std::to_string(::getpid()) + "-" + std::to_string(g_workers_started++), &why_not);
}

// True once the worker has exited (a zombie: its pid, and so its process group id, cannot be
// reused until it is reaped).
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

std::string WorkerExit::describe() const {
  if (signaled) return std::string("killed by signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exit_status);
}

WorkerProcess::WorkerProcess(const WorkerLaunch& launch) {
  int control[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, control) != 0) throw_errno("socketpair");
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw_errno("pipe2");
  int violation_pipe[2];
  if (::pipe2(violation_pipe, O_CLOEXEC) != 0) throw_errno("pipe2");
  control_fd_ = control[0];
  // Arrival stamps on the answers (evaluation_calls.cpp ends each round trip there).
  const int stamp = 1;
  ::setsockopt(control_fd_, SOL_SOCKET, SO_TIMESTAMPNS, &stamp, sizeof stamp);
  stderr_fd_ = err_pipe[0];
  violation_fd_ = violation_pipe[0];
  ::fcntl(stderr_fd_, F_SETFL, O_NONBLOCK);
  ::fcntl(violation_fd_, F_SETFL, O_NONBLOCK);

  const int child_control = dup_high(control[1]);
  const int child_violation = dup_high(violation_pipe[1]);
  const int child_stderr = dup_high(err_pipe[1]);
  ::close(control[1]);
  ::close(violation_pipe[1]);
  ::close(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_stderr, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_control, protocol::kControlFd);
  posix_spawn_file_actions_adddup2(&actions, child_violation, protocol::kViolationFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t empty, all;
  sigemptyset(&empty);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &empty);
  posix_spawnattr_setsigdefault(&attributes, &all);

  std::vector<std::string> args = {launch.worker_binary.string(), "--candidate-dir", launch.candidate_dir.string(),
                                   "--device", launch.device, "--gpu", std::to_string(launch.gpu),
                                   "--scratch", launch.scratch_dir.string(), "--sandbox", launch.sandbox ? "on" : "off",
                                   "--parent-pid", std::to_string(::getpid())};
  for (const auto& path : launch.forbidden) {
    args.push_back("--forbid");
    args.push_back(path.string());
  }
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = worker_environment(launch.scratch_dir);
  std::vector<char*> envp;
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);

  // The worker is born in its cgroup: this process steps into the group for the spawn and back
  // out, so nothing the worker does can happen before it is inside.
  cgroup_ = make_worker_cgroup();
  std::optional<std::filesystem::path> home;
  if (cgroup_) {
    std::string ignored;
    home = lifetime::own_cgroup(&ignored);
    if (!home || lifetime::move_to_cgroup(cgroup_->path(), 0) != 0) cgroup_.reset();
  }
  const int spawned = ::posix_spawn(&pid_, launch.worker_binary.c_str(), &actions, &attributes, argv.data(), envp.data());
  const int left = cgroup_ ? lifetime::move_to_cgroup(*home, 0) : 0;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  for (int fd : {child_control, child_violation, child_stderr})
    if (fd >= 0) ::close(fd);
  if (left != 0) {  // still inside the worker's group: killing the group would kill this process
    const std::string group = cgroup_->path().string();
    cgroup_->disown();
    cgroup_.reset();
    if (spawned == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
    errno = left;
    throw_errno("cannot leave the worker's cgroup " + group);
  }
  if (spawned != 0) {
    errno = spawned;
    pid_ = -1;
    throw_errno("cannot start " + launch.worker_binary.string());
  }
  // Ctrl-C or SIGTERM of kbv eval: the stop thread ends the worker before the process dies.
  on_stop_ = std::make_unique<lifetime::StopCleanup>(
      [pid = pid_, group = cgroup_ ? cgroup_->path() : std::filesystem::path()] {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
        if (!group.empty()) lifetime::kill_and_remove_cgroup(group);
      });
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0 && !reaped_) kill_and_reap();
  for (int fd : {control_fd_, stderr_fd_, violation_fd_})
    if (fd >= 0) ::close(fd);
}

bool WorkerProcess::send(const nlohmann::json& message, int pass_fd) {
  if (gone_) return false;
  thaw();
  if (!protocol::send_message(control_fd_, message, pass_fd)) gone_ = true;
  return !gone_;
}

void WorkerProcess::thaw() {
  if (!stopped_ || pid_ <= 0 || reaped_) return;
  ::kill(pid_, SIGCONT);
  ::kill(-pid_, SIGCONT);
  stopped_ = false;
}

void WorkerProcess::wait_until_stopped() {
  const auto deadline = std::chrono::steady_clock::now() + kWorkerStopTimeout;
  for (int looks = 0;; ++looks) {
    siginfo_t info{};
    // Stop reports only (an exit stays for reap()'s waitpid); each stop is reported once.
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WSTOPPED | WNOHANG) == 0 && info.si_pid == pid_ && info.si_code == CLD_STOPPED) return;
    if (has_exited(pid_)) return;
    if (std::chrono::steady_clock::now() >= deadline) {
      stop_failed_ = true;
      return;
    }
    if (looks < kStopYields) std::this_thread::yield();
    else std::this_thread::sleep_for(kStopPoll);
  }
}

std::optional<nlohmann::json> WorkerProcess::receive(std::chrono::milliseconds timeout) {
  if (gone_) return std::nullopt;
  // The worker's output pipe is drained while waiting: a candidate that prints more than a pipe
  // holds (64 KiB on Linux) during one call would otherwise block in write() and look like a hang.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool output_open = stderr_fd_ >= 0;
  short control_events = 0;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd waiters[2] = {{control_fd_, POLLIN, 0}, {output_open ? stderr_fd_ : -1, POLLIN, 0}};
    const int ready = ::poll(waiters, 2, static_cast<int>(std::max<int64_t>(0, left.count())));
    if (ready < 0 && errno == EINTR) continue;
    if (waiters[1].revents != 0) {
      drain_stderr();
      if ((waiters[1].revents & (POLLHUP | POLLERR | POLLNVAL)) != 0 && (waiters[1].revents & POLLIN) == 0) output_open = false;
    }
    control_events = ready > 0 ? waiters[0].revents : 0;
    if (ready <= 0 || control_events != 0) break;
  }
  // An answer is here: the worker is stopped before it is even read, so nothing the candidate
  // left to run after answering (a hook on the send, a timer's signal) gets further than this
  // moment, and nothing runs while its outputs are checked; what ran before the stop is the
  // candidate's CPU time of the exchange.
  const bool answered = (control_events & POLLIN) != 0 && stop();
  bool eof = false;
  bool malformed = false;
  auto message = protocol::receive_message(control_fd_, 0, &eof, nullptr, &last_arrival_realtime_ns_, &malformed);
  if (eof) gone_ = true;
  if (malformed) malformed_messages_ += 1;
  if (answered) wait_until_stopped();
  drain_stderr();
  return message;
}

bool WorkerProcess::stop() {
  if (pid_ <= 0 || reaped_) return false;
  ::kill(pid_, SIGSTOP);
  ::kill(-pid_, SIGSTOP);  // and what it started in its process group
  stopped_ = true;
  return true;
}

void WorkerProcess::kill_all() const {
  ::kill(-pid_, SIGKILL);  // the whole process group: the candidate's children too
  ::kill(pid_, SIGKILL);
  if (cgroup_) cgroup_->kill();  // and whatever left the group (setsid, setpgid)
}

WorkerExit WorkerProcess::kill_and_reap() {
  if (pid_ <= 0 || reaped_) return exit_;
  kill_all();
  return reap(std::chrono::milliseconds(0));
}

WorkerExit WorkerProcess::reap(std::chrono::milliseconds timeout) {
  if (pid_ <= 0 || reaped_) return exit_;
  thaw();  // a stopped worker cannot exit by itself
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!has_exited(pid_)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill_all();
      while (!has_exited(pid_)) std::this_thread::sleep_for(kExitPoll);
      break;
    }
    std::this_thread::sleep_for(kExitPoll);
  }
  // A zombie now: its pid and group id stay ours until waitpid. End what it left behind, and
  // take the stop cleanup back before the pid can be reused.
  kill_all();
  on_stop_.reset();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  cgroup_.reset();  // waits (bounded) for the group to empty, then removes it
  reaped_ = true;
  gone_ = true;
  exit_.exited = true;
  exit_.signaled = WIFSIGNALED(status);
  exit_.signal = exit_.signaled ? WTERMSIG(status) : 0;
  exit_.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  drain_stderr();
  return exit_;
}

bool WorkerProcess::exited() const { return reaped_ || (pid_ > 0 && has_exited(pid_)); }

int WorkerProcess::thread_count() const {
  const std::string path = "/proc/" + std::to_string(pid_) + "/task";
  DIR* directory = ::opendir(path.c_str());
  if (!directory) return -1;
  int count = 0;
  while (dirent* entry = ::readdir(directory))
    if (entry->d_name[0] != '.') ++count;
  ::closedir(directory);
  return count;
}

std::vector<int> WorkerProcess::drain_violations() {
  std::vector<int> numbers;
  int32_t value;
  while (::read(violation_fd_, &value, sizeof value) == static_cast<ssize_t>(sizeof value)) numbers.push_back(value);
  return numbers;
}

void WorkerProcess::drain_stderr() {
  char buffer[4096];
  ssize_t got;
  while ((got = ::read(stderr_fd_, buffer, sizeof buffer)) > 0) {
    stderr_tail_.append(buffer, static_cast<size_t>(got));
    if (stderr_tail_.size() > kStderrTailBytes) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
  }
}

std::string WorkerProcess::stderr_tail() {
  drain_stderr();
  return stderr_tail_;
}

}  // namespace kbv::eval
