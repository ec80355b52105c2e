// tests/cuda/measure/trace_window_test.cpp — questions asked of a CUPTI window, on synthetic
// records (no GPU): peak memory, spans, stream-injection checks.
#include <gtest/gtest.h>

#include "measure/cupti/trace_window.hpp"

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

}  // namespace
}  // namespace kbv::cuda
