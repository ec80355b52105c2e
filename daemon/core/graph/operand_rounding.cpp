// graph/operand_rounding.cpp — finds the product operands among a problem's inputs (the rule is in
// operand_rounding.hpp) and rounds a float to bfloat16.
#include "graph/operand_rounding.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "graph/products.hpp"

namespace kbv {

std::optional<std::vector<bool>> bf16_operand_inputs(const ResolvedProblem& problem, std::string* why_not) {
  const auto none = [&](std::string why) -> std::optional<std::vector<bool>> {
    if (why_not != nullptr) *why_not = std::move(why);
    return std::nullopt;
  };
  const Problem& spec = problem.problem;
  std::map<std::string, size_t, std::less<>> input_index;
  for (size_t i = 0; i < spec.inputs.size(); ++i) input_index[spec.inputs[i].name] = i;
  std::vector<bool> operand(spec.inputs.size(), false), read_otherwise(spec.inputs.size(), false);
  bool any_product = false;
  for (const Node& node : spec.graph) {
    const bool product = is_product_op(node.op);
    any_product = any_product || product;
    for (size_t slot = 0; slot < node.inputs.size(); ++slot) {
      const auto input = input_index.find(node.inputs[slot]);
      const bool is_operand = product && slot < 2;
      if (is_operand && input == input_index.end())
        return none("node " + node.name + " (" + node.op + ") multiplies the intermediate " + node.inputs[slot] +
                    ", which a reference from rounded inputs cannot round");
      if (input == input_index.end()) continue;
      if (is_operand) operand[input->second] = true;
      else read_otherwise[input->second] = true;
    }
  }
  if (!any_product) return none("no product (matmul, bmm, linear or convolution): nothing a bf16 tensor-core kernel would round");
  for (size_t i = 0; i < operand.size(); ++i) {
    if (!operand[i]) continue;
    if (problem.input_dtype(i) != DType::float32) return none("the operand " + spec.inputs[i].name + " is not float32");
    if (read_otherwise[i])
      return none("the operand " + spec.inputs[i].name + " is also read in full precision by another op or as a bias");
  }
  return operand;
}

float round_to_bf16(float value) {
  if (std::isnan(value)) return value;
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // to nearest, ties to even, on the 16 dropped bits
  bits &= 0xffff0000u;
  float rounded = 0;
  std::memcpy(&rounded, &bits, sizeof rounded);
  return rounded;
}

}  // namespace kbv
