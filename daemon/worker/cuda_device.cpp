// worker/cuda_device.cpp — the CUDA device in the worker: the evaluator's arena through CUDA
// IPC, one stream for the candidate, cold-L2 preparation, a launch gate and event timing around
// each call, and what the CUPTI trace saw of it.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "common/event.hpp"
#include "common/stream.hpp"
#include "measure/cupti/cupti_tracer.hpp"
#include "measure/cupti/window_escapes.hpp"
#include "measure/timing/launch_gate.hpp"
#include "timing/trace_buffers.hpp"
#include "worker/plugin_loader.hpp"
#include "worker/worker_device.hpp"

namespace kbv::worker {
namespace {

// NVBench; docs/measurement.md, Timing: overwrite at least twice the L2 before a cold sample.
constexpr int kFlushMultipleOfL2 = 2;
// Kernel names (as CUPTI reports them, mangled) that belong to NVIDIA's compute libraries:
// a candidate that launches them calls a library (docs/threat-model.md, pattern 17, non-gating).
constexpr const char* kLibraryKernelMarkers[] = {"cublas", "cudnn", "cutlass", "xmma", "gemmk", "cutensor", "nvjet"};
// At most this many distinct kernel names travel back per call (a candidate could launch
// thousands to bloat the message).
constexpr size_t kMaxReportedKernelNames = 64;

cudaIpcMemHandle_t handle_from_hex(const std::string& hex) {
  cudaIpcMemHandle_t handle{};
  if (hex.size() != 2 * sizeof(handle)) throw std::runtime_error("malformed CUDA IPC handle");
  auto* bytes = reinterpret_cast<unsigned char*>(&handle);
  for (size_t i = 0; i < sizeof(handle); ++i) bytes[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return handle;
}

// Where a call's host time goes, step by step, for the evaluator's report
// (environment.worker_host_steps_s; diagnostic: the CUPTI trace's cost per call lives here).
class HostSteps {
 public:
  void done(const char* step) {
    const auto now = std::chrono::steady_clock::now();
    seconds_[step] = std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  nlohmann::json take() { return std::move(seconds_); }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  nlohmann::json seconds_ = nlohmann::json::object();
};

class CudaDevice final : public WorkerDevice {
 public:
  explicit CudaDevice(int gpu) {
    cuda::check(cudaSetDevice(gpu), "cudaSetDevice");
    cuda::check(cudaFree(nullptr), "CUDA context creation");
    int l2_bytes = 0;
    cuda::check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, gpu), "cudaDeviceGetAttribute(L2)");
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    device_memory_bytes_ = total_bytes;
    stream_.emplace();
    start_.emplace();
    stop_.emplace();
    flush_ = cuda::DeviceBuffer<unsigned char>(static_cast<size_t>(kFlushMultipleOfL2) * static_cast<size_t>(l2_bytes));
    // CUPTI starts its own thread: enabled here, before the candidate is loaded, it is part of
    // the thread count the evaluator takes at setup, and the candidate's load is traced too.
    enable_trace();
  }
  ~CudaDevice() override {
    if (arena_) (void)cudaIpcCloseMemHandle(arena_);
  }

  void* map_arena(const nlohmann::json& setup, int) override {
    cuda::check(cudaIpcOpenMemHandle(&arena_, handle_from_hex(setup.at("cuda_ipc_handle").get<std::string>()),
                                     cudaIpcMemLazyEnablePeerAccess),
                "cudaIpcOpenMemHandle");
    return arena_;
  }

  void* stream() override { return stream_->get(); }

  TimedCall timed_call(const kbv_plugin_info& info, void* state, const kbv_call& call, bool cold_cache, bool candidate) override {
    TimedCall result;
    last_plugin_error().clear();
    // The trace window opens first (it waits for the device). Host-side cache resets come
    // before the launch gate, which then holds the stream while the host enqueues the flush,
    // a marker, the start event, the candidate's work and the stop event: CUPTI's per-launch
    // host cost (tens of µs) stays out of the timed window (launch_gate.hpp). The baselines
    // are timed with the same recipe (measure/timing/cold_timer.cpp).
    cuda::CuptiTracer* tracer = tracer_or_null();
    HostSteps steps;
    if (tracer) tracer->begin_window();
    steps.done("begin_window");
    if (cold_cache) {
      // A candidate's access-policy window must not keep its data resident through the flush.
      cuda::check(cudaCtxResetPersistingL2Cache(), "cudaCtxResetPersistingL2Cache");
    }
    steps.done("l2_persisting_reset");
    // Not the candidate's first call: the kernels it launches first load then (CUDA loads lazily,
    // and waits for the device to do it), and behind a held gate each such call waited out the
    // gate's whole timeout (launch_gate.hpp). The first call is a correctness call, whose time
    // no check reads, and a candidate knows its first call without seeing the gate.
    const bool gated = tracer && gate_ && gate_->active() && (!candidate || candidate_called_);
    if (candidate) candidate_called_ = true;
    if (gated) gate_->hold(stream_->get());
    steps.done("gate_hold");
    if (cold_cache) cuda::check(cudaMemsetAsync(flush_.get(), ++flush_value_, flush_.bytes(), stream_->get()), "L2 flush");
    // Marker kernels on both sides of the timed window: kernels that start before the first or
    // end after the last ran outside it, on another stream.
    if (tracer) cuda::CuptiTracer::launch_marker(stream_->get());
    steps.done("enqueue_before_run");  // before the start event: nothing of kbv's between it and run()
    cuda::check(cudaEventRecord(start_->get(), stream_->get()), "cudaEventRecord");
    // The thread's last-error state is the candidate's from here: what run() leaves in it is
    // reported with the call (the candidate and the worker share libcudart).
    (void)cudaGetLastError();
    std::string thrown;
    result.status = run_candidate(info, state, call, &result.exception, &thrown);
    if (const cudaError_t left = cudaGetLastError(); left != cudaSuccess) result.cuda_error = describe(left);
    cuda::check(cudaEventRecord(stop_->get(), stream_->get()), "cudaEventRecord");
    steps.done("run");  // after the stop event: untraced (no gate), nothing may delay it
    if (tracer) cuda::CuptiTracer::launch_marker(stream_->get());
    if (gated) gate_->release();
    steps.done("enqueue_after_run");
    const cudaError_t synced = cudaStreamSynchronize(stream_->get());
    // Device-wide: anything the candidate left running on another stream must end now, and
    // the evaluator sees how long that took beyond the stream's own end.
    const cudaError_t device_synced = cudaDeviceSynchronize();
    steps.done("synchronize");
    result.error = result.exception ? thrown : last_plugin_error();
    if (synced != cudaSuccess || device_synced != cudaSuccess) {
      const bool stream_failed = synced != cudaSuccess;
      result.status = KBV_STATUS_DEVICE_ERROR;
      result.cuda_error = std::string(stream_failed ? "cudaStreamSynchronize" : "cudaDeviceSynchronize") +
                          " after run() returned: " + describe(stream_failed ? synced : device_synced);
      sticky_error_ = true;
      observations_ = {{"sticky_error", sticky_error_}};
      return result;
    }
    // A timeout (run() or CUDA's lazy loading waited for the device while the gate held it)
    // costs that call a pause outside its timed window; several in a row open the gate for good.
    if (gated) gate_->settle();
    float milliseconds = 0;
    cuda::check(cudaEventElapsedTime(&milliseconds, start_->get(), stop_->get()), "cudaEventElapsedTime");
    result.elapsed_ns = static_cast<int64_t>(static_cast<double>(milliseconds) * 1e6);
    observations_ = {{"sticky_error", sticky_error_}, {"launch_gate", gate_state()}, {"context_settings", context_settings()}};
    if (tracer)
      observe(tracer->end_window(), {.timed_stream_id = timed_stream_id_,
                                     .markers = 2,
                                     .gates = gated ? size_t{1} : size_t{0},
                                     .flush_memset_bytes = cold_cache ? flush_.bytes() : 0});
    else
      observations_["trace"] = trace_error_;
    steps.done("end_window");
    observations_["host_steps_s"] = steps.take();
    return result;
  }

  nlohmann::json last_call_observations() override { return observations_; }

  nlohmann::json observe_untimed(const std::function<void()>& work) override {
    if (!tracer_) {
      work();
      return {{"trace", trace_error_}};
    }
    tracer_->begin_window();
    work();
    const cuda::TraceWindow window = tracer_->end_window();
    return {{"trace", "cupti"},
            {"kernels", window.kernels.size()},
            {"peak_device_bytes", window.peak_device_bytes()},
            {"net_device_bytes", window.net_device_bytes()},
            {"peak_pool_bytes", window.peak_pool_bytes()}};
  }

  uint64_t device_memory_bytes() const override { return device_memory_bytes_; }

 private:
  void enable_trace() {
    // On unless KBV_WORKER_TRACE=off (an operator's escape hatch where CUPTI is unavailable or
    // its per-launch cost matters more than the checks; work outside the timed window is then
    // still caught by the evaluator's own clock, evaluator.cpp).
    if (!timing::workers_trace_with_cupti()) {
      trace_error_ = "off (KBV_WORKER_TRACE=off)";
      return;
    }
    // Zeroed activity buffers unless KBV_WORKER_CUPTI_ZEROED=off (timing/trace_buffers.hpp); the
    // evaluator reads the same setting for the report (environment.trace_buffers).
    cuda::CuptiOptions options;
    options.zeroed_buffers = timing::workers_hand_cupti_zeroed_buffers();
    try {
      tracer_ = &cuda::CuptiTracer::instance(options);
      timed_stream_id_ = cuda::CuptiTracer::stream_id(stream_->get());
      // One empty window now: CUPTI starts its buffer threads at the first flush, and they
      // must be there before the evaluator counts the worker's threads at setup.
      tracer_->begin_window();
      // The marker kernel loads here (CUDA loads kernels lazily, at their first launch, and
      // waits for the device to do it), not behind the first call's launch gate.
      cuda::CuptiTracer::launch_marker(stream_->get());
    } catch (const std::exception& error) {
      tracer_ = nullptr;
      trace_error_ = std::string("unavailable: ") + error.what();
      return;
    }
    // The gate only serves traced calls (untraced launches cost the host little), so an
    // untraced worker does not pay for it at start. KBV_WORKER_LAUNCH_GATE=off: an operator's
    // switch to compare timings with and without it. Made inside this window: its first run is
    // then not work between windows, which the next window reports as the candidate's. A gate
    // that cannot be made leaves the device unusable (the constructor throws, as before).
    const char* gate = std::getenv("KBV_WORKER_LAUNCH_GATE");
    if (!(gate && std::string(gate) == "off")) gate_.emplace();
    try {
      (void)tracer_->end_window();
    } catch (const std::exception& error) {
      tracer_ = nullptr;
      gate_.reset();
      trace_error_ = std::string("unavailable: ") + error.what();
    }
  }
  cuda::CuptiTracer* tracer_or_null() const { return tracer_; }

  // The context-wide settings a kernel's speed can depend on, as this call ran under them (the
  // candidate may change them): what the report's environment.worker_context gives, to compare
  // with another process's (bench/torch_parity/kernel_timeline.py reads PyTorch's). -1: not read.
  static nlohmann::json context_settings() {
    cudaFuncCache cache = cudaFuncCachePreferNone;
    size_t fetch = 0, persisting = 0, stack = 0;
    const auto limit = [](cudaLimit which, size_t& value) { return cudaDeviceGetLimit(&value, which) == cudaSuccess ? static_cast<long long>(value) : -1LL; };
    return {{"cache_config", cudaDeviceGetCacheConfig(&cache) == cudaSuccess ? static_cast<int>(cache) : -1},
            {"max_l2_fetch_granularity_bytes", limit(cudaLimitMaxL2FetchGranularity, fetch)},
            {"persisting_l2_cache_bytes", limit(cudaLimitPersistingL2CacheSize, persisting)},
            {"stack_bytes", limit(cudaLimitStackSize, stack)}};
  }

  // Whether calls are enqueued behind the launch gate, for the evaluator's report.
  std::string gate_state() const {
    if (!tracer_) return "off (untraced: launches cost the host little)";
    if (!gate_) return "off (KBV_WORKER_LAUNCH_GATE=off)";
    return gate_->state();
  }

  // What the trace says about the call, for the evaluator's checks (it trusts none of it
  // alone: it is the candidate's process; see docs/threat-model.md).
  void observe(const cuda::TraceWindow& window, const cuda::HarnessLaunches& launched) {
    // One set, then its range: two calls of kernel_names() are two different sets, and a range
    // from one's begin() to the other's end() walked the heap until the call timed out (the
    // "CUPTI hang" of 2026-11-29 was this, not CUPTI).
    const std::set<std::string> name_set = window.kernel_names();
    std::vector<std::string> names(name_set.begin(), name_set.end());
    bool library = false;
    for (const auto& name : names)
      for (const char* marker : kLibraryKernelMarkers) library |= name.find(marker) != std::string::npos;
    if (names.size() > kMaxReportedKernelNames) names.resize(kMaxReportedKernelNames);
    const cuda::WindowEscapes escapes = cuda::find_escapes(window, launched);
    observations_["trace"] = "cupti";
    observations_["kernels"] = window.kernels.size();
    observations_["kernel_names"] = names;
    observations_["streams"] = window.kernel_streams().size();
    size_t off_stream = 0;
    for (const auto& kernel : window.kernels) off_stream += kernel.stream_id != timed_stream_id_ ? 1 : 0;
    observations_["off_stream_kernels"] = off_stream;
    observations_["late_kernels"] = bounded(escapes.late_kernels);
    observations_["early_kernels"] = bounded(escapes.early_kernels);
    observations_["late_copies"] = bounded(escapes.late_copies);
    observations_["early_copies"] = bounded(escapes.early_copies);
    observations_["work_between_calls"] = bounded(escapes.between);
    observations_["impostor_kernels"] = bounded(escapes.impostors);
    observations_["library_kernels"] = library;
    observations_["peak_device_bytes"] = window.peak_device_bytes();
    observations_["retained_device_bytes"] = window.retained_device_bytes();
    observations_["net_device_bytes"] = window.net_device_bytes();
    observations_["peak_pool_bytes"] = window.peak_pool_bytes();
    observations_["dropped_records"] = window.dropped_records;
    observations_["records_delivered_late"] = window.records_delivered_late;
    if (const auto span = window.kernel_span()) observations_["kernel_span_ns"] = span->second - span->first;
    // Where the span goes, kernel by kernel (diagnostic, timing.candidate_kernels): [index into
    // kernel_names or -1, duration ns, device time since the kernels before it ended ns] for the
    // first kMaxReportedKernelNames kernels in start order.
    nlohmann::json timeline = nlohmann::json::array();
    for (const cuda::KernelTiming& kernel : window.kernel_timeline()) {
      if (timeline.size() == kMaxReportedKernelNames) break;
      const auto named = std::lower_bound(names.begin(), names.end(), kernel.name);
      const long long index = named != names.end() && *named == kernel.name ? named - names.begin() : -1;
      timeline.push_back({index, kernel.duration_ns, kernel.gap_before_ns});
    }
    observations_["kernel_timeline"] = std::move(timeline);
  }

  // A list as reported: its first kMaxReportedKernelNames entries (the evaluator names the first
  // and counts; the done message stays small however many records there were).
  static std::vector<std::string> bounded(std::vector<std::string> list) {
    if (list.size() > kMaxReportedKernelNames) list.resize(kMaxReportedKernelNames);
    return list;
  }

  // "cudaErrorIllegalAddress (an illegal memory access was encountered)".
  static std::string describe(cudaError_t error) {
    return std::string(cudaGetErrorName(error)) + " (" + cudaGetErrorString(error) + ")";
  }

  nlohmann::json observations_ = nlohmann::json::object();
  uint32_t timed_stream_id_ = 0;
  uint64_t device_memory_bytes_ = 0;
  std::string trace_error_;
  cuda::CuptiTracer* tracer_ = nullptr;
  std::optional<cuda::Stream> stream_;
  std::optional<cuda::Event> start_, stop_;
  std::optional<cuda::LaunchGate> gate_;
  bool candidate_called_ = false;  // the candidate's first call ran (timed_call says why it matters)
  cuda::DeviceBuffer<unsigned char> flush_;
  unsigned char flush_value_ = 0;
  void* arena_ = nullptr;
  bool sticky_error_ = false;
};

}  // namespace

std::unique_ptr<WorkerDevice> make_cuda_device(int gpu) { return std::make_unique<CudaDevice>(gpu); }

}  // namespace kbv::worker
