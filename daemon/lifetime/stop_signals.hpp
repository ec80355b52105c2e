// lifetime/stop_signals.hpp — a stopped `kbv eval` (Ctrl-C, SIGTERM, SIGHUP) ends its worker and
// removes its scratch before it dies, instead of leaving them to PR_SET_PDEATHSIG and the next
// run's sweep.
//
// clean_up_on_stop_signals() blocks SIGINT, SIGTERM and SIGHUP and starts a thread that waits for
// them; on one it runs every registered cleanup (newest first), then lets the process die of that
// signal, so the caller's shell sees the usual 128+N status. Threads started later inherit the
// blocked mask; a child must unblock them before exec (posix_spawn's SETSIGMASK, sigprocmask).
#pragma once

#include <cstdint>
#include <functional>

namespace kbv::lifetime {

// Call once, before any other thread starts. Later calls do nothing.
void clean_up_on_stop_signals();

// Blocks for good once a stop signal has arrived (the process then dies of it), else returns at
// once. Call it before reporting what a stop could have caused: the cleanups end the worker, and a
// main thread that sees the worker die must not report it as the candidate's crash (a sweep's
// scancel recorded one, review).
void hold_if_stopping();

// Registers `cleanup` for as long as this object lives. It runs on the stop thread with the
// registry locked, so the destructor waits for a cleanup in progress: destroy this before the
// state the cleanup reads.
class StopCleanup {
 public:
  explicit StopCleanup(std::function<void()> cleanup);
  ~StopCleanup();
  StopCleanup(const StopCleanup&) = delete;
  StopCleanup& operator=(const StopCleanup&) = delete;

 private:
  std::uint64_t id_;
};

}  // namespace kbv::lifetime
