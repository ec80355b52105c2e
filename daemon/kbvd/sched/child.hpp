// An evaluator child process in its own process group, watched through a pidfd on the
// io_context, with its stdout and stderr collected.
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbv::kbvd {

// The evaluator command could not be started (missing, not executable).
class SpawnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ChildResult {
  std::optional<int> exit_code;
  std::optional<int> term_signal;
  std::string out;
  std::string err;
};

class Child : public std::enable_shared_from_this<Child> {
 public:
  using Done = std::function<void(const ChildResult&)>;

  // Starts argv[0] (a path) with stdin from a pipe (with_stdin) or /dev/null. `done` runs once,
  // on the io_context, after the process ended and its output was collected.
  static std::shared_ptr<Child> spawn(boost::asio::io_context& io, const std::vector<std::string>& argv,
                                      bool with_stdin, Done done);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  std::int64_t start_ticks() const { return start_ticks_; }
  bool running() const { return !exited_; }

  // Writes one line to stdin and closes it; false when the child is gone (EPIPE).
  bool send_line_and_close(const std::string& line);
  // Signals the whole process group (the evaluator and anything it started).
  void kill_group(int sig);
  // Replaces the completion handler (a spare becomes an evaluation).
  void set_done(Done done) { done_ = std::move(done); }

 private:
  Child(boost::asio::io_context& io, Done done);
  void start();
  void read_stdout();
  void read_stderr();
  void wait_exit();
  void maybe_finish();

  boost::asio::io_context& io_;
  Done done_;
  pid_t pid_ = -1;
  std::int64_t start_ticks_ = 0;
  int stdin_fd_ = -1;
  boost::asio::posix::stream_descriptor out_, err_, pidfd_;
  boost::asio::steady_timer eof_grace_, exit_retry_;
  std::vector<char> out_buf_, err_buf_;
  ChildResult result_;
  bool exited_ = false, out_eof_ = false, err_eof_ = false, finished_ = false;
};

}  // namespace kbv::kbvd
