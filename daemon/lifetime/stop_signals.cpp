// lifetime/stop_signals.cpp — the stop-signal thread and its registry (see stop_signals.hpp).
#include "lifetime/stop_signals.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

namespace kbv::lifetime {
namespace {

struct Registry {
  std::mutex mutex;
  std::atomic<bool> stopping{false};  // set by the stop thread while it holds `mutex`, for good
  std::map<std::uint64_t, std::function<void()>> cleanups;  // by registration order
  std::uint64_t next_id = 0;
};

Registry& registry() {
  static Registry r;
  return r;
}

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
  return set;
}

[[noreturn]] void stop_thread(sigset_t set) {
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  // The registry stays locked until the process is gone: a main thread that sees its worker die
  // and returns from main blocks in wait_for_stop_thread (atexit) instead of exiting 1.
  Registry& r = registry();
  r.mutex.lock();
  r.stopping.store(true);  // before any cleanup: whatever they cause comes after it
  for (auto it = r.cleanups.rbegin(); it != r.cleanups.rend(); ++it) it->second();
  // Die of the signal as if nobody had caught it.
  std::signal(sig, SIG_DFL);
  sigset_t just;
  sigemptyset(&just);
  sigaddset(&just, sig);
  pthread_sigmask(SIG_UNBLOCK, &just, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);
}

// Runs at exit(): waits for a stop in progress (which never lets go), else returns at once.
void wait_for_stop_thread() {
  std::lock_guard<std::mutex> lock(registry().mutex);
}

}  // namespace

void hold_if_stopping() {
  Registry& r = registry();
  if (r.stopping.load()) r.mutex.lock();  // held by the stop thread until the process is gone
}

void clean_up_on_stop_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    registry();  // made first, so it is destroyed after wait_for_stop_thread has run
    std::atexit(wait_for_stop_thread);
    const sigset_t set = stop_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(stop_thread, set).detach();
  });
}

StopCleanup::StopCleanup(std::function<void()> cleanup) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  id_ = r.next_id++;
  r.cleanups.emplace(id_, std::move(cleanup));
}

StopCleanup::~StopCleanup() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.cleanups.erase(id_);
}

}  // namespace kbv::lifetime
