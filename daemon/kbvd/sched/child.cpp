// fork/exec of an evaluator in its own process group and cgroup; exit seen through a pidfd,
// output read asynchronously; failures before exec reported through a close-on-exec pipe.
#include "sched/child.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/read.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include "sched/proc_stat.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::kbvd {
namespace {

namespace asio = boost::asio;

// Caps on what kbvd keeps of a child's output: a report is a few KiB; stderr's tail suffices.
constexpr std::size_t kMaxStdoutBytes = 16u << 20;
constexpr std::size_t kMaxStderrBytes = 64u << 10;
constexpr std::size_t kReadChunk = 64u << 10;
// After the evaluator exits its group is killed; pipes close at once unless something escaped
// the group holding them: stop waiting for EOF after this long.
constexpr auto kEofGrace = std::chrono::seconds(5);
// How soon to look again after a pidfd said "exited" too early.
constexpr auto kExitRetry = std::chrono::milliseconds(2);
// How often a killed cgroup is looked at until it is empty (lifetime::kCgroupEmptyWait at most).
constexpr auto kCgroupPoll = std::chrono::milliseconds(5);

// What the child reports through the pipe when it cannot reach exec.
struct PreExecFailure {
  enum Stage : int { redirect, cgroup, exec } stage;
  int error;
};

// An fd that closes itself.
using Fd = sandbox::UniqueFd;

struct Pipe {
  Fd read, write;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SpawnError(fmt::format("pipe: {}", std::strerror(errno)));
  return {Fd(fds[0]), Fd(fds[1])};
}

// systemd's variables are kbvd's alone: an evaluator (and the candidate it loads) must not
// ping the watchdog or send notifications on kbvd's behalf.
bool inherited(const char* entry) {
  for (const char* name : {"NOTIFY_SOCKET=", "WATCHDOG_USEC=", "WATCHDOG_PID=", "LISTEN_FDS=",
                           "LISTEN_PID=", "LISTEN_FDNAMES="})
    if (std::strncmp(entry, name, std::strlen(name)) == 0) return false;
  return true;
}

// Runs in the child between fork and exec: async-signal-safe calls only.
void report(int report_fd, PreExecFailure::Stage stage) {
  const PreExecFailure failure{stage, errno};
  [[maybe_unused]] auto n = ::write(report_fd, &failure, sizeof failure);
}

[[noreturn]] void exec_child(pid_t parent, int in_fd, int out_fd, int err_fd, int report_fd,
                             const char* cgroup_procs, char* const* argv, char* const* envp) {
  // Into its cgroup before anything else runs: what it starts is born there too.
  if (cgroup_procs) {
    const int procs = ::open(cgroup_procs, O_WRONLY | O_CLOEXEC);
    if (procs < 0 || ::write(procs, "0", 1) != 1) {
      report(report_fd, PreExecFailure::cgroup);
      ::_exit(127);
    }
    ::close(procs);
  }
  ::setpgid(0, 0);
  // Die with kbvd: a killed daemon must not leave evaluations running on a GPU.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // kbvd ignores these (a hung-up client, lease breaks, a full disk's EFBIG); an ignored
  // disposition survives exec.
  for (const int sig : {SIGPIPE, SIGIO, SIGXFSZ}) ::signal(sig, SIG_DFL);
  // No capability of kbvd's (CAP_LEASE from the unit) passes to the evaluator.
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) {
    report(report_fd, PreExecFailure::redirect);
    ::_exit(127);
  }
  // Nothing of kbvd's (store, sockets, inotify, cgroup locks) reaches the evaluator.
  ::close_range(3, ~0u, CLOSE_RANGE_CLOEXEC);
  ::execve(argv[0], argv, envp);
  report(report_fd, PreExecFailure::exec);
  ::_exit(127);
}

}  // namespace

std::vector<char*> evaluator_environment() {
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e)
    if (inherited(*e)) envp.push_back(*e);
  envp.push_back(nullptr);
  return envp;
}

Child::Child(asio::io_context& io, Done done)
    : io_(io), done_(std::move(done)), out_(io), err_(io), pidfd_(io), eof_grace_(io), exit_retry_(io),
      cgroup_poll_(io) {}

Child::~Child() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  if (!exited_ && pid_ > 0) {
    // Destroyed while running (daemon shutting down): end the group and reap the leader.
    ::kill(-pid_, SIGKILL);
    if (cgroup_) cgroup_->kill();
    ::waitpid(pid_, nullptr, 0);
  }
  // cgroup_'s destructor waits (bounded) for the group to empty and removes it.
}

std::shared_ptr<Child> Child::spawn(asio::io_context& io, const std::vector<std::string>& argv,
                                    bool with_stdin, Done done, std::optional<lifetime::OwnedCgroup> cgroup) {
  if (argv.empty()) throw SpawnError("empty evaluator command");
  std::vector<std::string> args = argv;
  std::vector<char*> c_argv;
  for (auto& a : args) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  std::vector<char*> c_envp = evaluator_environment();

  Pipe out = make_pipe(), err = make_pipe(), report = make_pipe();
  Pipe in;
  if (with_stdin) {
    in = make_pipe();
  } else {
    in.read = Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (in.read.get() < 0) throw SpawnError(fmt::format("/dev/null: {}", std::strerror(errno)));
  }

  std::shared_ptr<Child> child(new Child(io, std::move(done)));
  const std::string cgroup_procs = cgroup ? cgroup->procs_file().string() : std::string();
  child->cgroup_ = std::move(cgroup);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw SpawnError(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0)
    exec_child(parent, in.read.get(), out.write.get(), err.write.get(), report.write.get(),
               cgroup_procs.empty() ? nullptr : cgroup_procs.c_str(), c_argv.data(), c_envp.data());
  child->pid_ = pid;
  ::setpgid(pid, pid);  // also here, so the group exists before either side goes on
  in.read.reset();
  out.write.reset();
  err.write.reset();
  report.write.reset();

  PreExecFailure failure{};
  ssize_t n;
  do {
    n = ::read(report.read.get(), &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  if (n > 0) {
    ::waitpid(pid, nullptr, 0);
    child->exited_ = true;
    if (failure.stage == PreExecFailure::cgroup)
      throw SpawnError(fmt::format("cannot move the evaluator into its cgroup {}: {}", cgroup_procs,
                                   std::strerror(failure.error)));
    throw SpawnError(fmt::format("cannot run {}: {}", argv[0], std::strerror(failure.error)));
  }

  // glibc 2.36's <sys/pidfd.h> lacks C linkage for C++: call the system call directly.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    const int e = errno;
    throw SpawnError(fmt::format("pidfd_open: {}", std::strerror(e)));  // ~Child kills and reaps
  }
  child->pidfd_.assign(pidfd);
  child->out_.assign(out.read.release());
  child->err_.assign(err.read.release());
  child->err_.non_blocking(true);  // read_stderr() and drain_stderr_now() read it themselves
  child->stdin_fd_ = with_stdin ? in.write.release() : -1;
  child->start_ticks_ = process_start_ticks(pid).value_or(0);
  child->start();
  return child;
}

void Child::start() {
  out_buf_.resize(kReadChunk);
  err_buf_.resize(kReadChunk);
  read_stdout();
  read_stderr();
  wait_exit();
}

void Child::read_stdout() {
  out_.async_read_some(asio::buffer(out_buf_), [self = shared_from_this()](auto ec, std::size_t n) {
    if (n > 0 && self->result_.out.size() < kMaxStdoutBytes)
      self->result_.out.append(self->out_buf_.data(),
                               std::min(n, kMaxStdoutBytes - self->result_.out.size()));
    // With a line handler, each complete line goes to it and leaves `out`, which keeps only what
    // follows the last one (the output of the candidate in flight when the child ends).
    if (self->on_line_)
      for (std::size_t end; (end = self->result_.out.find('\n')) != std::string::npos;) {
        std::string line = self->result_.out.substr(0, end);
        self->result_.out.erase(0, end + 1);
        self->on_line_(line);
        // So does stderr: what the evaluator wrote there up to a line (a batch's verdict: it
        // writes a candidate's stderr first, eval_command.cpp) is that candidate's, and must not
        // end up in the next one's outcome (another submitter's path or error text).
        self->drain_stderr_now();
        self->result_.err.clear();
      }
    if (ec) {
      self->out_eof_ = true;
      self->maybe_finish();
      return;
    }
    self->read_stdout();
  });
}

void Child::append_stderr(const char* data, std::size_t n) {
  auto& err = result_.err;
  err.append(data, n);
  if (err.size() > kMaxStderrBytes) err.erase(0, err.size() - kMaxStderrBytes);
}

Child::StderrRead Child::read_stderr_once() {
  const ssize_t n = ::read(err_.native_handle(), err_buf_.data(), err_buf_.size());
  if (n > 0) {
    append_stderr(err_buf_.data(), static_cast<std::size_t>(n));
    return StderrRead::more;
  }
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return StderrRead::empty;
  return StderrRead::ended;  // end of file, or an error
}

void Child::drain_stderr_now() {
  if (!err_.is_open()) return;
  while (read_stderr_once() == StderrRead::more) {
  }
}

// Waits for stderr to be readable and reads it in the handler, not in the reactor: an
// asynchronous read would take the bytes out of the pipe as soon as epoll saw them and hand them
// over later, after a stdout line of the same wake-up had cleared stderr (drain_stderr_now found
// nothing left), so a candidate's stderr written before its verdict line ended up in the next
// one's outcome (Child.StderrBeforeALineBelongsToThatLine, under load). One chunk per wake-up, as
// the asynchronous read took: a child that writes without pause does not hold the loop.
void Child::read_stderr() {
  err_.async_wait(asio::posix::stream_descriptor::wait_read, [self = shared_from_this()](auto ec) {
    // Empty: a drain_stderr_now() took it first.
    if (ec || !self->err_.is_open() || self->read_stderr_once() == StderrRead::ended) {
      self->err_eof_ = true;
      self->maybe_finish();
      return;
    }
    self->read_stderr();
  });
}

void Child::wait_exit() {
  pidfd_.async_wait(asio::posix::stream_descriptor::wait_read, [self = shared_from_this()](auto ec) {
    if (ec == asio::error::operation_aborted || !self->pidfd_.is_open()) return;
    const auto fd = static_cast<id_t>(self->pidfd_.native_handle());
    // The pidfd has been seen readable while its process was still running (kernel 6.18, a #!
    // script as evaluator): look without reaping first, and wait again if it is no zombie yet.
    siginfo_t peek{};
    if (::waitid(P_PIDFD, fd, &peek, WEXITED | WNOHANG | WNOWAIT) != 0 || peek.si_pid == 0) {
      self->exit_retry_.expires_after(kExitRetry);
      self->exit_retry_.async_wait([self](auto timer_ec) {
        if (!timer_ec) self->wait_exit();
      });
      return;
    }
    // The leader is a zombie now, so its pid (the group id) cannot be reused: end whatever it
    // left in its group and cgroup before reaping it.
    ::kill(-self->pid_, SIGKILL);
    if (self->cgroup_) self->cgroup_->kill();
    siginfo_t info{};
    int rc;
    do {
      rc = ::waitid(P_PIDFD, fd, &info, WEXITED);
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) {
      if (info.si_code == CLD_EXITED) self->result_.exit_code = info.si_status;
      else self->result_.term_signal = info.si_status;
    } else {
      self->result_.exit_code = -1;
      self->result_.err += fmt::format("\nkbvd: waitid: {}", std::strerror(errno));
    }
    self->exited_ = true;
    if (self->stdin_fd_ >= 0) {
      ::close(self->stdin_fd_);
      self->stdin_fd_ = -1;
    }
    self->eof_grace_.expires_after(kEofGrace);
    self->eof_grace_.async_wait([self](auto timer_ec) {
      if (timer_ec) return;
      boost::system::error_code ignored;
      self->out_.close(ignored);
      self->err_.close(ignored);
    });
    if (self->cgroup_) {
      // Done only when the worker and whatever else ran in the cgroup are gone (a GPU is free).
      self->cgroup_empty_ = false;
      self->wait_cgroup_empty(std::chrono::steady_clock::now() + lifetime::kCgroupEmptyWait);
    }
    self->maybe_finish();
  });
}

void Child::wait_cgroup_empty(std::chrono::steady_clock::time_point deadline) {
  if (!cgroup_->populated()) {
    cgroup_.reset();  // empty: removed at once
    cgroup_empty_ = true;
    maybe_finish();
    return;
  }
  if (std::chrono::steady_clock::now() >= deadline) {
    // A process stuck in the kernel: leave the group to the next start-up's sweep.
    result_.err += fmt::format("\nkbvd: {} still held processes {} s after they were killed",
                               cgroup_->path().string(), lifetime::kCgroupEmptyWait.count() / 1000);
    cgroup_->abandon();
    cgroup_.reset();
    cgroup_empty_ = true;
    maybe_finish();
    return;
  }
  cgroup_->kill();
  cgroup_poll_.expires_after(kCgroupPoll);
  cgroup_poll_.async_wait([self = shared_from_this(), deadline](auto ec) {
    if (!ec) self->wait_cgroup_empty(deadline);
  });
}

void Child::maybe_finish() {
  if (finished_ || !exited_ || !out_eof_ || !err_eof_ || !cgroup_empty_) return;
  finished_ = true;
  eof_grace_.cancel();
  boost::system::error_code ignored;
  pidfd_.close(ignored);
  auto done = std::move(done_);
  if (done) done(result_);
}

bool Child::send_lines_and_close(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += line;
  return send_line_and_close(all);
}

bool Child::send_line_and_close(const std::string& line) {
  if (stdin_fd_ < 0) return false;
  std::size_t sent = 0;
  while (sent < line.size()) {
    const ssize_t n = ::write(stdin_fd_, line.data() + sent, line.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  ::close(stdin_fd_);
  stdin_fd_ = -1;
  return sent == line.size();
}

void Child::kill_group(int sig) {
  if (exited_ || pid_ <= 0) return;
  ::kill(-pid_, sig);
  if (sig == SIGKILL && cgroup_) cgroup_->kill();
}

}  // namespace kbv::kbvd
