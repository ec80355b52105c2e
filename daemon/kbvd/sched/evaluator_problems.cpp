// daemon/kbvd/sched/evaluator_problems.cpp — runs `COMMAND problems --json` with a deadline and
// reads the names (see evaluator_problems.hpp).
#include "sched/evaluator_problems.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <vector>

#include "client/printable.hpp"
#include "sched/child.hpp"

namespace kbv::kbvd {
namespace {

constexpr std::size_t kMaxOutputBytes = 4u << 20;  // a catalog of thousands of problems fits

struct Output {
  int status = -1;  // exit status, -1 when killed or not started
  std::string out, err;
  std::string failure;  // spawn error or timeout
};

Output run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  Output result;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return {-1, "", "", std::strerror(errno)};
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return {-1, "", "", std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, reset;
  sigemptyset(&none);
  sigemptyset(&reset);
  for (const int sig : {SIGPIPE, SIGIO, SIGXFSZ}) sigaddset(&reset, sig);  // ignored by kbvd
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &reset);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<std::string> args = argv;
  std::vector<char*> c_argv;
  for (auto& a : args) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  pid_t pid = -1;
  std::vector<char*> envp = evaluator_environment();
  const int spawned = ::posix_spawn(&pid, c_argv[0], &actions, &attributes, c_argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (spawned != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    result.failure = std::strerror(spawned);
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open = 2;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      result.failure = fmt::format("no answer within {} s", timeout.count() / 1000);
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        if (sinks[i]->size() < kMaxOutputBytes) sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (result.failure.empty() && WIFEXITED(status)) result.status = WEXITSTATUS(status);
  else if (result.failure.empty()) result.failure = fmt::format("killed by signal {}", WTERMSIG(status));
  return result;
}

std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const auto cut = text.rfind('\n');
  return cut == std::string::npos ? text : text.substr(cut + 1);
}

}  // namespace

EvaluatorProblems list_evaluator_problems(const EvaluatorConfig& config, std::chrono::milliseconds timeout) {
  std::vector<std::string> argv = {config.command.string(), "problems", "--json"};
  for (std::size_t i = 0; i + 1 < config.extra_args.size(); ++i)
    if (config.extra_args[i] == "--problems-dir") argv.insert(argv.end(), {"--problems-dir", config.extra_args[i + 1]});
  const std::string shown = fmt::format("`{} problems --json`", config.command.string());
  EvaluatorProblems answer;
  const Output out = run(argv, timeout);
  if (!out.failure.empty()) {
    answer.error = fmt::format("{}: {}; fix: check evaluator.command (the kbv binary)", shown, out.failure);
    return answer;
  }
  if (out.status != 0) {
    answer.error = fmt::format("{} exited {}{}; fix: check evaluator.command and evaluator.extra_args", shown,
                               out.status, out.err.empty() ? "" : ": " + printable(last_line(out.err)));
    return answer;
  }
  const auto list = nlohmann::json::parse(out.out, nullptr, false);
  std::set<std::string> names;
  if (list.is_array())
    for (const auto& item : list)
      if (item.is_object() && item.contains("name") && item["name"].is_string()) names.insert(item["name"].get<std::string>());
  if (names.empty()) {
    answer.error = fmt::format("{} listed no problem; fix: check the evaluator's problem folder", shown);
    return answer;
  }
  answer.names = std::move(names);
  return answer;
}

}  // namespace kbv::kbvd
