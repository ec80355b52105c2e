// ops/common/baseline/cudnn_convolution.hpp — the convolutions' CUDA baseline, as PyTorch eager runs
// them: cuDNN's forward convolution (conv1d/2d/3d) or backward-data convolution
// (conv_transpose1d/2d/3d), then the bias as a separate in-place broadcast add. Every op's
// baseline face calls make_cudnn_convolution_step with its form.
#pragma once

#include <memory>

#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/convolution.hpp"

namespace kbv::ops::baseline {

// Throws OpError for shapes the op refuses and std::invalid_argument for an application cuDNN
// cannot run (a dimension beyond its int range, an output_padding of at least the stride).
std::unique_ptr<cuda::measure::NodeStep> make_cudnn_convolution_step(const cuda::measure::NodeContext& node,
                                                                      cuda::measure::LibraryContext& context,
                                                                      ConvolutionForm form);

// A conv2d unit with its elementwise chain folded in (unit.conv_epilogue, measure/baseline/
// conv_epilogue_fold.hpp): the convolution's step running the chain as its epilogue
// (conv_epilogue.hpp). Its run() takes the unit's inputs in unit.inputs order.
std::unique_ptr<cuda::measure::NodeStep> make_conv_epilogue_step(const ResolvedProblem& problem, const cuda::BaselineUnit& unit,
                                                                  cuda::measure::LibraryContext& context);

}  // namespace kbv::ops::baseline
