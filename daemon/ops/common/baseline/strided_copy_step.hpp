// ops/common/baseline/strided_copy_step.hpp — the CUDA baseline step of every layout op: its copy
// plan (ops/common/strided_copy.hpp) as one cudaMemcpyAsync when it is an in-order copy, else
// the strided-copy kernel (ops/common/strided_copy.cuh) in fp32, a launch per 16 copies.
//
// kbv's graph gives every node its own output buffer, so a layout node always moves its bytes.
// PyTorch eager runs most layout ops as views (no kernel: flatten, view, squeeze, transpose,
// select, slice) and copies only where a consumer needs contiguous memory; cat, stack and flip
// always write a new tensor. Each op's baseline says which it is.
#pragma once

#include <memory>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/common/strided_copy.hpp"

namespace kbv::ops::baseline {

// `eager` says how PyTorch eager runs the op, for describe().
std::unique_ptr<cuda::measure::NodeStep> make_copy_step(const cuda::measure::NodeContext& node,
                                                        layout::CopyPlan plan, std::string eager);

}  // namespace kbv::ops::baseline
