// tests/cuda/measure/trace_window_test.cpp — questions asked of a CUPTI window, on synthetic
// records (no GPU): peak memory, spans, stream-injection checks; and a call's work outside its
// timed window (window_escapes.hpp): kernels and copies before the first marker or after the last,
// work between windows, harness-named kernels beyond the ones the worker launched.
#include <gtest/gtest.h>

#include "measure/cupti/trace_window.hpp"
#include "measure/cupti/window_escapes.hpp"

namespace kbv::cuda {
namespace {

MemoryRecord mem(MemoryOperation op, uint64_t address, uint64_t bytes, uint64_t t,
                 MemoryKind kind = MemoryKind::device) {
  MemoryRecord r;
  r.operation = op;
  r.address = address;
  r.bytes = bytes;
  r.timestamp_ns = t;
  r.kind = kind;
  return r;
}

KernelRecord kernel(const std::string& name, uint32_t stream, uint64_t start, uint64_t end) {
  KernelRecord k;
  k.name = name;
  k.stream_id = stream;
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

constexpr auto kAlloc = MemoryOperation::allocation;
constexpr auto kFree = MemoryOperation::release;

TEST(TraceWindow, PeakFollowsTimestampsNotArrivalOrder) {
  TraceWindow w;
  // Delivered out of order (CUPTI buffers per stream): in time, A 64 MiB, B 32 MiB, free B,
  // free A → peak 96 MiB.
  w.memory = {mem(kFree, 0xA, 64, 40), mem(kAlloc, 0xB, 32, 20), mem(kAlloc, 0xA, 64, 10),
              mem(kFree, 0xB, 32, 30)};
  EXPECT_EQ(w.peak_device_bytes(), 96u);
  EXPECT_EQ(w.retained_device_bytes(), 0u);
}

TEST(TraceWindow, HostMemoryDoesNotCountButManagedDoes) {
  TraceWindow w;
  w.memory = {mem(kAlloc, 1, 1000, 1, MemoryKind::pinned), mem(kAlloc, 2, 10, 2),
              mem(kAlloc, 3, 5, 3, MemoryKind::managed)};
  EXPECT_EQ(w.peak_device_bytes(), 15u);
  EXPECT_EQ(w.retained_device_bytes(), 15u);
}

TEST(TraceWindow, ReleaseWithoutSizeUsesTheAllocationsSize) {
  TraceWindow w;
  w.memory = {mem(kAlloc, 7, 100, 1), mem(kFree, 7, 0, 2), mem(kAlloc, 8, 50, 3)};
  EXPECT_EQ(w.peak_device_bytes(), 100u);
  EXPECT_EQ(w.retained_device_bytes(), 50u);
}

TEST(TraceWindow, ReleasingOlderMemoryLowersTheBaseline) {
  TraceWindow w;
  // Frees 100 bytes allocated before the window, then allocates 60: net −40, peak stays 0.
  w.memory = {mem(kFree, 9, 100, 1), mem(kAlloc, 10, 60, 2)};
  EXPECT_EQ(w.peak_device_bytes(), 0u);
  EXPECT_EQ(w.retained_device_bytes(), 0u);
}

TEST(TraceWindow, NetBytesKeepTheSignThatRetainedFloors) {
  TraceWindow w;
  w.memory = {mem(kFree, 9, 100, 1), mem(kAlloc, 10, 60, 2)};
  EXPECT_EQ(w.net_device_bytes(), -40);
  w.memory.push_back(mem(kAlloc, 11, 70, 3));
  EXPECT_EQ(w.net_device_bytes(), 30);
  EXPECT_EQ(w.retained_device_bytes(), 30u);
}

TEST(TraceWindow, PoolSizeIsReportedBesideTheAllocationsFromIt) {
  TraceWindow w;
  EXPECT_EQ(w.peak_pool_bytes(), 0u);
  // Two stream-ordered blocks of 1 MiB and 3 MiB from a pool that grew to 2 MiB, then 32 MiB.
  MemoryRecord a = mem(kAlloc, 1, 1 << 20, 1), b = mem(kAlloc, 2, 3 << 20, 2);
  a.is_async = b.is_async = true;
  a.pool_bytes = 2 << 20;
  b.pool_bytes = 32 << 20;
  w.memory = {a, b, mem(kFree, 1, 0, 3)};
  EXPECT_EQ(w.peak_pool_bytes(), 32u << 20);
  EXPECT_EQ(w.peak_device_bytes(), 4u << 20);  // the allocations, not the pool
  EXPECT_EQ(w.net_device_bytes(), 3 << 20);
}

TEST(TraceWindow, TimelineOrdersByStartWithEachKernelsGapToTheLatestEnd) {
  TraceWindow w;
  EXPECT_TRUE(w.kernel_timeline().empty());
  // Out of arrival order; b overlaps a (no gap), c starts 50 ns after b's end, d 10 after c's.
  w.kernels = {kernel("c", 7, 450, 600), kernel("a", 7, 100, 200), kernel("b", 9, 150, 400), kernel("d", 7, 610, 700)};
  const auto timeline = w.kernel_timeline();
  ASSERT_EQ(timeline.size(), 4u);
  EXPECT_EQ(timeline[0].name, "a");
  EXPECT_EQ(timeline[0].duration_ns, 100u);
  EXPECT_EQ(timeline[0].gap_before_ns, 0u);
  EXPECT_EQ(timeline[1].name, "b");
  EXPECT_EQ(timeline[1].gap_before_ns, 0u);
  EXPECT_EQ(timeline[2].name, "c");
  EXPECT_EQ(timeline[2].duration_ns, 150u);
  EXPECT_EQ(timeline[2].gap_before_ns, 50u);
  EXPECT_EQ(timeline[3].gap_before_ns, 10u);
  // The durations and gaps add up to the span when nothing overlaps after the first.
  uint64_t total = 0;
  for (const auto& k : timeline) total += k.gap_before_ns;
  EXPECT_EQ(total, 60u);
}

TEST(TraceWindow, SpanNamesStreamsAndLateKernels) {
  TraceWindow w;
  EXPECT_FALSE(w.kernel_span().has_value());
  EXPECT_TRUE(w.all_kernels_end_before(0));
  w.kernels = {kernel("a", 7, 100, 200), kernel("b", 9, 150, 400), kernel("a", 7, 50, 120)};
  ASSERT_TRUE(w.kernel_span().has_value());
  EXPECT_EQ(w.kernel_span()->first, 50u);
  EXPECT_EQ(w.kernel_span()->second, 400u);
  EXPECT_EQ(w.kernel_names(), (std::set<std::string>{"a", "b"}));
  EXPECT_EQ(w.kernel_streams(), (std::set<uint32_t>{7, 9}));
  EXPECT_TRUE(w.all_kernels_end_before(400));
  EXPECT_FALSE(w.all_kernels_end_before(399));
  const auto late = w.kernels_ending_after(300);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].name, "b");
  // Work before the timed window: only the kernel that began before 100 counts.
  const auto early = w.kernels_starting_before(100);
  ASSERT_EQ(early.size(), 1u);
  EXPECT_EQ(early[0].start_ns, 50u);
  EXPECT_TRUE(w.kernels_starting_before(50).empty());
}

// Work outside the timed window (window_escapes.hpp).
constexpr uint32_t kTimed = 7;
constexpr uint32_t kOther = 9;
constexpr uint64_t kFlushBytes = 100 << 20;

CopyRecord memset_of(uint64_t bytes, uint32_t stream, uint64_t start, uint64_t end) {
  return {CopyRecord::Type::memset, bytes, stream, start, end, 0};
}

// What timed_call() leaves in a window around an honest call: gate, flush, marker, the
// candidate's kernel, marker.
TraceWindow honest_window() {
  TraceWindow w;
  w.begin_ns = 0;
  w.end_ns = 1000;
  w.harness_named = {kernel(kLaunchGateKernelName, kTimed, 10, 100), kernel(kMarkerKernelName, kTimed, 200, 201),
                     kernel(kMarkerKernelName, kTimed, 500, 501)};
  w.copies = {memset_of(kFlushBytes, kTimed, 110, 190), {CopyRecord::Type::memcpy, 64, kTimed, 300, 310, 0}};
  w.kernels = {kernel("relu", kTimed, 210, 490)};
  return w;
}

constexpr HarnessLaunches kCold{.timed_stream_id = kTimed, .markers = 2, .gates = 1, .flush_memset_bytes = kFlushBytes};

bool none(const WindowEscapes& e) {
  return e.early_kernels.empty() && e.late_kernels.empty() && e.early_copies.empty() && e.late_copies.empty() && e.between.empty() &&
         e.impostors.empty();
}

TEST(WindowEscapes, AnHonestCallEscapesNothing) {
  EXPECT_TRUE(none(find_escapes(honest_window(), kCold)));
}

TEST(WindowEscapes, AnUngatedWarmCallEscapesNothing) {
  TraceWindow w = honest_window();
  w.harness_named.erase(w.harness_named.begin());  // no gate
  w.copies.erase(w.copies.begin());                // no flush
  EXPECT_TRUE(none(find_escapes(w, {.timed_stream_id = kTimed, .markers = 2, .gates = 0, .flush_memset_bytes = 0})));
}

TEST(WindowEscapes, AMarkerNamedKernelOfTheCandidateIsAnImpostorOnAnyStream) {
  TraceWindow w = honest_window();
  w.harness_named.push_back(kernel(kMarkerKernelName, kTimed, 300, 400));  // inside run(), on the timed stream
  w.harness_named.push_back(kernel(kMarkerKernelName, kOther, 20, 150));   // early, on its own stream
  const WindowEscapes e = find_escapes(w, kCold);
  ASSERT_EQ(e.impostors.size(), 2u);
  EXPECT_EQ(e.impostors[0], "kbv_trace_marker (stream 9)");
  EXPECT_EQ(e.impostors[1], "kbv_trace_marker (stream 7)");
}

TEST(WindowEscapes, TheHarnessMarkersAreTheFirstAndLastOnTheTimedStream) {
  TraceWindow w = honest_window();
  // A candidate's marker-named kernel between the two: the window stays [200, 500], so the
  // candidate's kernel on another stream that began at 150 is still early.
  w.harness_named.push_back(kernel(kMarkerKernelName, kTimed, 300, 301));
  w.kernels.push_back(kernel("side", kOther, 150, 250));
  const WindowEscapes e = find_escapes(w, kCold);
  EXPECT_EQ(e.impostors.size(), 1u);
  ASSERT_EQ(e.early_kernels.size(), 1u);
  EXPECT_EQ(e.early_kernels[0], "side (stream 9)");
}

TEST(WindowEscapes, AGateBeyondTheOneLaunchedIsAnImpostor) {
  TraceWindow w = honest_window();
  w.harness_named.push_back(kernel(kLaunchGateKernelName, kTimed, 300, 400));
  EXPECT_EQ(find_escapes(w, kCold).impostors, std::vector<std::string>{"kbv_launch_gate (stream 7)"});
  // With the gate off, even one is the candidate's.
  TraceWindow ungated = honest_window();
  EXPECT_EQ(find_escapes(ungated, {.timed_stream_id = kTimed, .markers = 2, .gates = 0, .flush_memset_bytes = kFlushBytes}).impostors.size(), 1u);
}

TEST(WindowEscapes, KernelsOutsideTheMarkersAreEarlyOrLate) {
  TraceWindow w = honest_window();
  w.kernels.push_back(kernel("before", kOther, 120, 180));
  w.kernels.push_back(kernel("after", kOther, 480, 700));
  const WindowEscapes e = find_escapes(w, kCold);
  EXPECT_EQ(e.early_kernels, std::vector<std::string>{"before (stream 9)"});
  EXPECT_EQ(e.late_kernels, std::vector<std::string>{"after (stream 9)"});
}

TEST(WindowEscapes, CopiesOutsideTheMarkersAreEarlyOrLateTheFlushExcepted) {
  TraceWindow w = honest_window();
  w.copies.push_back(memset_of(kFlushBytes, kTimed, 120, 195));                        // a second flush-sized memset
  w.copies.push_back(memset_of(kFlushBytes, kOther, 20, 60));                          // the flush's size on another stream
  w.copies.push_back({CopyRecord::Type::memcpy, 4096, kOther, 400, 800, 0});           // still running after the last marker
  const WindowEscapes e = find_escapes(w, kCold);
  EXPECT_EQ(e.early_copies.size(), 2u);
  EXPECT_EQ(e.late_copies, std::vector<std::string>{"memcpy of 4096 bytes (stream 9)"});
  // A warm call has no flush: a flush-sized memset before the first marker is the candidate's.
  TraceWindow warm = honest_window();
  EXPECT_EQ(find_escapes(warm, {.timed_stream_id = kTimed, .markers = 2, .gates = 1, .flush_memset_bytes = 0}).early_copies.size(), 1u);
}

TEST(WindowEscapes, AnUploadFromTheHostIsNoEscape) {
  TraceWindow w = honest_window();
  CopyRecord upload{CopyRecord::Type::memcpy, 4096, kOther, 20, 60, 0};
  upload.host_to_device = true;  // cudaMemcpyToSymbol of constants, on the legacy stream
  w.copies.push_back(upload);
  EXPECT_TRUE(none(find_escapes(w, kCold)));
  w.copies.back().host_to_device = false;  // the same bytes from device memory
  EXPECT_EQ(find_escapes(w, kCold).early_copies.size(), 1u);
}

TEST(WindowEscapes, WorkBetweenWindowsIsReportedWhateverItsName) {
  TraceWindow w = honest_window();
  w.kernels_between = {kernel(kMarkerKernelName, kTimed, 1, 2), kernel("spin", kOther, 3, 4)};
  w.copies_between = {memset_of(16, kOther, 5, 6)};
  w.records_between_dropped = 3;
  const WindowEscapes e = find_escapes(w, kCold);
  ASSERT_EQ(e.between.size(), 4u);
  EXPECT_EQ(e.between[0], "kbv_trace_marker (stream 7)");
  EXPECT_EQ(e.between[2], "memset of 16 bytes (stream 9)");
  EXPECT_EQ(e.between[3], "3 more record(s) beyond the collector's cap");
  EXPECT_TRUE(e.impostors.empty());
}

TEST(WindowEscapes, WithoutAMarkerPairNothingIsEarlyAndTheWindowsEndBoundsTheLate) {
  TraceWindow w;
  w.end_ns = 1000;
  w.kernels = {kernel("k", kTimed, 10, 900), kernel("tail", kOther, 10, 1100)};
  const WindowEscapes e = find_escapes(w, {.timed_stream_id = kTimed, .markers = 0, .gates = 0, .flush_memset_bytes = 0});
  EXPECT_TRUE(e.early_kernels.empty());
  EXPECT_EQ(e.late_kernels, std::vector<std::string>{"tail (stream 9)"});
}

TEST(RecordPlace, BeforeTheFirstWindowOnlyTheOpenWindowsRecordsAreKept) {
  EXPECT_EQ(place_record(45, 50, 0, true, 40), RecordPlace::window);
  EXPECT_EQ(place_record(20, 30, 0, true, 40), RecordPlace::drop);
  EXPECT_EQ(place_record(45, 50, 0, false, 40), RecordPlace::drop);
}

TEST(RecordPlace, WhatEndedAfterTheLastWindowClosedAndBeforeThisOneOpenedRanBetween) {
  const uint64_t last_end = 1000, begin = 2000;
  EXPECT_EQ(place_record(900, 999, last_end, true, begin), RecordPlace::drop);      // the last window's, delivered late
  EXPECT_EQ(place_record(1200, 1500, last_end, true, begin), RecordPlace::between);  // the sync at begin waited for it
  EXPECT_EQ(place_record(2000, 2000, last_end, true, begin), RecordPlace::window);
  EXPECT_EQ(place_record(1200, 1500, last_end, false, 0), RecordPlace::between);     // delivered while no window was open
  EXPECT_EQ(place_record(2100, 2500, 3000, true, begin), RecordPlace::window);      // in the open window, whatever the last close read
}

// r59 (H100): a kernel a hook launched before a null call, which begin_window() waited for, came
// back from CUPTI ending after the window's opening; it was reported as the call's own early work.
TEST(RecordPlace, WhatStartedBeforeTheWindowOpenedRanBetweenWhenItEnded) {
  const uint64_t last_end = 1000, begin = 2000;
  EXPECT_EQ(place_record(1500, 2003, last_end, true, begin), RecordPlace::between);
  EXPECT_EQ(place_record(1999, 5000, last_end, true, begin), RecordPlace::between);
  EXPECT_EQ(place_record(1500, 2003, 0, true, begin), RecordPlace::between);  // even in the first window
}

}  // namespace
}  // namespace kbv::cuda
