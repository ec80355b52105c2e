// tests/cuda/measure/launch_gate_test.cpp — the launch gate (measure/timing/launch_gate.hpp)
// keeps host-side delay between the start event and the first kernel out of the timed window,
// and gives up, saying so, when the host waits for the device behind it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "gpu_test_support.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/timing/launch_gate.hpp"

namespace kbv::cuda::measure_testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned long long kKernelNs = 50'000;             // the timed work: 50 µs
constexpr auto kHostDelay = std::chrono::microseconds(300);  // a slow launch path (CUPTI: ~40 µs)
constexpr int kSamples = 21;

// Median event time of: start event, host delay, the 50 µs kernel, stop event.
double median_event_seconds(bool gated) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  const measure::Event start = measure::make_event(cudaEventDefault);
  const measure::Event stop = measure::make_event(cudaEventDefault);
  LaunchGate gate;
  std::vector<double> samples;
  for (int i = 0; i < kSamples; ++i) {
    if (gated) gate.hold(stream.get());
    measure::check(cudaEventRecord(start.get(), stream.get()), "cudaEventRecord");
    std::this_thread::sleep_for(kHostDelay);
    launch_spin_ns(kKernelNs, stream.get());
    measure::check(cudaEventRecord(stop.get(), stream.get()), "cudaEventRecord");
    if (gated) gate.release();
    measure::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    EXPECT_FALSE(gated && gate.timed_out());
    float ms = 0;
    measure::check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
    samples.push_back(ms * 1e-3);
  }
  std::nth_element(samples.begin(), samples.begin() + kSamples / 2, samples.end());
  return samples[kSamples / 2];
}

TEST_F(GpuTest, LaunchGateKeepsHostDelayOutOfTheTimedWindow) {
  const double open = median_event_seconds(false);
  const double gated = median_event_seconds(true);
  std::printf("50 us kernel launched 300 us after the start event: %.1f us ungated, %.1f us gated\n",
              open * 1e6, gated * 1e6);
  constexpr double kKernelSeconds = 50e-6, kHostDelaySeconds = 300e-6;
  // Ungated, the event time holds the host's delay; gated, only the kernel and an event's
  // resolution (a few µs; 25 µs of room).
  EXPECT_GT(open, kKernelSeconds + 0.8 * kHostDelaySeconds);
  EXPECT_LT(gated, kKernelSeconds + 25e-6);
  EXPECT_GT(gated, 0.9 * kKernelSeconds);
}

TEST_F(GpuTest, LaunchGateTimesOutWhenTheHostWaitsForTheDevice) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  LaunchGate gate;
  gate.hold(stream.get());
  launch_spin_ns(1000, stream.get());
  const auto before = Clock::now();
  measure::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");  // behind the gate
  const double waited = std::chrono::duration<double>(Clock::now() - before).count();
  gate.release();
  std::printf("a host wait behind the gate returned after %.3f s\n", waited);
  EXPECT_TRUE(gate.timed_out());
  EXPECT_GE(waited, 0.9 * LaunchGate::kTimeoutSeconds);
  EXPECT_LT(waited, 20 * LaunchGate::kTimeoutSeconds);
  // The same gate, released in time, reports no timeout.
  gate.hold(stream.get());
  gate.release();
  measure::check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
  EXPECT_FALSE(gate.timed_out());
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
