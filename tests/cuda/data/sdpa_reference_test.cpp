// tests/cuda/data/sdpa_reference_test.cpp — sdpa's CUDA fp64 reference in chunks of one batch
// (ops/sdpa/reference.hpp) agrees with the host reference on every sdpa sample: the chunk loop
// KernelBench's L1 #97 takes (two chunks of 1 GiB of scores), which the samples alone, one chunk
// each, never reach.
#include "gpu_test_support.hpp"
#include "ops/op_cases.hpp"
#include "ops/registry.hpp"
#include "ops/sdpa/reference.hpp"

namespace kbv::cuda::testing {
namespace {

// As reference_ops_test.cpp: fp64 in different summation orders, a few ulps per long sum.
constexpr double kMaxNormwiseDifference = 1e-12;

class SdpaReferenceChunks : public GpuTest {};

TEST_F(SdpaReferenceChunks, OneBatchPerChunkMatchesTheHostReference) {
  const Op& op = *find_op("sdpa");
  const ops::OpCases* cases = nullptr;
  for (const ops::NamedOpCases& named : ops::all_op_cases())
    if (named.op == "sdpa") cases = &named.cases;
  ASSERT_NE(cases, nullptr);
  uint64_t seed = 3000;
  for (const ops::Sample& sample : cases->samples) {
    SCOPED_TRACE(sample.label);
    Attrs attrs = op.attribute_defaults();
    for (const auto& [name, value] : sample.attrs) attrs[name] = value;
    const Shape out_shape = op.infer_shape(sample.inputs, attrs);
    std::vector<std::vector<double>> host_inputs;
    std::vector<DeviceBuffer<double>> device_inputs;
    OpArgs<double> host_args, device_args;
    for (size_t i = 0; i < sample.inputs.size(); ++i) {
      host_inputs.push_back(random_normal(static_cast<size_t>(numel(sample.inputs[i])), seed++));
      device_inputs.push_back(upload(host_inputs.back()));
      host_args.inputs.push_back(host_inputs.back().data());
      device_args.inputs.push_back(device_inputs.back().get());
    }
    std::vector<double> host_out(static_cast<size_t>(numel(out_shape)));
    host_args.input_shapes = device_args.input_shapes = sample.inputs;
    host_args.output_shape = device_args.output_shape = out_shape;
    host_args.attrs = device_args.attrs = &attrs;
    host_args.output = host_out.data();
    op.reference_f64(host_args);
    DeviceBuffer<double> device_out = nan_filled(host_out.size());
    device_args.output = device_out.get();
    const Shape& q = sample.inputs[0];
    const Shape& k = sample.inputs[1];
    const auto one_batch = static_cast<int64_t>(q[q.size() - 2] * k[k.size() - 2] * sizeof(double));
    const ReferenceContext context(stream());
    ops::sdpa::sdpa_f64_device(device_args, context, one_batch);
    const Difference d = normwise_difference(download(device_out.get(), host_out.size()), host_out);
    EXPECT_LT(d.relative, kMaxNormwiseDifference) << "max abs " << d.max_abs << " at element " << d.worst_index;
  }
}

}  // namespace
}  // namespace kbv::cuda::testing
