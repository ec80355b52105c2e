// cupti/trace_window.hpp — the device activity CUPTI recorded between begin_window() and
// end_window(): kernels, memory allocations and releases, copies and memsets, and (optionally)
// runtime API calls, with the questions the evaluator asks of them. Pure host data.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbv::cuda {

struct KernelRecord {
  std::string name;  // as CUPTI reports it (mangled C++ names stay mangled)
  uint32_t device_id = 0;
  uint32_t context_id = 0;
  uint32_t stream_id = 0;
  uint64_t start_ns = 0;  // CUPTI timestamps (cuptiGetTimestamp's time base)
  uint64_t end_ns = 0;
  uint32_t correlation = 0;
};

// One kernel of a window's timeline (TraceWindow::kernel_timeline).
struct KernelTiming {
  std::string name;
  uint64_t duration_ns = 0;
  uint64_t gap_before_ns = 0;
};

// CUPTI_ACTIVITY_MEMORY_KIND_* as kbv needs them.
enum class MemoryKind { unknown, pageable, pinned, device, array, managed, device_static,
                        managed_static };
enum class MemoryOperation { allocation, release };

struct MemoryRecord {
  MemoryOperation operation = MemoryOperation::allocation;
  MemoryKind kind = MemoryKind::unknown;
  uint64_t address = 0;
  uint64_t bytes = 0;
  uint64_t timestamp_ns = 0;
  uint32_t stream_id = 0;  // CUPTI_INVALID_STREAM_ID unless the operation was stream-ordered
  uint32_t correlation = 0;
  bool is_async = false;   // cudaMallocAsync / cudaFreeAsync
  // Stream-ordered allocations: the size of the (local) memory pool the block came from, as
  // CUPTI saw it then — memory the pool holds, of which `bytes` is this block. 0 otherwise.
  uint64_t pool_bytes = 0;
};

struct CopyRecord {
  enum class Type { memcpy, memset };
  Type type = Type::memcpy;
  uint64_t bytes = 0;
  uint32_t stream_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation = 0;
  bool host_to_device = false;  // a memcpy from host memory (cudaMemcpyToSymbol, weights uploaded)
};

struct ApiRecord {
  std::string name;  // e.g. "cudaLaunchKernel_v7000"
  uint32_t callback_id = 0;
  uint32_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation = 0;
};

// The names kbv's own harness kernels carry in traces (unmangled, extern "C"): the marker
// (cupti_tracer.hpp, launch_marker) and the launch gate (timing/launch_gate.hpp). Neither is
// the traced work's: markers go to TraceWindow::markers, gates are dropped. A name is not proof:
// a candidate may name its own kernel so, and window_escapes.hpp holds the records of these names
// (harness_named) to the count the worker launched.
inline constexpr const char* kMarkerKernelName = "kbv_trace_marker";
inline constexpr const char* kLaunchGateKernelName = "kbv_launch_gate";

struct TraceWindow {
  std::vector<KernelRecord> kernels;  // kbv's harness kernels excluded (see markers)
  std::vector<uint64_t> markers;      // start times of marker kernels, ascending
  std::vector<MemoryRecord> memory;
  std::vector<CopyRecord> copies;
  std::vector<ApiRecord> api;
  uint64_t begin_ns = 0;      // cuptiGetTimestamp at begin_window
  uint64_t end_ns = 0;        // cuptiGetTimestamp at end_window, after the device sync
  uint64_t dropped_records = 0;  // CUPTI ran out of buffer space: the window is incomplete
  // Every record of a harness kernel name (markers and gates), with its stream.
  std::vector<KernelRecord> harness_named;
  // Work that ended after the previous window closed and before this one opened (its
  // synchronisation waited for what was still running). The worker launches nothing there:
  // it is the candidate's, whatever its name (a hook run after its call's synchronisation, or
  // between two calls). Empty in a process's first window.
  std::vector<KernelRecord> kernels_between;
  std::vector<CopyRecord> copies_between;
  uint64_t records_between_dropped = 0;  // beyond the collector's cap on them
  // Records CUPTI delivered after the window they ended in had closed, since the previous window
  // opened (place_record drops them: their window was already reported). With the forced flush
  // that closes every window nothing should arrive late; a count here says a close returned
  // less than its window held (kbv_bench_cuda_timing --trace-cost counts it per way of closing).
  uint64_t records_delivered_late = 0;

  // Peak of device memory held over the window relative to its start: the running maximum,
  // in timestamp order, of bytes allocated minus bytes released, for memory that lives on the
  // device (device and managed kinds: managed memory counts so that cudaMallocManaged cannot
  // hide an allocation). A release of a block the window did not see allocated lowers the
  // running total; the peak is never below 0.
  uint64_t peak_device_bytes() const;
  // Bytes still held at the end of the window (allocated minus released, floored at 0).
  uint64_t retained_device_bytes() const;
  // The same, not floored: negative when the window released more than it allocated (a block
  // an earlier window allocated). Summed over consecutive windows it is what is held after them.
  int64_t net_device_bytes() const;
  // The largest memory-pool size any stream-ordered allocation of the window reported: what
  // the pool held (allocations round up to its granularity), beside the allocations themselves.
  uint64_t peak_pool_bytes() const;

  // First kernel start to last kernel end; nullopt when no kernel ran.
  std::optional<std::pair<uint64_t, uint64_t>> kernel_span() const;
  // The kernels in start order, each with its duration and the device time since the latest end
  // of the kernels before it (0 when it overlaps them): where a kernel span goes, kernel by kernel.
  std::vector<KernelTiming> kernel_timeline() const;
  std::set<std::string> kernel_names() const;
  std::set<uint32_t> kernel_streams() const;

  // Stream-injection check: did every kernel end by `gpu_ns` (e.g. the start of a marker
  // launched right after the stop event)? Lists the ones that did not.
  bool all_kernels_end_before(uint64_t gpu_ns) const;
  std::vector<KernelRecord> kernels_ending_after(uint64_t gpu_ns) const;
  // The converse, for work done before the timed window opened (e.g. on another stream while
  // a launch gate held the timed one): kernels that started before `gpu_ns`.
  std::vector<KernelRecord> kernels_starting_before(uint64_t gpu_ns) const;
};

}  // namespace kbv::cuda
