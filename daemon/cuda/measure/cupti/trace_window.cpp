// cupti/trace_window.cpp — peak memory, spans and stream-injection checks over a window.
#include "measure/cupti/trace_window.hpp"

#include <algorithm>
#include <map>

namespace kbv::cuda {
namespace {

bool lives_on_device(MemoryKind kind) {
  return kind == MemoryKind::device || kind == MemoryKind::managed;
}

// Running totals over the device-memory records in time order; returns {peak, final}.
std::pair<int64_t, int64_t> device_memory_walk(const std::vector<MemoryRecord>& memory) {
  std::vector<const MemoryRecord*> ordered;
  for (const MemoryRecord& record : memory)
    if (lives_on_device(record.kind)) ordered.push_back(&record);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return a->timestamp_ns < b->timestamp_ns;
  });
  std::map<uint64_t, uint64_t> live;  // address → bytes, for releases reported without a size
  int64_t held = 0, peak = 0;
  for (const MemoryRecord* record : ordered) {
    if (record->operation == MemoryOperation::allocation) {
      held += static_cast<int64_t>(record->bytes);
      live[record->address] = record->bytes;
    } else {
      uint64_t bytes = record->bytes;
      if (auto it = live.find(record->address); it != live.end()) {
        if (bytes == 0) bytes = it->second;
        live.erase(it);
      }
      held -= static_cast<int64_t>(bytes);
    }
    peak = std::max(peak, held);
  }
  return {peak, held};
}

}  // namespace

uint64_t TraceWindow::peak_device_bytes() const {
  return static_cast<uint64_t>(device_memory_walk(memory).first);
}

uint64_t TraceWindow::retained_device_bytes() const {
  return static_cast<uint64_t>(std::max<int64_t>(0, device_memory_walk(memory).second));
}

int64_t TraceWindow::net_device_bytes() const { return device_memory_walk(memory).second; }

uint64_t TraceWindow::peak_pool_bytes() const {
  uint64_t peak = 0;
  for (const MemoryRecord& record : memory) peak = std::max(peak, record.pool_bytes);
  return peak;
}

std::optional<std::pair<uint64_t, uint64_t>> TraceWindow::kernel_span() const {
  if (kernels.empty()) return std::nullopt;
  uint64_t first = kernels.front().start_ns, last = kernels.front().end_ns;
  for (const KernelRecord& k : kernels) {
    first = std::min(first, k.start_ns);
    last = std::max(last, k.end_ns);
  }
  return std::make_pair(first, last);
}

std::vector<KernelTiming> TraceWindow::kernel_timeline() const {
  std::vector<const KernelRecord*> ordered;
  for (const KernelRecord& k : kernels) ordered.push_back(&k);
  std::stable_sort(ordered.begin(), ordered.end(), [](const KernelRecord* a, const KernelRecord* b) { return a->start_ns < b->start_ns; });
  std::vector<KernelTiming> timeline;
  uint64_t latest_end = 0;
  for (const KernelRecord* k : ordered) {
    const uint64_t gap = timeline.empty() || k->start_ns <= latest_end ? 0 : k->start_ns - latest_end;
    timeline.push_back({.name = k->name, .duration_ns = k->end_ns > k->start_ns ? k->end_ns - k->start_ns : 0, .gap_before_ns = gap});
    latest_end = std::max(latest_end, k->end_ns);
  }
  return timeline;
}

std::set<std::string> TraceWindow::kernel_names() const {
  std::set<std::string> names;
  for (const KernelRecord& k : kernels) names.insert(k.name);
  return names;
}

std::set<uint32_t> TraceWindow::kernel_streams() const {
  std::set<uint32_t> streams;
  for (const KernelRecord& k : kernels) streams.insert(k.stream_id);
  return streams;
}

bool TraceWindow::all_kernels_end_before(uint64_t gpu_ns) const {
  return std::all_of(kernels.begin(), kernels.end(),
                     [gpu_ns](const KernelRecord& k) { return k.end_ns <= gpu_ns; });
}

std::vector<KernelRecord> TraceWindow::kernels_ending_after(uint64_t gpu_ns) const {
  std::vector<KernelRecord> late;
  for (const KernelRecord& k : kernels)
    if (k.end_ns > gpu_ns) late.push_back(k);
  return late;
}

std::vector<KernelRecord> TraceWindow::kernels_starting_before(uint64_t gpu_ns) const {
  std::vector<KernelRecord> early;
  for (const KernelRecord& k : kernels)
    if (k.start_ns < gpu_ns) early.push_back(k);
  return early;
}

}  // namespace kbv::cuda
