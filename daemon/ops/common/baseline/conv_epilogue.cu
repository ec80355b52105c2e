// daemon/ops/common/baseline/conv_epilogue.cu — a convolution's elementwise chain (see
// conv_epilogue.hpp): conv_epilogue.cuh's ChannelChain in batched_transpose.cuh's kernel; the NCHW
// form is the fused elementwise step, in place.
#include "ops/common/baseline/conv_epilogue.hpp"

#include <stdexcept>
#include <vector>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/conv_epilogue.cuh"
#include "ops/common/baseline/fused_elementwise.hpp"

namespace kbv::ops::baseline {

using cuda::kMaxFusedInputs;

struct ConvEpilogue::Impl {
  ChannelChain transposed;                           // pointers and bias set per run
  bool written_out = false;                          // is_relu_then_add: run as ReluThenChannelAdd
  std::unique_ptr<cuda::measure::NodeStep> in_place;  // reads [the convolution's output, inputs...]
  std::vector<int64_t> elements;
  std::string chain;
};

ConvEpilogue::ConvEpilogue(const ResolvedProblem& problem, const cuda::BaselineUnit& unit) : impl_(std::make_unique<Impl>()) {
  impl_->transposed = make_channel_chain(problem, unit, impl_->chain);
  impl_->written_out = is_relu_then_add(impl_->transposed.code);
  const Node& conv = problem.problem.graph[unit.nodes.front()];
  cuda::BaselineUnit chain_unit;
  chain_unit.nodes.assign(unit.nodes.begin() + 1, unit.nodes.end());
  chain_unit.inputs.push_back(conv.output);
  for (auto name = unit.inputs.begin() + static_cast<std::ptrdiff_t>(conv.inputs.size()); name != unit.inputs.end(); ++name) {
    chain_unit.inputs.push_back(*name);
    impl_->elements.push_back(numel(problem.tensor_shapes.at(*name)));
  }
  chain_unit.output = unit.output;
  impl_->in_place = make_fused_elementwise_step(problem, chain_unit);
}

ConvEpilogue::~ConvEpilogue() = default;

size_t ConvEpilogue::inputs() const { return impl_->elements.size(); }
int64_t ConvEpilogue::input_elements(size_t k) const { return impl_->elements.at(k); }

void ConvEpilogue::run_in_place(float* y, std::span<const float* const> inputs, cudaStream_t stream) const {
  const float* gathered[kMaxFusedInputs + 1] = {y};
  for (size_t k = 0; k < inputs.size() && k < kMaxFusedInputs; ++k) gathered[k + 1] = inputs[k];
  impl_->in_place->run(std::span<const float* const>(gathered, inputs.size() + 1), y, stream);
}

void ConvEpilogue::run_transposed(const float* nhwc, float* nchw, int64_t images, int64_t pixels, int64_t channels, const float* bias,
                                  std::span<const float* const> inputs, cudaStream_t stream, TransposeForm form) const {
  ChannelChain epilogue = impl_->transposed;
  epilogue.bias = bias;
  for (size_t k = 0; k < inputs.size() && k < kMaxFusedInputs; ++k) epilogue.pointers[k] = inputs[k];
  if (impl_->written_out)
    transpose::launch(nhwc, nchw, images, pixels, channels, ReluThenChannelAdd{epilogue}, stream, form);
  else
    transpose::launch(nhwc, nchw, images, pixels, channels, epilogue, stream, form);
  cuda::check_launch("kbv batched transpose kernel with a convolution epilogue");
}

std::string ConvEpilogue::describe() const { return impl_->chain; }

bool ConvEpilogue::transposed_written_out() const { return impl_->written_out; }

}  // namespace kbv::ops::baseline
