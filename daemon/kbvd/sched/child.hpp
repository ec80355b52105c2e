// An evaluator child process in its own process group and, where cgroup v2 allows, its own
// cgroup (everything it starts is killed with it), watched through a pidfd on the io_context,
// with its stdout and stderr collected.
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lifetime/cgroup.hpp"

namespace kbv::kbvd {

// The evaluator command could not be started (missing, not executable).
class SpawnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// kbvd's environment without systemd's variables (NOTIFY_SOCKET, WATCHDOG_*, LISTEN_*): they are
// kbvd's alone, and an evaluator (or the candidate it loads) must not notify on kbvd's behalf.
// The pointers point into `environ`.
std::vector<char*> evaluator_environment();

struct ChildResult {
  std::optional<int> exit_code;
  std::optional<int> term_signal;
  std::string out;
  std::string err;
};

class Child : public std::enable_shared_from_this<Child> {
 public:
  using Done = std::function<void(const ChildResult&)>;

  // Starts argv[0] (a path) with stdin from a pipe (with_stdin) or /dev/null, inside `cgroup`
  // when given (it joins between fork and exec). `done` runs once, on the io_context, after the
  // process ended, whatever it left in its group and cgroup was killed and is gone, and its
  // output was collected.
  static std::shared_ptr<Child> spawn(boost::asio::io_context& io, const std::vector<std::string>& argv,
                                      bool with_stdin, Done done,
                                      std::optional<lifetime::OwnedCgroup> cgroup = std::nullopt);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  std::int64_t start_ticks() const { return start_ticks_; }
  // The child's cgroup, or empty.
  std::string cgroup() const { return cgroup_ ? cgroup_->path().string() : std::string(); }
  bool running() const { return !exited_; }

  // Writes one line to stdin and closes it; false when the child is gone (EPIPE).
  bool send_line_and_close(const std::string& line);
  // Writes the lines (each ending in a newline) and closes stdin; false when the child is gone.
  bool send_lines_and_close(const std::vector<std::string>& lines);
  // Each complete line of stdout, as it arrives, on the io_context; ChildResult::out then keeps
  // only what follows the last line, and ChildResult::err only what was written to stderr after it.
  void set_on_line(std::function<void(const std::string&)> on_line) { on_line_ = std::move(on_line); }
  // Signals the whole process group (the evaluator and anything it started); SIGKILL also
  // reaches what left the group, through the cgroup.
  void kill_group(int sig);
  // Replaces the completion handler (a spare becomes an evaluation).
  void set_done(Done done) { done_ = std::move(done); }

 private:
  Child(boost::asio::io_context& io, Done done);
  void start();
  void read_stdout();
  void read_stderr();
  void append_stderr(const char* data, std::size_t n);  // kept to its tail (kMaxStderrBytes)
  void drain_stderr_now();  // what stderr already holds, read without waiting
  enum class StderrRead { more, empty, ended };
  StderrRead read_stderr_once();  // one non-blocking read into the tail
  void wait_exit();
  void maybe_finish();
  void wait_cgroup_empty(std::chrono::steady_clock::time_point deadline);

  boost::asio::io_context& io_;
  Done done_;
  std::function<void(const std::string&)> on_line_;
  pid_t pid_ = -1;
  std::int64_t start_ticks_ = 0;
  int stdin_fd_ = -1;
  boost::asio::posix::stream_descriptor out_, err_, pidfd_;
  boost::asio::steady_timer eof_grace_, exit_retry_, cgroup_poll_;
  std::optional<lifetime::OwnedCgroup> cgroup_;
  std::vector<char> out_buf_, err_buf_;
  ChildResult result_;
  bool exited_ = false, out_eof_ = false, err_eof_ = false, finished_ = false, cgroup_empty_ = true;
};

}  // namespace kbv::kbvd
