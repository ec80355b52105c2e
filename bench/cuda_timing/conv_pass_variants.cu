// bench/cuda_timing/conv_pass_variants.cu — candidate epilogues for the wide transpose's output
// pass that are not kbv's library yet, so --conv-passes can time them beside the library's own
// (conv_passes.cpp). The wide form (batched_transpose.cuh) hands an epilogue four values of one
// output channel at a time; the library's epilogues read each lane's bias and chain operands
// lane by lane, as the narrow form needs. These read each once and give it to all four lanes.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/conv_epilogue.cuh"

namespace kbv::bench {
namespace {

using ops::baseline::transpose::kLanes;

// The bias alone, read once per column.
struct UniformColumnBias {
  const float* bias;
  __device__ __forceinline__ void operator()(float (&values)[kLanes], const int64_t (&columns)[kLanes]) const {
    const float b = bias[columns[0]];  // the wide form's four values share their column
KBV_UNROLL
    for (int l = 0; l < kLanes; ++l) values[l] += b;
  }
};

// The bias and the chain, each operand read once per column.
struct UniformChannelChain {
  ops::baseline::ChannelChain chain;
  __device__ __forceinline__ void operator()(float (&values)[kLanes], const int64_t (&columns)[kLanes]) const {
    const int64_t column = columns[0];
    if (chain.bias != nullptr) {
      const float b = chain.bias[column];
KBV_UNROLL
      for (int l = 0; l < kLanes; ++l) values[l] += b;
    }
    ops::baseline::chain::run_chain<kLanes>(chain.code, values, [&](int k, float (&operand)[kLanes]) {
      const float value = chain.pointers[k][column * chain.channel_stride[k]];
KBV_UNROLL
      for (int l = 0; l < kLanes; ++l) operand[l] = value;
    });
  }
};

void require_wide(int64_t rows, int64_t cols, const float* src, const float* dst) {
  if (!ops::baseline::transpose::wide_form_fits(rows, cols, src, dst))
    throw std::invalid_argument("the one-load-per-column epilogues need the wide form (sides multiples of 4, 16-byte aligned buffers)");
}

}  // namespace

// dst[b][j][i] = src[b][i][j] + bias[j], the wide form with the bias read once per column.
void launch_wide_uniform_bias(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const float* bias, cudaStream_t stream) {
  require_wide(rows, cols, src, dst);
  ops::baseline::transpose::launch(src, dst, batch, rows, cols, UniformColumnBias{bias}, stream, true);
  cuda::check_launch("wide transpose, bias read once per column");
}

// The convolution epilogue of `problem`'s folded `unit` through the wide form, each operand read
// once per column; `inputs` the chain's other operands, as ConvEpilogue::run_transposed takes them.
void launch_wide_uniform_epilogue(const ResolvedProblem& problem, const cuda::BaselineUnit& unit, const float* nhwc, float* nchw, int64_t images,
                                  int64_t pixels, int64_t channels, const float* bias, const float* const* inputs, size_t input_count,
                                  cudaStream_t stream) {
  require_wide(pixels, channels, nhwc, nchw);
  std::string description;
  UniformChannelChain epilogue{ops::baseline::make_channel_chain(problem, unit, description)};
  epilogue.chain.bias = bias;
  for (size_t k = 0; k < input_count && k < cuda::kMaxFusedInputs; ++k) epilogue.chain.pointers[k] = inputs[k];
  ops::baseline::transpose::launch(nhwc, nchw, images, pixels, channels, epilogue, stream, true);
  cuda::check_launch("wide transpose, convolution epilogue read once per column");
}

}  // namespace kbv::bench
