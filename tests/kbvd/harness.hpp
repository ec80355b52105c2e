// Test helpers for kbvd: temp folders, a kbvd child process driven through kbvctl's client
// library, HTTP GET on loopback, polling with a deadline, running shell commands.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loopback_http.hpp"  // http_get, free_port

namespace kbv::kbvd::test {

// A fresh folder under $TMPDIR, removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& p, const std::string& text);
std::string read_file(const std::filesystem::path& p);

// Polls `done` every 20 ms until it is true or `timeout` passes; returns its last value.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout);

// Runs a shell command; returns exit status and combined output.
struct CommandResult {
  int status = -1;
  std::string output;
};
CommandResult run_command(const std::string& command);

// True when PID is dead or a zombie (reaped later by whoever inherited it).
bool process_gone(int pid);

// The kbvd binary under test with the fake evaluator, on a temp state dir.
class KbvdProcess {
 public:
  // `extra_yaml` is appended to a base configuration (host device, fake evaluator, temp
  // folders, metrics on a free port); sections it repeats replace the base ones.
  explicit KbvdProcess(const std::filesystem::path& root, const std::string& extra_yaml = "",
                       std::map<std::string, std::string> env = {});
  // Starts kbvd inside `cgroup` (a cgroup v2 folder): its evaluators' groups then sit below it,
  // out of reach of other kbvds' sweeps (tests run in parallel).
  void run_in_cgroup(const std::filesystem::path& cgroup) { cgroup_ = cgroup; }
  ~KbvdProcess();

  void start();                   // spawns kbvd and waits for its control socket
  void signal(int sig);
  int wait_exit(std::chrono::milliseconds timeout);  // exit status, -1 on timeout
  bool running() const { return pid_ > 0; }

  nlohmann::json status() const;
  nlohmann::json results(int limit = 10000) const;
  // Drops a candidate file with the atomic publish convention (write elsewhere, rename in).
  void drop(const std::string& name, const std::string& content) const;
  // Waits until `n` candidates have a finished evaluation and none is queued or running.
  bool wait_done(std::size_t n, std::chrono::milliseconds timeout) const;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path socket() const { return root_ / "control.sock"; }
  std::filesystem::path inbox() const { return root_ / "inbox"; }
  std::filesystem::path config_file() const { return root_ / "kbvd.yaml"; }
  std::filesystem::path log_file() const { return root_ / "kbvd.log"; }
  std::filesystem::path fake_log() const { return root_ / "fake.log"; }
  int metrics_port() const { return metrics_port_; }
  pid_t pid() const { return pid_; }

 private:
  std::filesystem::path root_;
  std::map<std::string, std::string> env_;
  int metrics_port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path cgroup_;
};

// Lines of the fake evaluator's log that start with `kind` ("start", "end"), per candidate file.
std::map<std::string, int> fake_log_counts(const std::filesystem::path& log, const std::string& kind);

}  // namespace kbv::kbvd::test
