// ops/builtin_ops.hpp — accessors for the primitive ops kbv ships; registry.cpp lists them.
// Each returns a function-local static instance defined next to the op's implementation.
#pragma once

#include "ops/op.hpp"

namespace kbv::builtin_ops {

// Convolution (conv2d.cpp).
const Op& conv2d();

}  // namespace kbv::builtin_ops
