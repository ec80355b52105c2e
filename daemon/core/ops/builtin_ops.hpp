// ops/builtin_ops.hpp — accessors for the primitive ops kbv ships; registry.cpp lists them.
// Each returns a function-local static instance defined next to the op's implementation.
#pragma once

#include "ops/op.hpp"

namespace kbv::builtin_ops {

// Products (matmul.cpp) and convolution (conv2d.cpp).
const Op& matmul();
const Op& bmm();
const Op& linear();
const Op& conv2d();

}  // namespace kbv::builtin_ops
