// cupti/cupti_tracer.hpp — process-wide CUPTI activity tracing (docs/measurement.md, Memory and trace), usable in any
// process: the reference process traces baselines, the candidate worker traces candidates.
//
// Enabled once per process on first use: one subscriber, buffer callbacks registered once
// (re-registering corrupts records), activity kinds CONCURRENT_KERNEL (not KERNEL, which
// serialises kernels), MEMORY2, MEMCPY, MEMSET, and RUNTIME when asked. Tracing adds a small
// per-launch cost, so timing and tracing of one call are best done in separate runs.
//
// A window: begin_window() waits for the device (so it throws CudaError if earlier work left a
// sticky error) and notes the time: records that ended before it are dropped as CUPTI delivers
// them, so it needs no flush (which would delay the traced work); end_window() waits for the
// device (every kernel launched in the window, on any stream, has then finished and been
// recorded), flushes, and returns the window's records. Kernels and copies that started before
// begin_window() and ended after it are reported as work between windows (place_record).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "measure/cupti/trace_window.hpp"

namespace kbv::cuda {

namespace detail {
class TraceCollector;  // cupti_tracer.cpp: receives CUPTI's buffers
}

// How end_window() flushes: `forced` returns every buffer, complete or not (the worker's: a
// window's records are all in hand when it closes); `unforced` only buffers whose records are
// all complete, which costs the next launch far less (docs/results/h100/trace-cost.md) but may
// leave records for a later flush: measured by kbv_bench_cuda_timing --trace-cost only.
enum class WindowFlush { forced, unforced };

struct CuptiOptions {
  bool runtime_api = false;  // also record CUDA runtime API calls (RUNTIME activity)
  // Hand CUPTI buffers already zeroed (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER), so it
  // does not zero 8 MiB itself at the first record after each flush. Off in the worker: on an
  // H100 it made null calls 0.4 ms cheaper but not timed calls, which narrows the clock
  // agreement for honest candidates (docs/results/h100/trace-cost.md); kbv_bench_cuda_timing
  // --trace-cost zeroed measures it.
  bool zeroed_buffers = false;
};

class CuptiTracer {
 public:
  // The tracer of this process, enabled by the first call with that call's options (later
  // calls' options are ignored; options() tells what is in force). Throws CudaError when
  // CUPTI cannot be enabled (e.g. another subscriber, or a driver without CUPTI support); a
  // failed enable is not retried (callbacks may only be registered once), every later call
  // rethrows it.
  static CuptiTracer& instance(CuptiOptions options = {});

  // Only instance() can make the key, so only it constructs a tracer.
  class Key {
    friend class CuptiTracer;
    Key() = default;
  };
  CuptiTracer(Key, CuptiOptions options);
  // Runs at process exit; CUPTI may deliver buffers after it, which are then only freed.
  ~CuptiTracer();
  CuptiTracer(const CuptiTracer&) = delete;
  CuptiTracer& operator=(const CuptiTracer&) = delete;

  void begin_window();
  // Synchronises the device (cudaDeviceSynchronize) before flushing; throws CudaError when
  // that reports an error (a sticky fault of the traced work).
  TraceWindow end_window(WindowFlush flush = WindowFlush::forced);

  const CuptiOptions& options() const;

  // CUPTI's id for `stream`, as KernelRecord::stream_id reports it.
  static uint32_t stream_id(cudaStream_t stream);

  // Now, in the time base of every record (cuptiGetTimestamp).
  static uint64_t timestamp_ns();

  // An upper bound on the GPU time at which `event` completed: waits for the event, then reads
  // cuptiGetTimestamp. Skew bound: the result is late by the host's wake-up latency after the
  // event completes (spin-wait, the default event flag: a few µs; cudaEventBlockingSync: up to
  // tens of µs; longer if the host thread is descheduled), plus CUPTI's error in converting GPU
  // timestamps to its host time base; a kernel ending within that slack after the event passes
  // a check against it. For a tighter boundary use launch_marker().
  static uint64_t gpu_time_after(cudaEvent_t event);

  // Enqueues an empty kernel named kMarkerKernelName on `stream`. Its start time, in
  // TraceWindow::markers, is when `stream` reached this point, read from the same GPU clock as
  // every kernel record: launch one right after the stop event and check
  // window.all_kernels_end_before(window.markers.back()). Slack: the gap between the stop
  // event and the marker's start, one kernel launch on an already-queued stream.
  static void launch_marker(cudaStream_t stream);

 private:
  std::unique_ptr<detail::TraceCollector> collector_;
  CuptiOptions options_;
};

// The marker kernel's launcher (trace_marker.cu).
void launch_trace_marker_kernel(cudaStream_t stream);

}  // namespace kbv::cuda
