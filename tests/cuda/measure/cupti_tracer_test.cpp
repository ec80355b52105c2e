// tests/cuda/measure/cupti_tracer_test.cpp — the CUPTI tracer sees what a call did: a kernel
// launched on a second stream (with that stream's id), allocations from cudaMalloc and
// cudaMallocAsync with the right peak, nothing from before the window, a kernel still running on
// another stream after the timed region (stream injection), and nothing delivered after its
// window closed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "measure/cupti/cupti_tracer.hpp"
#include "measure/timing/launch_gate.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure_testing {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr unsigned long long kShortSpinNs = 200'000;   // 0.2 ms
constexpr unsigned long long kLongSpinNs = 20'000'000; // 20 ms: far beyond any launch skew

void print_window(const TraceWindow& w) {
  std::printf("window [%llu, %llu] ns, %zu kernels, %zu markers, %zu memory, %zu copies, "
              "%llu dropped\n",
              static_cast<unsigned long long>(w.begin_ns),
              static_cast<unsigned long long>(w.end_ns), w.kernels.size(), w.markers.size(),
              w.memory.size(), w.copies.size(), static_cast<unsigned long long>(w.dropped_records));
  for (const KernelRecord& k : w.kernels)
    std::printf("  kernel %s stream %u [%llu, %llu]\n", k.name.c_str(), k.stream_id,
                static_cast<unsigned long long>(k.start_ns),
                static_cast<unsigned long long>(k.end_ns));
  for (uint64_t m : w.markers)
    std::printf("  marker at %llu\n", static_cast<unsigned long long>(m));
  for (const MemoryRecord& m : w.memory)
    std::printf("  %s kind %d %llu bytes at 0x%llx, t=%llu%s pool %llu\n",
                m.operation == MemoryOperation::allocation ? "alloc  " : "release",
                static_cast<int>(m.kind), static_cast<unsigned long long>(m.bytes),
                static_cast<unsigned long long>(m.address),
                static_cast<unsigned long long>(m.timestamp_ns), m.is_async ? " async" : "", static_cast<unsigned long long>(m.pool_bytes));
}

bool has_kernel(const TraceWindow& w, const std::string& fragment, uint32_t stream_id) {
  for (const KernelRecord& k : w.kernels)
    if (k.name.find(fragment) != std::string::npos && k.stream_id == stream_id) return true;
  return false;
}

class CuptiTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    tracer_ = &CuptiTracer::instance();
    main_ = measure::make_stream(cudaStreamNonBlocking);
    side_ = measure::make_stream(cudaStreamNonBlocking);
    // Load the test kernels' module and the stream-ordered pool before any window.
    launch_spin_ns(1000, main_.get());
    void* warm = nullptr;
    measure::check(cudaMallocAsync(&warm, kMiB, main_.get()), "cudaMallocAsync");
    measure::check(cudaFreeAsync(warm, main_.get()), "cudaFreeAsync");
    CuptiTracer::launch_marker(main_.get());
    measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  CuptiTracer* tracer_ = nullptr;
  measure::Stream main_, side_;
};

TEST_F(CuptiTest, NothingBeforeTheWindowAppearsInIt) {
  launch_spin_ns(kShortSpinNs, main_.get());
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  tracer_->begin_window();
  const TraceWindow w = tracer_->end_window();
  print_window(w);
  EXPECT_TRUE(w.kernels.empty());
  EXPECT_TRUE(w.memory.empty());
  EXPECT_EQ(w.peak_device_bytes(), 0u);
}

TEST_F(CuptiTest, SeesSecondStreamKernelAndAllocationsWithTheirPeak) {
  tracer_->begin_window();
  launch_spin_ns(kShortSpinNs, side_.get());
  void* plain = nullptr;
  void* pooled = nullptr;
  measure::check(cudaMalloc(&plain, 64 * kMiB), "cudaMalloc");
  measure::check(cudaMallocAsync(&pooled, 32 * kMiB, main_.get()), "cudaMallocAsync");
  measure::check(cudaFreeAsync(pooled, main_.get()), "cudaFreeAsync");
  measure::check(cudaStreamSynchronize(main_.get()), "cudaStreamSynchronize");
  measure::check(cudaFree(plain), "cudaFree");
  const TraceWindow w = tracer_->end_window();
  print_window(w);

  const uint32_t side_id = CuptiTracer::stream_id(side_.get());
  EXPECT_TRUE(has_kernel(w, "kbv_test_spin_ns", side_id))
      << "no spin kernel on the side stream (id " << side_id << ")";
  EXPECT_EQ(w.kernel_streams().count(side_id), 1u);
  ASSERT_TRUE(w.kernel_span().has_value());
  EXPECT_GE(w.kernel_span()->second - w.kernel_span()->first, kShortSpinNs);

  bool plain_seen = false, pooled_seen = false;
  for (const MemoryRecord& m : w.memory) {
    if (m.operation != MemoryOperation::allocation || m.kind != MemoryKind::device) continue;
    if (!m.is_async && m.address == reinterpret_cast<uint64_t>(plain) && m.bytes >= 64 * kMiB)
      plain_seen = true;
    if (m.is_async && m.address == reinterpret_cast<uint64_t>(pooled) && m.bytes >= 32 * kMiB)
      pooled_seen = true;
  }
  EXPECT_TRUE(plain_seen) << "no MEMORY2 record of the cudaMalloc";
  EXPECT_TRUE(pooled_seen) << "no MEMORY2 record of the cudaMallocAsync";
  // 64 MiB, then 32 MiB more while the first is held, both released: peak 96 MiB. Allow
  // allocation-granularity rounding (2 MiB pages) on each block.
  EXPECT_GE(w.peak_device_bytes(), 96 * kMiB);
  EXPECT_LE(w.peak_device_bytes(), 100 * kMiB);
  EXPECT_EQ(w.retained_device_bytes(), 0u);
  EXPECT_EQ(w.dropped_records, 0u);
}

// cudaMallocFromPoolAsync on the device's default pool: one allocation record of the block's
// size (the pool's own growth is not a second record: the peak is the block), with the pool's
// size beside it.
TEST_F(CuptiTest, DefaultPoolAllocationsCountTheirBlockAndReportThePool) {
  int device = 0;
  measure::check(cudaGetDevice(&device), "cudaGetDevice");
  cudaMemPool_t pool = nullptr;
  measure::check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
  tracer_->begin_window();
  void* block = nullptr;
  measure::check(cudaMallocFromPoolAsync(&block, 24 * kMiB, pool, main_.get()), "cudaMallocFromPoolAsync");
  measure::check(cudaFreeAsync(block, main_.get()), "cudaFreeAsync");
  measure::check(cudaStreamSynchronize(main_.get()), "cudaStreamSynchronize");
  const TraceWindow w = tracer_->end_window();
  print_window(w);
  std::printf("peak %llu, net %lld, pool %llu\n", static_cast<unsigned long long>(w.peak_device_bytes()),
              static_cast<long long>(w.net_device_bytes()), static_cast<unsigned long long>(w.peak_pool_bytes()));
  EXPECT_GE(w.peak_device_bytes(), 24 * kMiB);
  EXPECT_LE(w.peak_device_bytes(), 26 * kMiB);
  EXPECT_EQ(w.net_device_bytes(), 0);
  EXPECT_GE(w.peak_pool_bytes(), 24 * kMiB);
}

TEST_F(CuptiTest, KernelStillRunningOnAnotherStreamIsCaughtAfterTheStopEvent) {
  const measure::Event start = measure::make_event(cudaEventDefault);
  const measure::Event stop = measure::make_event(cudaEventDefault);
  tracer_->begin_window();
  measure::check(cudaEventRecord(start.get(), main_.get()), "cudaEventRecord");
  launch_spin_ns(kLongSpinNs, side_.get());  // the "injected" work, never joined to main
  measure::check(cudaEventRecord(stop.get(), main_.get()), "cudaEventRecord");
  CuptiTracer::launch_marker(main_.get());
  const uint64_t after_stop = CuptiTracer::gpu_time_after(stop.get());
  const TraceWindow w = tracer_->end_window();
  print_window(w);
  ASSERT_EQ(w.markers.size(), 1u);
  EXPECT_FALSE(w.all_kernels_end_before(w.markers[0]));
  EXPECT_FALSE(w.all_kernels_end_before(after_stop));
  ASSERT_EQ(w.kernels_ending_after(w.markers[0]).size(), 1u);
  EXPECT_NE(w.kernels_ending_after(w.markers[0])[0].name.find("kbv_test_spin_ns"),
            std::string::npos);
}

TEST_F(CuptiTest, JoinedSideStreamWorkEndsBeforeTheMarker) {
  const measure::Event joined = measure::make_event(cudaEventDisableTiming);
  tracer_->begin_window();
  launch_spin_ns(kShortSpinNs, side_.get());
  measure::check(cudaEventRecord(joined.get(), side_.get()), "cudaEventRecord");
  measure::check(cudaStreamWaitEvent(main_.get(), joined.get(), 0), "cudaStreamWaitEvent");
  CuptiTracer::launch_marker(main_.get());
  const TraceWindow w = tracer_->end_window();
  print_window(w);
  ASSERT_EQ(w.markers.size(), 1u);
  EXPECT_EQ(w.kernels.size(), 1u);
  EXPECT_TRUE(w.all_kernels_end_before(w.markers[0]));
}

// The worker's forced close hands back every record of its window: over many windows with work
// on two streams, each window holds its kernels and marker, and nothing arrives after its
// window closed (TraceWindow::records_delivered_late, which place_record would drop).
TEST_F(CuptiTest, AForcedCloseLeavesNothingToArriveLate) {
  constexpr int kWindows = 50;
  uint64_t late = 0;
  for (int i = 0; i < kWindows; ++i) {
    tracer_->begin_window();
    launch_spin_ns(kShortSpinNs / 10, side_.get());
    launch_spin_ns(kShortSpinNs / 10, main_.get());
    CuptiTracer::launch_marker(main_.get());
    const TraceWindow w = tracer_->end_window();
    ASSERT_EQ(w.kernels.size(), 2u) << "window " << i;
    ASSERT_EQ(w.markers.size(), 1u) << "window " << i;
    late += w.records_delivered_late;
  }
  tracer_->begin_window();
  late += tracer_->end_window().records_delivered_late;
  EXPECT_EQ(late, 0u);
}

// What a trace window costs the worker per call (begin: device sync; end: device sync and a
// forced flush), with one kernel inside: a figure for the eval's per-sample overhead.
TEST_F(CuptiTest, WindowCostFigure) {
  constexpr int kWindows = 100;
  std::vector<double> costs;
  for (int i = 0; i < kWindows; ++i) {
    const auto begin = std::chrono::steady_clock::now();
    tracer_->begin_window();
    launch_spin_ns(1000, main_.get());
    const TraceWindow w = tracer_->end_window();
    costs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
    ASSERT_EQ(w.kernels.size(), 1u);
  }
  std::sort(costs.begin(), costs.end());
  std::printf("[ figures  ] CUPTI window with one 1 us kernel: median %.1f us, p90 %.1f us over %d windows\n",
              costs[kWindows / 2] * 1e6, costs[kWindows * 9 / 10] * 1e6, kWindows);
}

// The launch gate is kbv's, not the traced work's: it never shows among the kernels. Work put
// on another stream while the gate holds the timed one starts before the marker in front of
// the timed window, which is how the worker sees it (worker/cuda_device.cpp).
TEST_F(CuptiTest, LaunchGateIsNotTracedAndWorkUnderItStartsEarly) {
  LaunchGate gate;
  tracer_->begin_window();
  gate.hold(main_.get());
  CuptiTracer::launch_marker(main_.get());
  launch_spin_ns(kShortSpinNs, side_.get());  // runs at once: nothing holds the side stream
  launch_spin_ns(kShortSpinNs, main_.get());  // the timed work, behind the gate
  CuptiTracer::launch_marker(main_.get());
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the side kernel is done by now
  gate.release();
  const TraceWindow w = tracer_->end_window();
  print_window(w);
  EXPECT_FALSE(gate.timed_out());
  for (const KernelRecord& k : w.kernels) EXPECT_NE(k.name, kLaunchGateKernelName);
  ASSERT_EQ(w.markers.size(), 2u);
  ASSERT_EQ(w.kernels.size(), 2u);
  const auto early = w.kernels_starting_before(w.markers.front());
  ASSERT_EQ(early.size(), 1u);
  EXPECT_EQ(early[0].stream_id, CuptiTracer::stream_id(side_.get()));
  EXPECT_TRUE(w.all_kernels_end_before(w.markers.back()));
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
