// bench/cuda_timing/conv_pass_variants.hpp — the wide transpose's output-pass variants that
// --conv-passes times beside the library's (conv_pass_variants.cu says what each changes).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "measure/baseline/elementwise_groups.hpp"

namespace kbv::bench {

struct PassVariant {
  std::string name;
  bool bias_only;  // runs only the bias, not the chain
  int index;       // which variant kernel
};

std::vector<PassVariant> output_pass_variants();

// nchw = variant(transpose(nhwc) + bias, then the folded `unit`'s chain of `problem` unless
// bias_only) for `images` images of `pixels` pixels and `channels` channels; `inputs` the chain's
// other operands, as ConvEpilogue::run_transposed takes them.
void run_output_pass_variant(const PassVariant& variant, const ResolvedProblem& problem, const cuda::BaselineUnit& unit, const float* nhwc,
                             float* nchw, int64_t images, int64_t pixels, int64_t channels, const float* bias, const float* const* inputs,
                             size_t input_count, cudaStream_t stream);

// xt = the input pass (NCHW → NHWC, no bias) through the library's wide four_lines kernel with
// registers for 8 resident blocks an SM (the library's takes 40: 6 blocks).
void run_input_pass_bounded(const float* x, float* xt, int64_t images, int64_t channels, int64_t pixels, cudaStream_t stream);

}  // namespace kbv::bench
