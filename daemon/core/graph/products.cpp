// graph/products.cpp — the product ops (products.hpp).
#include "graph/products.hpp"

#include <set>
#include <string>

namespace kbv {

bool is_product_op(std::string_view op) {
  static const std::set<std::string, std::less<>> products = {"matmul", "bmm", "linear", "conv1d", "conv2d", "conv3d",
                                                             "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"};
  return products.contains(op);
}

}  // namespace kbv
