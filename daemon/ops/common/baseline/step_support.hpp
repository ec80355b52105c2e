// ops/common/baseline/step_support.hpp — what the CUDA baseline faces share to build their step
// from a graph node: attributes read and checked as integers and axes. The node's shapes were
// checked against the host op's infer_shape before the face runs (measure/baseline/node_step.cpp).
#pragma once

#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::baseline {

// Attribute `name` of the node (or the op's default) as an integer >= min_value; throws
// std::invalid_argument naming the node otherwise.
int int_attr(const cuda::measure::NodeContext& node, const std::string& name, int min_value);

// Attribute `name` of the node as an axis of its first input, in [0, rank).
size_t axis_index(const cuda::measure::NodeContext& node, const std::string& name);

// The node's first input seen as [outer, extent, inner] around axis attribute `name`.
op_support::AxisSplit split_at_axis(const cuda::measure::NodeContext& node, const std::string& name);

// The node's first input seen as [outer, extent, inner] around the axes its reduction folds:
// `count` of them from `axis` when its op has a count attribute, else `axis` alone.
op_support::AxisSplit split_at_reduced_axes(const cuda::measure::NodeContext& node);

}  // namespace kbv::ops::baseline
