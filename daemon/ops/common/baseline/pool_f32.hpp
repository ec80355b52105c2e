// ops/common/baseline/pool_f32.hpp — the pooling ops' CUDA fp32 baseline, as PyTorch eager runs
// them: its max_pool/avg_pool/adaptive_avg_pool CUDA kernels compute one output per thread
// (max_pool_forward_nchw, avg_pool2d_out_cuda_frame, max_pool3d/avg_pool3d_cuda_update_output,
// adaptive_average_pool), and so does kbv's, with ops/common/pool_window.hpp's pooled_value in
// float. An adaptive pool to one output per plane is a mean over each plane, which is what
// PyTorch runs for output_size 1 (adaptive_avg_pool2d/3d call input.mean over the spatial dims):
// kbv's row-mean kernel (ops/common/baseline/axis_f32.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/common/pool_window.hpp"

namespace kbv::ops::baseline {

// One thread per output, grid-stride; asynchronous on `stream`.
void launch_pool_f32(const pooling::PoolGeometry& geometry, const float* x, float* y, cudaStream_t stream);

// "k=3x3 s=2x2 p=1x1 d=1x1" (the spatial axes in use), for step descriptions.
std::string pool_text(const pooling::PoolGeometry& geometry, int spatial_axes);

// The step of a pooling node whose geometry is `geometry`; `op` names it in describe().
std::unique_ptr<cuda::measure::NodeStep> make_pool_step(const pooling::PoolGeometry& geometry,
                                                        int spatial_axes, std::string op);

}  // namespace kbv::ops::baseline
