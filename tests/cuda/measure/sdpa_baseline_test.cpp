// tests/cuda/measure/sdpa_baseline_test.cpp — sdpa's CUDA baseline in chunks of one batch
// (ops/sdpa/baseline.hpp), in TF32 and FP32 mode, against the fp64 host reference on every sdpa
// sample: the chunk loop a problem larger than 1 GiB of scores takes, which the samples alone,
// one chunk each, never reach.
#include <cstdio>

#include "gpu_test_support.hpp"
#include "measure/baseline/library_context.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/op_cases.hpp"
#include "ops/sdpa/baseline.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda::measure_testing {
namespace {

// As baseline_ops_test.cpp's tensor-core tolerances: TF32's input rounding, strict fp32's sums.
constexpr Tolerance kTf32{1e-2, 1e-2, 5e-3};
constexpr Tolerance kFp32{1e-4, 1e-4, 5e-5};

TEST_F(GpuTest, SdpaBaselineInChunksOfOneBatchMatchesTheReference) {
  const ops::OpCases* cases = nullptr;
  for (const ops::NamedOpCases& named : ops::all_op_cases())
    if (named.op == "sdpa") cases = &named.cases;
  ASSERT_NE(cases, nullptr);
  for (const ops::Sample& sample : cases->samples) {
    SCOPED_TRACE(sample.label);
    const ResolvedProblem problem = single_op_problem("sdpa", sample.inputs, sample.attrs);
    std::vector<std::vector<float>> host;
    std::vector<measure::DeviceMemory> device;
    std::vector<const float*> inputs;
    for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
      host.push_back(random_values(static_cast<size_t>(numel(problem.input_shapes[i])), 500 + i));
      device.push_back(upload(host.back()));
      inputs.push_back(device.back().as<float>());
    }
    const std::vector<double> reference = reference_of(problem, host);
    const auto count = static_cast<size_t>(numel(problem.output_shapes[0]));
    measure::DeviceMemory output(count * sizeof(float), "test output");
    const Shape& q = sample.inputs[0];
    const Shape& k = sample.inputs[1];
    const auto one_batch = static_cast<int64_t>(q[q.size() - 2] * k[k.size() - 2] * sizeof(float));
    for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
      measure::LibraryContext context(mode);
      const Node& node = problem.problem.graph.at(0);
      const measure::NodeContext node_context{node, problem.input_shapes, problem.output_shapes[0]};
      const auto step = ops::sdpa::make_sdpa_step(node_context, context, one_batch);
      context.allocate_scratch();
      context.bind_stream(nullptr);
      measure::check(cudaMemset(output.get(), 0xff, count * sizeof(float)), "cudaMemset");
      step->run(inputs, output.as<float>(), nullptr);
      const std::vector<float> result = download(output.get(), count);
      const Tolerance tolerance = mode == MathMode::tf32 ? kTf32 : kFp32;
      const CompareResult compared = compare_output(result.data(), reference.data(), static_cast<int64_t>(count), 0, tolerance);
      std::printf("[sdpa %s %s] %s: %s\n", sample.label.c_str(), std::string(to_string(mode)).c_str(),
                  step->describe().c_str(), compared.summary().c_str());
      EXPECT_TRUE(compared.passed) << to_string(mode) << ": " << compared.summary();
    }
  }
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
