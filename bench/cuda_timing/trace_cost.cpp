// bench/cuda_timing/trace_cost.cpp — kbv_bench_cuda_timing --trace-cost default|pinned|small-buffer|zeroed:
// what the worker's CUPTI trace adds to one call, step by step. Replays the worker's null call
// (worker/cuda_device.cpp timed_call with a run() that does nothing, cold: the 2×L2 flush) many
// times, first untraced, then with the process's CuptiTracer on, and prints each host step's
// median and 90th percentile. A variant sets one CUPTI attribute before the context exists:
// `pinned` (activity records in pinned host memory instead of device memory), `small-buffer`
// (256 KiB device buffers instead of CUPTI's ~3 MB), or the tracer's own option `zeroed`
// (CuptiOptions::zeroed_buffers). Each traced series closes its windows one
// way (Close, below): the worker's forced flush, or a cheaper close for comparison; five more
// add a 1 ms kernel to the call, 2 or 20 ms idle before it, or both. Runs alone in its process: CUPTI is
// enabled once per process and stays on. Prints figures; asserts nothing.
#include <cuda_runtime_api.h>
#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/device_buffer.hpp"
#include "common/event.hpp"
#include "common/stream.hpp"
#include "measure/cupti/cupti_tracer.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/timing/launch_gate.hpp"

namespace kbv::bench {

void launch_spin(unsigned long long nanoseconds, cudaStream_t stream);  // spin_kernel.cu

namespace {

using Clock = std::chrono::steady_clock;

// Rounds per configuration: the 90th percentile of 400 is steady to a few µs on an idle host.
constexpr int kRounds = 400;
constexpr int kWarmupRounds = 20;
// The worker's flush (worker/cuda_device.cpp kFlushMultipleOfL2).
constexpr size_t kFlushMultipleOfL2 = 2;
// small-buffer: about 8,000 kernel records per buffer (CUPTI's default holds ~100,000).
constexpr size_t kSmallDeviceBufferBytes = size_t{256} << 10;
// A candidate's call, and the evaluator's turn between two calls (its checks, baselines and next
// inputs: a few ms to tens of ms on the H100's batch runs).
constexpr unsigned long long kCandidateKernelNs = 1'000'000;
constexpr int kShortEvaluatorTurnUs = 2000;
constexpr int kLongEvaluatorTurnUs = 20000;

// Host microseconds per named step, one entry per round.
class StepTimes {
 public:
  void time(const std::string& step, const std::function<void()>& work) {
    const auto start = Clock::now();
    work();
    times_[step].push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    if (std::find(order_.begin(), order_.end(), step) == order_.end()) order_.push_back(step);
  }
  void print(const char* title) const {
    std::printf("%s (%d rounds; host µs)\n  %-44s %9s %9s\n", title, kRounds, "step", "median", "p90");
    double total_median = 0;
    for (const std::string& step : order_) {
      std::vector<double> values = times_.at(step);
      std::sort(values.begin(), values.end());
      const double median = values[values.size() / 2];
      total_median += median;
      std::printf("  %-44s %9.1f %9.1f\n", step.c_str(), median, values[values.size() * 9 / 10]);
    }
    std::printf("  %-44s %9.1f\n", "sum of medians", total_median);
  }

 private:
  std::map<std::string, std::vector<double>> times_;
  std::vector<std::string> order_;
};

struct Recipe {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  cuda::DeviceBuffer<unsigned char>* flush;
  unsigned char flush_value = 0;
};

// The untraced worker's null call: flush, start event, (run() does nothing), stop event, syncs.
void untraced_round(Recipe& r, StepTimes* steps) {
  steps->time("enqueue (flush, 2 events)", [&] {
    cuda::measure::check(cudaMemsetAsync(r.flush->get(), ++r.flush_value, r.flush->bytes(), r.stream), "flush");
    cuda::measure::check(cudaEventRecord(r.start, r.stream), "cudaEventRecord");
    cuda::measure::check(cudaEventRecord(r.stop, r.stream), "cudaEventRecord");
  });
  steps->time("stream + device synchronize", [&] {
    cuda::measure::check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
    cuda::measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  });
}

// How a traced round closes its window. forced: the worker's end_window() (device sync, forced
// flush, the window's records). The others only measure what a different close would cost:
// unforced: end_window(WindowFlush::unforced) (CUPTI returns only buffers whose records are all
// complete; the series counts windows that came back without their markers and records that
// arrived late); every_8th: the forced close on every 8th round, a device sync on the others;
// synchronize_only: a device sync, never a flush.
enum class Close { forced, unforced, every_8th, synchronize_only };

const char* close_name(Close close) {
  switch (close) {
    case Close::forced: return "forced flush every call (the worker's)";
    case Close::unforced: return "unforced flush every call";
    case Close::every_8th: return "forced flush every 8th call";
    case Close::synchronize_only: return "no flush";
  }
  return "";
}

// What a round holds besides the null call's steps: a kernel of this length between the events
// (a candidate's work; 0: none), and this long idle before the round (the evaluator's turn
// between two calls, when the worker is stopped; 0: rounds back to back).
struct Call {
  unsigned long long kernel_ns = 0;
  int idle_us = 0;
};

// What the closed windows held: how many lacked the call's two markers (their close returned
// less than the window held), and how many records CUPTI delivered after their window closed.
struct Completeness {
  size_t windows = 0;
  size_t missing_markers = 0;
  uint64_t delivered_late = 0;
  void add(const cuda::TraceWindow& window) {
    ++windows;
    missing_markers += window.markers.size() < 2 ? 1 : 0;
    delivered_late += window.records_delivered_late;
  }
};

// The traced worker's call, the same steps in the same order.
void traced_round(Recipe& r, cuda::CuptiTracer& tracer, cuda::LaunchGate& gate, Close close, Call call, int round, StepTimes* steps,
                  Completeness* closed) {
  if (call.idle_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(call.idle_us));
  steps->time("begin_window (device synchronize)", [&] { tracer.begin_window(); });
  steps->time("gate hold (first launch of the call)", [&] { gate.hold(r.stream); });
  steps->time(call.kernel_ns ? "enqueue (flush, 2 markers, 2 events, kernel)" : "enqueue (flush, 2 markers, 2 events)", [&] {
    cuda::measure::check(cudaMemsetAsync(r.flush->get(), ++r.flush_value, r.flush->bytes(), r.stream), "flush");
    cuda::CuptiTracer::launch_marker(r.stream);
    cuda::measure::check(cudaEventRecord(r.start, r.stream), "cudaEventRecord");
    if (call.kernel_ns) launch_spin(call.kernel_ns, r.stream);
    cuda::measure::check(cudaEventRecord(r.stop, r.stream), "cudaEventRecord");
    cuda::CuptiTracer::launch_marker(r.stream);
  });
  steps->time("gate release", [&] { gate.release(); });
  steps->time("stream + device synchronize", [&] {
    cuda::measure::check(cudaStreamSynchronize(r.stream), "cudaStreamSynchronize");
    cuda::measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    (void)gate.settle();
  });
  steps->time("close the window", [&] {
    if (close == Close::forced || (close == Close::every_8th && round % 8 == 7)) {
      closed->add(tracer.end_window());
      return;
    }
    if (close == Close::unforced) {
      closed->add(tracer.end_window(cuda::WindowFlush::unforced));
      return;
    }
    cuda::measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  });
}

// What one forced flush costs on its own once the records are delivered, and an unforced one.
void flush_round(StepTimes* steps) {
  steps->time("forced flush, nothing pending", [] {
    cuda::measure::check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  });
  steps->time("unforced flush, nothing pending", [] { cuda::measure::check(cuptiActivityFlushAll(0), "cuptiActivityFlushAll"); });
}

void set_attribute(CUpti_ActivityAttribute attribute, auto value, const char* name) {
  size_t size = sizeof(value);
  cuda::measure::check(cuptiActivitySetAttribute(attribute, &size, &value), name);
}

}  // namespace

int run_trace_cost(const std::string& variant) {
  // Before the context exists: CUPTI reads these attributes when it sets the context up.
  cuda::CuptiOptions options;
  if (variant == "pinned")
    set_attribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, uint8_t{1}, "CUPTI pinned buffers");
  else if (variant == "zeroed")
    options.zeroed_buffers = true;
  else if (variant == "small-buffer")
    set_attribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, kSmallDeviceBufferBytes, "CUPTI device buffer size");
  else if (variant != "default") {
    std::fprintf(stderr, "kbv_bench_cuda_timing: --trace-cost takes default, pinned, small-buffer or zeroed, not %s\n", variant.c_str());
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "kbv_bench_cuda_timing: no CUDA device\n");
    return 1;
  }
  cuda::measure::check(cudaFree(nullptr), "CUDA context creation");
  int l2_bytes = 0;
  cuda::measure::check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0), "cudaDeviceGetAttribute(L2)");
  cuda::Stream stream;
  cuda::Event start, stop;
  cuda::DeviceBuffer<unsigned char> flush(kFlushMultipleOfL2 * static_cast<size_t>(l2_bytes));
  Recipe recipe{stream.get(), start.get(), stop.get(), &flush};
  std::printf("Trace cost of the worker's null call, variant %s\n\n", variant.c_str());

  StepTimes untraced;
  for (int i = 0; i < kWarmupRounds; ++i) {
    StepTimes discard;
    untraced_round(recipe, &discard);
  }
  for (int i = 0; i < kRounds; ++i) untraced_round(recipe, &untraced);
  untraced.print("Untraced");

  cuda::CuptiTracer& tracer = cuda::CuptiTracer::instance(options);
  tracer.begin_window();
  cuda::CuptiTracer::launch_marker(recipe.stream);  // loads the marker kernel outside the rounds
  (void)tracer.end_window();
  cuda::LaunchGate gate;
  const auto series = [&](Close close, Call call, const std::string& title) {
    StepTimes traced;
    Completeness closed;
    for (int i = 0; i < kWarmupRounds; ++i) {
      StepTimes discard;
      Completeness ignored;
      traced_round(recipe, tracer, gate, close, call, i, &discard, &ignored);
    }
    for (int i = 0; i < kRounds; ++i) traced_round(recipe, tracer, gate, close, call, i, &traced, &closed);
    // Whatever the close left open or undelivered: records of this series that arrive now count
    // as late, a window that lacked them as incomplete.
    tracer.begin_window();
    closed.delivered_late += tracer.end_window().records_delivered_late;
    std::printf("\n");
    traced.print(("Traced (CUPTI on, launch gate), " + title).c_str());
    std::printf("  windows closed %zu, lacking a marker %zu; records delivered after their window closed %llu\n", closed.windows,
                closed.missing_markers, static_cast<unsigned long long>(closed.delivered_late));
  };
  for (const Close close : {Close::forced, Close::unforced, Close::every_8th, Close::synchronize_only}) series(close, {}, close_name(close));
  // A timed call differs from a null call by the candidate's kernel and, in the worker, by the
  // evaluator's turn before it: whether either changes what the trace costs.
  series(Close::forced, {.kernel_ns = kCandidateKernelNs}, "a 1 ms kernel in the call, forced flush every call");
  series(Close::forced, {.idle_us = kShortEvaluatorTurnUs}, "2 ms idle before each null call, forced flush every call");
  series(Close::forced, {.kernel_ns = kCandidateKernelNs, .idle_us = kShortEvaluatorTurnUs}, "2 ms idle, then a 1 ms kernel in the call, forced flush every call");
  series(Close::forced, {.idle_us = kLongEvaluatorTurnUs}, "20 ms idle before each null call, forced flush every call");
  series(Close::forced, {.kernel_ns = kCandidateKernelNs, .idle_us = kLongEvaluatorTurnUs}, "20 ms idle, then a 1 ms kernel in the call, forced flush every call");

  StepTimes flushes;
  for (int i = 0; i < kRounds; ++i) flush_round(&flushes);
  std::printf("\n");
  flushes.print("CUPTI flushes alone");
  return 0;
}

}  // namespace kbv::bench
