// graph/products.hpp — which ops are products: the tensor-core nodes (matmul, bmm, linear,
// convolutions) whose first two inputs are the operands a TF32 or bf16 kernel rounds (a third, the
// bias, is added in full precision). The error scale (error_scale_graph.hpp) and the precision
// check (operand_rounding.hpp) both start from them.
#pragma once

#include <string_view>

namespace kbv {

bool is_product_op(std::string_view op);

}  // namespace kbv
