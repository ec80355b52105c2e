// cupti/cupti_tracer.cpp — CUPTI activity buffers in, TraceWindow records out.
#include "measure/cupti/cupti_tracer.hpp"

#include <cupti.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>

#include "measure/cupti/window_escapes.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda {
namespace detail {

// Collects parsed records while a window is open, and between windows keeps what ran there (the
// next window reports it: the worker launches nothing between windows). CUPTI calls back from
// its own thread as well as from inside cuptiActivityFlushAll, hence the mutex.
class TraceCollector {
 public:
  void start_window(uint64_t now) {
    std::lock_guard lock(mutex_);
    window_ = TraceWindow{};
    window_.begin_ns = now;
    window_.kernels_between = std::move(kernels_between_);
    window_.copies_between = std::move(copies_between_);
    window_.records_between_dropped = std::exchange(records_between_dropped_, 0);
    window_.records_delivered_late = std::exchange(records_delivered_late_, 0);
    kernels_between_.clear();
    copies_between_.clear();
    collecting_ = true;
  }

  TraceWindow finish_window(uint64_t now) {
    std::lock_guard lock(mutex_);
    collecting_ = false;
    window_.end_ns = now;
    last_end_ns_ = now;
    std::sort(window_.markers.begin(), window_.markers.end());
    return std::move(window_);
  }

  void add_buffer(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t valid_bytes) {
    std::lock_guard lock(mutex_);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) add(record);
    size_t dropped = 0;
    if (collecting_ && cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS)
      window_.dropped_records += dropped;
  }

 private:
  static MemoryKind memory_kind(CUpti_ActivityMemoryKind kind) {
    switch (kind) {
      case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return MemoryKind::pageable;
      case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return MemoryKind::pinned;
      case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return MemoryKind::device;
      case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return MemoryKind::array;
      case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return MemoryKind::managed;
      case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return MemoryKind::device_static;
      case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return MemoryKind::managed_static;
      default: return MemoryKind::unknown;
    }
  }

  using Place = RecordPlace;
  // Where a record goes; a drop after the first window closed is a late delivery, counted.
  Place place(uint64_t start_ns, uint64_t end_ns) {
    const Place where = place_record(start_ns, end_ns, last_end_ns_, collecting_, window_.begin_ns);
    if (where == Place::drop && last_end_ns_ != 0) ++(collecting_ ? window_.records_delivered_late : records_delivered_late_);
    return where;
  }
  // Between windows, up to this many records each are kept (a flood of launches there is
  // reported by its count): the candidate's process must not grow the worker without bound.
  static constexpr size_t kMaxRecordsBetween = 256;
  template <class Record>
  void keep_between(std::vector<Record>* records, Record record) {
    if (records->size() < kMaxRecordsBetween)
      records->push_back(std::move(record));
    else
      ++between_dropped();
  }
  std::vector<KernelRecord>& kernels_between() { return collecting_ ? window_.kernels_between : kernels_between_; }
  std::vector<CopyRecord>& copies_between() { return collecting_ ? window_.copies_between : copies_between_; }
  uint64_t& between_dropped() { return collecting_ ? window_.records_between_dropped : records_between_dropped_; }

  void add(const CUpti_Activity* record) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        const Place where = place(k->start, k->end);
        if (where == Place::drop) return;
        KernelRecord out;
        out.name = k->name ? k->name : "";
        out.device_id = k->deviceId;
        out.context_id = k->contextId;
        out.stream_id = k->streamId;
        out.start_ns = k->start;
        out.end_ns = k->end;
        out.correlation = k->correlationId;
        if (where == Place::between) return keep_between(&kernels_between(), std::move(out));
        const bool marker = out.name == kMarkerKernelName;
        if (marker || out.name == kLaunchGateKernelName) {
          if (marker) window_.markers.push_back(out.start_ns);
          window_.harness_named.push_back(std::move(out));
          return;
        }
        window_.kernels.push_back(std::move(out));
        return;
      }
      case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(record);
        if (place(m->timestamp, m->timestamp) != Place::window) return;  // memory is accounted per call
        MemoryRecord out;
        out.operation = m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                            ? MemoryOperation::release
                            : MemoryOperation::allocation;
        out.kind = memory_kind(m->memoryKind);
        out.address = m->address;
        out.bytes = m->bytes;
        out.timestamp_ns = m->timestamp;
        out.stream_id = m->streamId;
        out.correlation = m->correlationId;
        out.is_async = m->isAsync != 0;
        if (m->memoryPoolConfig.memoryPoolType == CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL)
          out.pool_bytes = m->memoryPoolConfig.pool.size;
        window_.memory.push_back(out);
        return;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        return add_copy({CopyRecord::Type::memcpy, c->bytes, c->streamId, c->start, c->end, c->correlationId,
                         c->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD});
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* s = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        return add_copy({CopyRecord::Type::memset, s->bytes, s->streamId, s->start, s->end, s->correlationId, false});
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        if (place(a->start, a->end) != Place::window) return;
        const char* name = nullptr;
        if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name) != CUPTI_SUCCESS)
          name = nullptr;
        window_.api.push_back({name ? name : "", a->cbid, a->threadId, a->start, a->end,
                               a->correlationId});
        return;
      }
      default: return;
    }
  }

  void add_copy(CopyRecord copy) {
    const Place where = place(copy.start_ns, copy.end_ns);
    if (where == Place::between) return keep_between(&copies_between(), copy);
    if (where == Place::window) window_.copies.push_back(copy);
  }

  std::mutex mutex_;
  bool collecting_ = false;
  TraceWindow window_;
  uint64_t last_end_ns_ = 0;  // when the last window closed; 0 before the first
  std::vector<KernelRecord> kernels_between_;  // delivered while no window was open
  std::vector<CopyRecord> copies_between_;
  uint64_t records_between_dropped_ = 0;
  uint64_t records_delivered_late_ = 0;  // while no window was open
};

}  // namespace detail

namespace {

// CUPTI's callbacks carry no user pointer: they reach the collector through this. Null
// outside the tracer's lifetime, when buffers are only freed.
std::atomic<detail::TraceCollector*> g_collector{nullptr};

// Buffer size per CUPTI request: ~50k kernel records; CUPTI asks again as buffers fill.
constexpr size_t kActivityBufferBytes = size_t{8} << 20;

// Every end_window() forces a flush, which hands CUPTI's current buffer back and makes it ask
// for a new one: once per call. Fresh 8 MiB blocks cost a page fault per page CUPTI touches
// (and an mmap/munmap pair), so returned buffers wait here for the next request. Plain atomic
// slots, trivially destructible: CUPTI may deliver a buffer while the process exits.
constexpr size_t kSpareBuffers = 4;
std::array<std::atomic<uint8_t*>, kSpareBuffers> g_spare_buffers{};

// With CuptiOptions::zeroed_buffers, CUPTI takes every buffer it is given to be zeroed and does
// not zero it itself (8 MiB, in the thread that records first after a flush): a fresh buffer is
// zeroed here once, a returned one over the bytes CUPTI filled.
std::atomic<bool> g_zeroed_buffers{false};

uint8_t* take_buffer() {
  for (auto& slot : g_spare_buffers)
    if (uint8_t* spare = slot.exchange(nullptr)) return spare;
  auto* fresh = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, kActivityBufferBytes));
  if (fresh && g_zeroed_buffers.load()) std::memset(fresh, 0, kActivityBufferBytes);
  return fresh;
}

void return_buffer(uint8_t* buffer, size_t valid_bytes) {
  if (!buffer) return;
  if (g_zeroed_buffers.load()) std::memset(buffer, 0, std::min(valid_bytes, kActivityBufferBytes));
  for (auto& slot : g_spare_buffers) {
    uint8_t* empty = nullptr;
    if (slot.compare_exchange_strong(empty, buffer)) return;
  }
  std::free(buffer);
}

// CUPTI owns a buffer between these two callbacks and hands it back by pointer, so it is a
// plain aligned malloc block rather than an owning C++ object.
void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = take_buffer();
  *size = *buffer ? kActivityBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI on_buffer_completed(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                  size_t, size_t valid_bytes) {
  if (detail::TraceCollector* collector = g_collector.load())
    collector->add_buffer(context, stream_id, buffer, valid_bytes);
  return_buffer(buffer, valid_bytes);
}

}  // namespace

CuptiTracer& CuptiTracer::instance(CuptiOptions options) {
  struct Holder {
    std::once_flag once;
    std::optional<CuptiTracer> tracer;
    std::exception_ptr failure;
  };
  static Holder holder;
  std::call_once(holder.once, [&] {
    try {
      holder.tracer.emplace(Key{}, options);
    } catch (...) {
      holder.failure = std::current_exception();
    }
  });
  if (holder.failure) std::rethrow_exception(holder.failure);
  return *holder.tracer;
}

CuptiTracer::CuptiTracer(Key, CuptiOptions options)
    : collector_(std::make_unique<detail::TraceCollector>()), options_(options) {
  if (options_.zeroed_buffers) {  // before the callbacks, so it holds for every buffer
    uint8_t zeroed = 1;
    size_t zeroed_size = sizeof(zeroed);
    measure::check(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zeroed_size, &zeroed),
                   "cuptiActivitySetAttribute(ZEROED_OUT_ACTIVITY_BUFFER)");
    g_zeroed_buffers.store(true);
  }
  measure::check(cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed),
                 "cuptiActivityRegisterCallbacks");
  measure::check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                 "cuptiActivityEnable(CONCURRENT_KERNEL)");
  measure::check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2),
                 "cuptiActivityEnable(MEMORY2)");
  measure::check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
  measure::check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityEnable(MEMSET)");
  if (options_.runtime_api)
    measure::check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME),
                   "cuptiActivityEnable(RUNTIME)");
  g_collector.store(collector_.get());  // only once everything is enabled
}

CuptiTracer::~CuptiTracer() { g_collector.store(nullptr); }

const CuptiOptions& CuptiTracer::options() const { return options_; }

void CuptiTracer::begin_window() {
  // Work still running would be recorded half in and half out; let it finish. No flush here:
  // a forced flush right before a timed call delayed the call's first kernel by 0.2–0.4 ms on
  // the H200 (2026-11-29: event time minus kernel span, relu/softmax/GEMM). Records of earlier
  // windows that CUPTI delivers late end before begin_ns and are dropped by the collector.
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (start of trace window)");
  collector_->start_window(timestamp_ns());
}

TraceWindow CuptiTracer::end_window(WindowFlush flush) {
  const cudaError_t synced = cudaDeviceSynchronize();
  // The window closes when the device is idle, before the flush: work launched from then on (a
  // hook on the flush) ends after the close and is reported as between windows, never lost.
  const uint64_t closed_ns = timestamp_ns();
  const CUptiResult flushed = cuptiActivityFlushAll(flush == WindowFlush::forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
  TraceWindow window = collector_->finish_window(closed_ns);
  measure::check(synced, "cudaDeviceSynchronize (end of trace window)");
  measure::check(flushed, "cuptiActivityFlushAll");
  return window;
}

uint32_t CuptiTracer::stream_id(cudaStream_t stream) {
  uint32_t id = 0;
  measure::check(cuptiGetStreamIdEx(nullptr, stream, 0, &id), "cuptiGetStreamIdEx");
  return id;
}

uint64_t CuptiTracer::timestamp_ns() {
  uint64_t now = 0;
  measure::check(cuptiGetTimestamp(&now), "cuptiGetTimestamp");
  return now;
}

uint64_t CuptiTracer::gpu_time_after(cudaEvent_t event) {
  measure::check(cudaEventSynchronize(event), "cudaEventSynchronize");
  return timestamp_ns();
}

void CuptiTracer::launch_marker(cudaStream_t stream) { launch_trace_marker_kernel(stream); }

}  // namespace kbv::cuda
