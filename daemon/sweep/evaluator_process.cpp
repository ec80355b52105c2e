// daemon/sweep/evaluator_process.cpp — spawn, watch and kill one evaluator child.
#include "sweep/evaluator_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "sandbox/unique_fd.hpp"

namespace kbv::sweep {
namespace {

// A descriptor closed when it leaves scope.
using Fd = sandbox::UniqueFd;

int open_or_throw(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot open: {}; fix: check the sweep folder's permissions", path.string(), std::strerror(errno)));
  return fd;
}

}  // namespace

EvaluatorProcess::EvaluatorProcess(const std::vector<std::string>& argv, const std::filesystem::path& stdout_file,
                                   const std::filesystem::path& stderr_file)
    : started_(std::chrono::steady_clock::now()) {
  const Fd in(open_or_throw("/dev/null", O_RDONLY));
  const Fd out(open_or_throw(stdout_file, O_WRONLY | O_CREAT | O_TRUNC));
  const Fd err(open_or_throw(stderr_file, O_WRONLY | O_CREAT | O_TRUNC));
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (auto& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(fmt::format("cannot start {}: {}", argv.front(), std::strerror(errno)));
  if (pid_ == 0) {
    // Only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the sweep died before prctl took effect
    ::dup2(in.get(), 0);
    ::dup2(out.get(), 1);
    ::dup2(err.get(), 2);
    ::close_range(3, ~0U, 0);
    ::execv(pointers[0], pointers.data());
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also from here, so the group exists before any kill
}

EvaluatorProcess::~EvaluatorProcess() { kill(); }

double EvaluatorProcess::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<kbvd::ChildExit> EvaluatorProcess::poll(double timeout_s) {
  if (pid_ <= 0) return std::nullopt;
  if (!timed_out_ && elapsed_s() > timeout_s) {
    ::kill(-pid_, SIGKILL);
    timed_out_ = true;
  }
  int status = 0;
  const pid_t got = ::waitpid(pid_, &status, WNOHANG);
  if (got != pid_) return std::nullopt;
  ::kill(-pid_, SIGKILL);  // whatever the evaluator left in its group
  pid_ = -1;
  kbvd::ChildExit exit;
  exit.seconds = elapsed_s();
  exit.timed_out = timed_out_;
  exit.timeout_s = timeout_s;
  if (WIFEXITED(status)) exit.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) exit.term_signal = WTERMSIG(status);
  return exit;
}

void EvaluatorProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

}  // namespace kbv::sweep
