// ops/common/baseline/cudnn_batch_norm.hpp — PyTorch eager's cuDNN batch norm in training mode
// (aten/src/ATen/native/cudnn/BatchNorm.cpp, cudnn_batch_norm), for batchnorm and for
// instancenorm with weight and bias (at::instance_norm runs batch_norm on x viewed as
// [1, N·C, *] with weight.repeat(N)), and the rule by which PyTorch picks it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "tensor/shape.hpp"

namespace kbv::ops::baseline {

// PyTorch's _select_batch_norm_backend (aten/src/ATen/native/Normalization.cpp) picks cuDNN for
// a float32 CUDA input in training mode when weight and bias are both defined, the input has
// rank >= 3, at most 880801 rows (size(0)), fewer than 2³¹ − 1 elements ("some cuDNN kernels
// have 32-bit indexing limitations") and eps >= CUDNN_BN_MIN_EPSILON; otherwise its native kernels.
bool pytorch_batch_norm_uses_cudnn(const Shape& x, bool affine, double eps);

// cudnnBatchNormalizationForwardTrainingEx (CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_OPS_BN) on
// x of shape `x_view`, weight and bias of x_view[1] / repeats channels: with repeats > 1 each is
// first copied `repeats` times, as weight.repeat(N) (instance norm). Running statistics start at
// 0 and 1 and are updated with PyTorch's default momentum, as the model's buffers would be; the
// output never reads them. `what` names the op for describe().
std::unique_ptr<cuda::measure::NodeStep> make_cudnn_batch_norm_step(const Shape& x_view, int64_t repeats,
                                                                    double eps,
                                                                    cuda::measure::LibraryContext& context,
                                                                    std::string what);

}  // namespace kbv::ops::baseline
