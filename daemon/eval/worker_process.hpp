// eval/worker_process.hpp — start, talk to, observe and end one kbv-worker child.
//
// The child runs in its own process group and, where cgroup v2 lets the evaluator make groups,
// in its own cgroup (so a candidate's own children die with it, even those that left the process
// group), with a scrubbed environment, the control socket on fd 3 and the sandbox violation pipe
// on fd 5. It dies with the evaluator however the evaluator ends: PR_SET_PDEATHSIG in the worker
// (it gets --parent-pid to close the race), the stop-signal thread (lifetime/stop_signals.hpp) on
// SIGINT/SIGTERM/SIGHUP, and the next evaluator's sweep of abandoned worker cgroups after a
// SIGKILL. The destructor kills the whole group and cgroup and reaps the worker.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lifetime/cgroup.hpp"
#include "lifetime/stop_signals.hpp"

namespace kbv::eval {

// How long a worker may take to stop once it has answered (WorkerProcess::receive). A stop takes
// tens of microseconds: the signal interrupts whatever the threads do, bar an uninterruptible
// wait in the kernel; two seconds is that with a wide margin.
inline constexpr std::chrono::milliseconds kWorkerStopTimeout{2000};

struct WorkerLaunch {
  std::filesystem::path worker_binary;
  std::filesystem::path candidate_dir;  // read-only to the worker: its candidate is copied here (eval/started_worker.hpp)
  std::string device = "host";
  int gpu = 0;
  std::filesystem::path scratch_dir;
  std::vector<std::filesystem::path> forbidden;  // the key file, stores: unreadable to the worker
  bool sandbox = true;
};

// How the worker ended, in the taxonomy's words.
struct WorkerExit {
  bool exited = false;     // reaped
  bool signaled = false;
  int signal = 0;
  int exit_status = 0;
  std::string describe() const;
};

class WorkerProcess {
 public:
  // Throws std::system_error. Construct it on a thread that outlives the worker (the main
  // thread): PR_SET_PDEATHSIG fires when the thread that spawned the worker exits.
  explicit WorkerProcess(const WorkerLaunch& launch);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends a message, optionally passing an fd with it (the host arena); a stopped worker is
  // continued first (SIGCONT).
  bool send(const nlohmann::json& message, int pass_fd = -1);
  // The next message within `timeout`; nullopt on timeout or when the worker is gone
  // (then gone() is true). A worker that answered is stopped (SIGSTOP, it and its process
  // group) before the message is read, and receive() returns once it is: the worker never runs
  // between its answer and the evaluator's next message (work deferred past a call's answer
  // cannot finish, or burn CPU, while outputs are checked or the next call is prepared).
  std::optional<nlohmann::json> receive(std::chrono::milliseconds timeout);
  // True when a worker that answered did not stop within kWorkerStopTimeout (it was left running).
  bool stop_failed() const { return stop_failed_; }
  // The kernel's CLOCK_REALTIME stamp of the last received message's arrival on the control
  // socket (SO_TIMESTAMPNS), 0 when there was none: when the answer was there, however late
  // this process got to read it.
  std::int64_t last_arrival_realtime_ns() const { return last_arrival_realtime_ns_; }
  bool gone() const { return gone_; }
  // Frames received that kbv's worker never writes (too large, too deeply nested, not a JSON
  // object): only a candidate writing to the control socket makes one.
  int malformed_messages() const { return malformed_messages_; }
  // True once the worker process has exited (reaped or not), without reading a message.
  bool exited() const;

  // Kills the process group (SIGKILL) and reaps the worker.
  WorkerExit kill_and_reap();
  // Waits up to `timeout` for the worker to exit by itself, else kills it; then kills what it
  // left in its process group and cgroup, and waits (kCgroupEmptyWait at most) for that.
  WorkerExit reap(std::chrono::milliseconds timeout);

  pid_t pid() const { return pid_; }
  // The worker's cgroup, when it has one.
  std::optional<std::filesystem::path> cgroup() const {
    return cgroup_ ? std::optional<std::filesystem::path>(cgroup_->path()) : std::nullopt;
  }
  // Threads in the worker right now, read by the evaluator from /proc (-1 if unreadable).
  int thread_count() const;
  // Syscall numbers the worker's seccomp filter reported since the last call.
  std::vector<int> drain_violations();
  // The last bytes the worker (and so the candidate) wrote to stderr.
  std::string stderr_tail();

 private:
  void drain_stderr();
  void kill_all() const;
  // SIGSTOP to the worker and its process group (receive() calls it when an answer is waiting);
  // whether it was sent.
  bool stop();
  void wait_until_stopped();
  void thaw();

  pid_t pid_ = -1;
  int control_fd_ = -1;
  int stderr_fd_ = -1;
  int violation_fd_ = -1;
  bool gone_ = false;
  int malformed_messages_ = 0;
  bool reaped_ = false;
  bool stopped_ = false;      // SIGSTOP sent, SIGCONT not yet
  bool stop_failed_ = false;
  std::int64_t last_arrival_realtime_ns_ = 0;
  WorkerExit exit_;
  std::string stderr_tail_;
  std::optional<lifetime::OwnedCgroup> cgroup_;
  std::unique_ptr<lifetime::StopCleanup> on_stop_;  // last: unregistered before the rest goes
};

}  // namespace kbv::eval
