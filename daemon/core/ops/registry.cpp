// ops/registry.cpp — the table of primitive ops, looked up by the names problem specs use.
#include "ops/registry.hpp"

#include "ops/builtin_ops.hpp"

namespace kbv {

const std::vector<const Op*>& all_ops() {
  namespace b = builtin_ops;
  static const std::vector<const Op*> ops = {
      &b::relu(),    &b::gelu(),      &b::leaky_relu(), &b::sigmoid(),   &b::tanh(),
      &b::scale(),   &b::add(),       &b::mul(),        &b::softmax(),   &b::sum(),
      &b::mean(),    &b::layernorm(), &b::rmsnorm(),    &b::matmul(),    &b::bmm(),
      &b::linear(),  &b::conv2d(),    &b::maxpool2d()};
  return ops;
}

const Op* find_op(std::string_view name) {
  for (const Op* op : all_ops())
    if (op->name() == name) return op;
  return nullptr;
}

}  // namespace kbv
