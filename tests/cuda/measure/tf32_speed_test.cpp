// tests/cuda/measure/tf32_speed_test.cpp — the TF32 baseline must be faster than the FP32 one
// on a 4096³ matmul (PyTorch eager on an H200: 0.376 ms vs 2.675 ms, docs/measurement.md, Baselines), timed
// interleaved with the cold timer. Prints both; asserts only the order.
#include <cstdio>

#include "gpu_test_support.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/timing/cold_timer.hpp"

namespace kbv::cuda::measure_testing {
namespace {

TEST_F(GpuTest, Tf32MatmulIsFasterThanFp32) {
  constexpr int64_t kSize = 4096;
  const ResolvedProblem problem = single_op_problem("matmul", {{kSize, kSize}, {kSize, kSize}});
  const measure::DeviceMemory a = upload(random_values(kSize * kSize, 1));
  const measure::DeviceMemory b = upload(random_values(kSize * kSize, 2));
  measure::DeviceMemory out(kSize * kSize * sizeof(float), "test output");
  CudaBaseline tf32(problem, MathMode::tf32);
  CudaBaseline fp32(problem, MathMode::fp32);
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  ColdTimer timer(stream.get());
  const std::vector<const float*> inputs = {a.as<float>(), b.as<float>()};
  const std::vector<float*> outputs = {out.as<float>()};
  const auto results = timer.measure_interleaved(
      {[&](cudaStream_t s, uint64_t) { tf32.run(inputs, outputs, s); },
       [&](cudaStream_t s, uint64_t) { fp32.run(inputs, outputs, s); }});
  const double flops = 2.0 * kSize * kSize * kSize;
  for (int i = 0; i < 2; ++i) {
    const TimingResult& r = results[static_cast<size_t>(i)];
    std::printf("matmul 4096^3 %s: median %.4f ms (%.1f TFLOP/s), IQR %.4f ms, %zu samples, "
                "%zu throttled, SM clock %.0f MHz, noise %.3f%%\n",
                i == 0 ? "tf32" : "fp32", r.median_s * 1e3, flops / r.median_s / 1e12,
                r.iqr_s * 1e3, r.samples, r.discarded_throttled, r.sm_clock_mhz_median,
                r.noise * 100);
  }
  std::printf("PyTorch eager on an H200 (docs/measurement.md, Baselines): tf32 0.376 ms, fp32 2.675 ms\n");
  std::printf("tf32: %sfp32: %s", tf32.describe().c_str(), fp32.describe().c_str());
  ASSERT_GT(results[0].samples, 0u);
  ASSERT_GT(results[1].samples, 0u);
  EXPECT_LT(results[0].median_s, results[1].median_s);
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
