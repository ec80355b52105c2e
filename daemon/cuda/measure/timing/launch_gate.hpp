// timing/launch_gate.hpp — NVBench's blocking kernel: a kernel that holds a stream while the
// host enqueues one sample (flush, start event, the timed work, stop event), so the host's
// launch latency never lands between the start event and the first timed kernel.
//
// Why: with CUPTI tracing on, a launch costs the host tens of µs; the GPU finished the L2 flush
// and passed the start event before the candidate's first kernel arrived, and the gap was timed
// (H200 without the gate: event time − kernel span 24–41 µs for one-kernel candidates, 2 µs
// untraced; with it 2–3 µs, the `host µs in window` column of the GPU runner's timing suite).
//
// The gate gives up after kTimeoutSeconds: work that waits for the device inside the timed
// region would otherwise deadlock against it. Two kinds of wait exist: a candidate's run() that
// synchronises (every call), and CUDA's lazy loading of a kernel at its first launch (once per
// kernel: the driver waits for the device before it loads a module). The worker does not hold
// the candidate's first call, where its kernels load (worker/cuda_device.cpp); a kernel first
// launched in a later call costs that call one timeout, which is forgiven; after
// kMaxTimeoutsInARow calls in a row time out, the gate stays open (active() turns false) and its
// user times without it, as before.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "measure/cupti/trace_window.hpp"  // kLaunchGateKernelName

namespace kbv::cuda {

class LaunchGate {
 public:
  // Long enough for a host to enqueue thousands of traced launches (≈ 40 µs each on the H200),
  // short enough that a run() which synchronises costs a visible pause, a few times.
  static constexpr double kTimeoutSeconds = 0.1;
  // Lazy loading times out once per new kernel and never twice in a row for the same call
  // sequence; a synchronising run() times out on every call.
  static constexpr int kMaxTimeoutsInARow = 3;

  // Pinned, device-mapped flags for the current device; the gate kernel is loaded and run once
  // here, so its own lazy loading never happens behind a held stream.
  LaunchGate();
  ~LaunchGate();
  LaunchGate(const LaunchGate&) = delete;
  LaunchGate& operator=(const LaunchGate&) = delete;

  // Enqueues the gate kernel on `stream`: work enqueued behind it waits until release().
  void hold(cudaStream_t stream);
  // Lets the gate kernel finish. Call once per hold(), after the sample is enqueued.
  void release();
  // Once the stream has passed the gate (after a synchronisation): did it give up waiting?
  bool timed_out() const;
  // After each held call's synchronisation: counts timeouts; returns timed_out().
  bool settle();
  // False once kMaxTimeoutsInARow held calls in a row timed out: stop holding.
  bool active() const { return in_a_row_ < kMaxTimeoutsInARow; }
  int timeouts() const { return timeouts_; }
  // "on", "on (N calls timed out …)" or "off after …", for reports.
  std::string state() const;

  // Host memory mapped into the device; the gate kernel reads `release` and writes `outcome`.
  struct Flags {
    int release;
    int outcome;
  };

 private:
  struct FreeHost {
    void operator()(Flags* flags) const;
  };
  std::unique_ptr<Flags, FreeHost> flags_;
  Flags* device_flags_ = nullptr;
  int timeouts_ = 0;
  int in_a_row_ = 0;
};

}  // namespace kbv::cuda
