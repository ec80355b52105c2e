// ops/common/baseline/conv_epilogue.hpp — the elementwise chain after a 2-D convolution, run as
// part of the convolution's step (measure/baseline/conv_epilogue_fold.hpp decides when): in the
// kernel that moves a channels-last output back to NCHW, or, when the convolution runs in NCHW,
// as one fused elementwise pass in place over its output. torch.compile does the same: its
// pointwise tail reads the convolution's output once and writes the problem's. The library's
// chain as a pass of its own after the back-transpose (conv2d_relu_biasadd: relu → + bias, the
// 1.04 GB output read and written once more) cost 1.0 of its 3.4 ms on the H100.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "measure/baseline/elementwise_groups.hpp"
#include "ops/common/baseline/batched_transpose.hpp"

namespace kbv::ops::baseline {

class ConvEpilogue {
 public:
  // `unit` is a folded one (unit.conv_epilogue): nodes[0] the convolution, the rest the chain;
  // inputs the convolution's, then the chain's others, each per output channel. Throws
  // std::invalid_argument for a chain it cannot run.
  ConvEpilogue(const ResolvedProblem& problem, const cuda::BaselineUnit& unit);
  ~ConvEpilogue();
  ConvEpilogue(const ConvEpilogue&) = delete;
  ConvEpilogue& operator=(const ConvEpilogue&) = delete;

  // The chain's tensors beyond the convolution's output (their order in `inputs` below) and the
  // elements of each.
  size_t inputs() const;
  int64_t input_elements(size_t k) const;

  // y holds the convolution's output (NCHW, bias added): the chain's output replaces it.
  void run_in_place(float* y, std::span<const float* const> inputs, cudaStream_t stream) const;
  // nchw[n][c][p] = chain(nhwc[n][p][c] + bias[c]) for `images` images of `pixels` pixels and
  // `channels` channels (bias may be null). The long-row form where it fits (batched_transpose.cuh
  // says why); `form` is for the bench that times each (kbv_bench_cuda_timing --conv-passes).
  void run_transposed(const float* nhwc, float* nchw, int64_t images, int64_t pixels, int64_t channels, const float* bias,
                      std::span<const float* const> inputs, cudaStream_t stream,
                      TransposeForm form = TransposeForm::long_rows_where_it_fits) const;
  std::string describe() const;  // "relu → add"
  // Whether run_transposed runs the chain written out (conv_epilogue.cuh, ReluThenChannelAdd)
  // rather than through the interpreter; run_in_place always interprets it.
  bool transposed_written_out() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kbv::ops::baseline
