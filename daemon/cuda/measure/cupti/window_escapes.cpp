// cupti/window_escapes.cpp — which of a window's records ran outside the timed window, and which
// harness-named kernels were not the harness's.
#include "measure/cupti/window_escapes.hpp"

#include <algorithm>
#include <optional>

namespace kbv::cuda {
namespace {

std::string describe(const KernelRecord& k) { return k.name + " (stream " + std::to_string(k.stream_id) + ")"; }

std::string describe(const CopyRecord& c) {
  return std::string(c.type == CopyRecord::Type::memset ? "memset" : "memcpy") + " of " + std::to_string(c.bytes) + " bytes (stream " +
         std::to_string(c.stream_id) + ")";
}

// The records named `name` that were not the harness's: every one on another stream, and on the
// timed stream those beyond the `expected` the worker launched there (in start order, the
// harness's are the first `expected`, or with `last_closes` the first expected - 1 and the last:
// the marker pair brackets the window, so a candidate's marker-named kernel lies between).
void surplus(const std::vector<KernelRecord>& named, const std::string& name, size_t expected, bool last_closes, uint32_t timed_stream,
             std::vector<std::string>* out) {
  std::vector<const KernelRecord*> on_timed;
  for (const KernelRecord& k : named) {
    if (k.name != name) continue;
    if (k.stream_id == timed_stream)
      on_timed.push_back(&k);
    else
      out->push_back(describe(k));
  }
  if (on_timed.size() <= expected) return;
  std::stable_sort(on_timed.begin(), on_timed.end(), [](const auto* a, const auto* b) { return a->start_ns < b->start_ns; });
  const size_t kept_first = last_closes && expected > 0 ? expected - 1 : expected;
  const size_t end = last_closes && expected > 0 ? on_timed.size() - 1 : on_timed.size();
  for (size_t i = kept_first; i < end; ++i) out->push_back(describe(*on_timed[i]));
}

}  // namespace

RecordPlace place_record(uint64_t start_ns, uint64_t end_ns, uint64_t last_end_ns, bool window_open, uint64_t begin_ns) {
  if (window_open && end_ns >= begin_ns) return start_ns >= begin_ns ? RecordPlace::window : RecordPlace::between;
  if (last_end_ns == 0 || end_ns < last_end_ns) return RecordPlace::drop;
  return RecordPlace::between;
}

WindowEscapes find_escapes(const TraceWindow& window, const HarnessLaunches& launched) {
  WindowEscapes escapes;
  surplus(window.harness_named, kMarkerKernelName, launched.markers, true, launched.timed_stream_id, &escapes.impostors);
  surplus(window.harness_named, kLaunchGateKernelName, launched.gates, false, launched.timed_stream_id, &escapes.impostors);

  std::optional<uint64_t> first_marker, last_marker;
  for (const KernelRecord& k : window.harness_named) {
    if (k.name != kMarkerKernelName || k.stream_id != launched.timed_stream_id) continue;
    first_marker = std::min(first_marker.value_or(k.start_ns), k.start_ns);
    last_marker = std::max(last_marker.value_or(k.start_ns), k.start_ns);
  }
  const bool bracketed = first_marker && last_marker && *first_marker < *last_marker;
  const uint64_t late_after = bracketed ? *last_marker : window.end_ns;
  for (const KernelRecord& k : window.kernels_ending_after(late_after)) escapes.late_kernels.push_back(describe(k));
  if (bracketed)
    for (const KernelRecord& k : window.kernels_starting_before(*first_marker)) escapes.early_kernels.push_back(describe(k));
  bool flush_seen = false;
  for (const CopyRecord& c : window.copies) {
    // An upload from host memory computes nothing from the call's inputs (constants, weights in
    // __constant__ memory: cudaMemcpyToSymbol runs on the legacy stream, outside the window).
    if (c.host_to_device) continue;
    if (c.end_ns > late_after) escapes.late_copies.push_back(describe(c));
    if (!bracketed || c.start_ns >= *first_marker) continue;
    // The cold-L2 flush: one memset of its size on the timed stream before the first marker.
    const bool flush = !flush_seen && launched.flush_memset_bytes != 0 && c.type == CopyRecord::Type::memset &&
                       c.bytes == launched.flush_memset_bytes && c.stream_id == launched.timed_stream_id;
    if (flush)
      flush_seen = true;
    else
      escapes.early_copies.push_back(describe(c));
  }
  for (const KernelRecord& k : window.kernels_between) escapes.between.push_back(describe(k));
  for (const CopyRecord& c : window.copies_between) escapes.between.push_back(describe(c));
  if (window.records_between_dropped > 0)
    escapes.between.push_back(std::to_string(window.records_between_dropped) + " more record(s) beyond the collector's cap");
  return escapes;
}

}  // namespace kbv::cuda
