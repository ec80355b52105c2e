// tests/cuda/measure/gpu_test_support.hpp — what the measure GPU tests share: the skip-without-
// GPU fixture, device tensors filled from host data, single-op problems, test kernels.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../gpu_presence.hpp"
#include "measure/support/handles.hpp"
#include "ops/op.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda::measure_testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = kbv::cuda::testing::why_no_cuda_device();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

// Deterministic values uniform in [-1, 1) × scale, never exactly 0.
std::vector<float> random_values(size_t count, uint64_t seed, double scale = 1.0);

measure::DeviceMemory upload(const std::vector<float>& host);
std::vector<float> download(const void* device, size_t count);

// A problem of one node applying `op` to inputs "in0", "in1"… of the given shapes, writing
// output "out"; attributes are the op's defaults overridden by `attrs`.
ResolvedProblem single_op_problem(const std::string& op, const std::vector<Shape>& inputs,
                                  const Attrs& attrs = {});

// fp64 reference of a single-op problem through kbv::find_op(op)->reference_f64.
std::vector<double> reference_of(const ResolvedProblem& problem,
                                 const std::vector<std::vector<float>>& inputs);

// Test kernels (test_kernels.cu).
// One thread spinning for `cycles` SM clock cycles (clock64).
void launch_spin_cycles(long long cycles, cudaStream_t stream);
// One thread spinning for `nanoseconds` of globaltimer time.
void launch_spin_ns(unsigned long long nanoseconds, cudaStream_t stream);

}  // namespace kbv::cuda::measure_testing
