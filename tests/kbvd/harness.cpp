// Implementation of the kbvd test helpers (process control, HTTP, polling).
#include "harness.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "client/control_client.hpp"
#include "lifetime/cgroup.hpp"

namespace kbv::kbvd::test {
namespace fs = std::filesystem;

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = (fs::path(tmp && *tmp ? tmp : "/tmp") / "kbvd-test-XXXXXX").string();
  if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
  path_ = templ;
}
TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}
std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}


bool process_gone(int pid) {
  if (::kill(pid, 0) != 0) return true;
  const auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close == std::string::npos || stat.substr(close + 2, 1) == "Z";
}


KbvdProcess::KbvdProcess(const fs::path& root, const std::string& extra_yaml,
                         std::map<std::string, std::string> env)
    : root_(root), env_(std::move(env)) {
  fs::create_directories(root_);
  metrics_port_ = free_port();
  // Base sections; a section that extra_yaml names replaces the base one whole.
  std::map<std::string, std::string> sections = {
      {"store", "store:\n  state_dir: " + (root / "state").string() + "\n"},
      {"watch", "watch:\n  dir: " + (root / "inbox").string() + "\n  rescan_interval_s: 60\n  settle_s: 0.2\n"},
      {"control", "control:\n  socket: " + (root / "control.sock").string() + "\n"},
      {"metrics", "metrics:\n  listen: 127.0.0.1:" + std::to_string(metrics_port_) + "\n"},
      {"evaluator", "evaluator:\n  command: " KBVD_FAKE_EVALUATOR "\n  timeout_s: 20\n"},
      {"devices", "devices:\n  kind: host\n"},
      {"log", "log:\n  level: debug\n"},
  };
  std::istringstream extra(extra_yaml);
  std::string line, current;
  while (std::getline(extra, line)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') {
      current = line.substr(0, line.size() - 1);
      sections[current] = line + "\n";
    } else if (!current.empty()) {
      sections[current] += line + "\n";
    }
  }
  std::string yaml;
  for (const auto& [name, text] : sections) yaml += text;
  write_file(config_file(), yaml);
  fs::create_directories(inbox());
}

KbvdProcess::~KbvdProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  // The evaluator cgroups a killed kbvd leaves: empty ones (its evaluators died with it), which
  // the next kbvd would sweep; tests leave none behind.
  std::string ignored;
  if (const auto own = lifetime::own_cgroup(&ignored)) lifetime::sweep_abandoned_cgroups(*own, "kbvd-");
}

void KbvdProcess::start() {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("FAKE_KBV_LOG=" + fake_log().string());
  for (const auto& [k, v] : env_) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string binary = KBVD_BINARY, flag = "--config", config = config_file().string();
  char* argv[] = {binary.data(), flag.data(), config.data(), nullptr};
  const int log_fd = ::open(log_file().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const std::string procs = cgroup_.empty() ? std::string() : (cgroup_ / "cgroup.procs").string();
  pid_ = ::fork();
  if (pid_ == 0) {
    if (!procs.empty()) {
      const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0 || ::write(fd, "0", 1) != 1) ::_exit(126);
      ::close(fd);
    }
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    ::execve(argv[0], argv, envp.data());
    ::_exit(127);
  }
  ::close(log_fd);
  const bool up = wait_until(
      [&] {
        try {
          control::status(socket());
          return true;
        } catch (const std::exception&) {
          int status = 0;
          if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return true;
          }
          return false;
        }
      },
      std::chrono::seconds(10));
  if (!up || pid_ < 0) throw std::runtime_error("kbvd did not start: " + read_file(log_file()));
}

void KbvdProcess::signal(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

int KbvdProcess::wait_exit(std::chrono::milliseconds timeout) {
  int result = -1;
  wait_until(
      [&] {
        int status = 0;
        if (pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) {
          result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
          pid_ = -1;
        }
        return pid_ < 0;
      },
      timeout);
  return result;
}

nlohmann::json KbvdProcess::status() const { return control::status(socket()); }
nlohmann::json KbvdProcess::results(int limit) const {
  return control::results_list(socket(), limit)["results"];
}

void KbvdProcess::drop(const std::string& name, const std::string& content) const {
  const auto temp = root_ / (".drop-" + name);
  write_file(temp, content);
  fs::rename(temp, inbox() / name);
}

bool KbvdProcess::wait_done(std::size_t n, std::chrono::milliseconds timeout) const {
  return wait_until(
      [&] {
        try {
          const auto rows = results();
          std::size_t done = 0;
          for (const auto& r : rows) done += r["state"] == "done" ? 1 : 0;
          return rows.size() == n && done == n;
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
}

std::map<std::string, int> fake_log_counts(const fs::path& log, const std::string& kind) {
  std::map<std::string, int> counts;
  std::istringstream in(read_file(log));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first, file;
    words >> first >> file;
    if (first == kind) ++counts[file];
  }
  return counts;
}

}  // namespace kbv::kbvd::test
