// slow_clock.hpp — the replacement clocks the timer-patching red-team candidates install: a
// CLOCK_MONOTONIC that runs kSlowdown times slower than real time from the moment of patching
// (through the raw syscall, since the libc entry may itself be patched), and an event timer
// that always answers one microsecond.
#pragma once

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

namespace redteam {

constexpr int64_t kSlowdown = 10;
constexpr int64_t kNanosPerSecond = 1000000000;
constexpr float kFakeElapsedMs = 0.001f;

inline int64_t& slow_clock_origin() {
  static int64_t origin_ns = 0;
  return origin_ns;
}

inline int64_t raw_monotonic_ns() {
  timespec now{};
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
  return now.tv_sec * kNanosPerSecond + now.tv_nsec;
}

inline int slow_clock_gettime(clockid_t clock, timespec* ts) {
  const auto rc = static_cast<int>(syscall(SYS_clock_gettime, clock, ts));
  if (rc != 0 || clock != CLOCK_MONOTONIC || slow_clock_origin() == 0) return rc;
  const int64_t now = ts->tv_sec * kNanosPerSecond + ts->tv_nsec;
  const int64_t slowed = slow_clock_origin() + (now - slow_clock_origin()) / kSlowdown;
  ts->tv_sec = slowed / kNanosPerSecond;
  ts->tv_nsec = slowed % kNanosPerSecond;
  return 0;
}

// Same shape as cudaEventElapsedTime / cuEventElapsedTime: (float* ms, event, event) -> status.
inline int fake_event_elapsed_time(float* ms, void*, void*) {
  *ms = kFakeElapsedMs;
  return 0;
}

}  // namespace redteam
