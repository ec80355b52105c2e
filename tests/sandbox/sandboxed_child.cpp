// tests/sandbox/sandboxed_child.cpp — fork, sandbox, attempt, report through two pipes.
#include "sandboxed_child.hpp"

#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <exception>

namespace kbv::sandbox::testing {
namespace {

// Generous for a fork and a few syscalls; only a hang reaches it.
constexpr unsigned kChildTimeoutSeconds = 20;

int g_violation_fd = -1;  // set in the child only

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    done += static_cast<size_t>(written);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

int violation_fd_in_child() { return g_violation_fd; }

std::string errno_name() {
  const char* name = ::strerrorname_np(errno);
  return name ? name : "errno " + std::to_string(errno);
}

std::string outcome_of(long result) { return result >= 0 ? "ok" : errno_name(); }

ChildOutcome run_sandboxed(SandboxPolicy policy, const Attempt& attempt, const std::function<void()>& prepare) {
  int result_pipe[2], violation_pipe[2];
  if (::pipe2(result_pipe, O_CLOEXEC) != 0 || ::pipe2(violation_pipe, O_CLOEXEC) != 0) return {};
  const pid_t child = ::fork();
  if (child == 0) {
    ::alarm(kChildTimeoutSeconds);
    ::close(result_pipe[0]);
    ::close(violation_pipe[0]);
    std::string result;
    try {
      if (prepare) prepare();
      policy.violation_fd = g_violation_fd = violation_pipe[1];
      const SandboxReport report = apply_sandbox(policy);
      result = attempt(report);
    } catch (const std::exception& failure) {
      result = std::string("SETUP_FAILED: ") + failure.what();
    }
    write_all(result_pipe[1], result);
    ::_exit(0);
  }
  ::close(result_pipe[1]);
  ::close(violation_pipe[1]);
  ChildOutcome outcome;
  outcome.pid = child;
  outcome.result = read_all(result_pipe[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.exited = WIFEXITED(status);
  outcome.exit_code = outcome.exited ? WEXITSTATUS(status) : -1;
  outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  const std::string records = read_all(violation_pipe[0]);
  for (size_t offset = 0; offset + sizeof(std::int32_t) <= records.size(); offset += sizeof(std::int32_t)) {
    std::int32_t number;
    ::memcpy(&number, records.data() + offset, sizeof number);
    outcome.violations.push_back(number);
  }
  ::close(result_pipe[0]);
  ::close(violation_pipe[0]);
  return outcome;
}

}  // namespace kbv::sandbox::testing
