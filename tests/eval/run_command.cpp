// run_command.cpp — fork/exec with two pipes, poll() until both close and the child is reaped,
// SIGKILL to the child's process group when the deadline passes.
#include "run_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>

extern char** environ;

namespace kbv::test {
namespace {

// An owned file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read_end, write_end;
};

Pipe make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  return {Fd(fds[0]), Fd(fds[1])};
}

// A started child: killed (with its group) and reaped if still running when destroyed, so
// an exception in the parent never leaves a process behind.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ <= 0) return;
    kill_group();
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  void kill_group() const {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
  }
  // Non-blocking reap; true (and the status) once the child has ended.
  bool try_reap(int& status) {
    if (pid_ <= 0) return true;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      return true;
    }
    return false;
  }

 private:
  pid_t pid_;
};

// argv and envp as the NUL-terminated arrays execve wants, built before fork().
struct ExecArgs {
  std::vector<std::string> storage_argv, storage_env;
  std::vector<char*> argv, envp;

  explicit ExecArgs(const Command& command) : storage_argv(command.argv) {
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string variable(*entry);
      const std::string name = variable.substr(0, variable.find('='));
      bool dropped = command.env.count(name) != 0;
      for (const auto& unset : command.unset_env) dropped = dropped || unset == name;
      if (!dropped) storage_env.push_back(variable);
    }
    for (const auto& [name, value] : command.env) storage_env.push_back(name + "=" + value);
    for (auto& arg : storage_argv) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (auto& variable : storage_env) envp.push_back(variable.data());
    envp.push_back(nullptr);
  }
};

constexpr size_t kReadChunk = 65536;
constexpr int kPollSliceMs = 50;  // how often the deadline and the child's exit are checked
// How long output may keep flowing after the child exited (from a process it started).
constexpr std::chrono::seconds kOrphanGrace{5};

}  // namespace

CommandResult run_command(const Command& command) {
  if (command.argv.empty()) throw std::invalid_argument("run_command: empty argv");
  ExecArgs exec_args(command);
  Pipe out = make_pipe(), err = make_pipe();
  const pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    // Child: only async-signal-safe calls from here to execve.
    setpgid(0, 0);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    dup2(out.write_end.get(), STDOUT_FILENO);
    dup2(err.write_end.get(), STDERR_FILENO);
    execve(exec_args.argv[0], exec_args.argv.data(), exec_args.envp.data());
    constexpr char kFailed[] = "run_command: execve failed\n";
    [[maybe_unused]] const ssize_t ignored = write(STDERR_FILENO, kFailed, sizeof kFailed - 1);
    _exit(127);
  }
  Child child(pid);
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  out.write_end.reset();
  err.write_end.reset();

  CommandResult result;
  const auto deadline = std::chrono::steady_clock::now() + command.timeout;
  std::array<pollfd, 2> fds{{{out.read_end.get(), POLLIN, 0}, {err.read_end.get(), POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> reaped_at;
  char buffer[kReadChunk];
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    if (!reaped_at && child.try_reap(status)) reaped_at = now;
    const bool pipes_open = fds[0].fd >= 0 || fds[1].fd >= 0;
    // Done once the child is gone and its output has ended — or a grandchild it left behind
    // still holds the pipes after a grace period.
    if (reaped_at && (!pipes_open || now - *reaped_at > kOrphanGrace)) break;
    if (!result.timed_out && now >= deadline) {
      result.timed_out = true;
      child.kill_group();
    }
    if (!pipes_open) {
      usleep(kPollSliceMs * 1000);
      continue;
    }
    if (poll(fds.data(), fds.size(), kPollSliceMs) < 0 && errno != EINTR)
      throw std::system_error(errno, std::generic_category(), "poll");
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0)
        sinks[i]->append(buffer, static_cast<size_t>(got));
      else if (got == 0 || errno != EINTR)
        fds[i].fd = -1;  // EOF or error: stop polling it (the Fd objects close it)
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string describe(const Command& command) {
  std::string text;
  for (const auto& arg : command.argv) text += (text.empty() ? "" : " ") + arg;
  return text;
}

}  // namespace kbv::test
