// graph/operand_rounding.hpp — the inputs a bf16 tensor-core kernel rounds, and the rounding, for
// the precision check (verify/precision_signature.hpp): the reference computed again from those
// inputs rounded to bfloat16 is what a bf16 kernel returns, give or take its accumulation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/problem.hpp"

namespace kbv {

// Per problem input, whether a bf16 kernel would round it: the operands (first two inputs) of the
// problem's products. nullopt where that is not a rounding of inputs: no product, an operand that
// is an intermediate (an MLP's second layer, whose bf16 rounding a reference from rounded inputs
// cannot model), or an operand input that another op or a bias reads too (it would be rounded
// there as well, which a bf16 kernel does not do).
// `why_not`, when given, receives the reason where the result is nullopt (for `kbv problems NAME`).
std::optional<std::vector<bool>> bf16_operand_inputs(const ResolvedProblem& problem, std::string* why_not = nullptr);

// `value` rounded to bfloat16 (8 significant bits, round to nearest even, as __float2bfloat16 and
// PyTorch's .to(torch.bfloat16)), held in a float. NaN stays NaN.
float round_to_bf16(float value);

}  // namespace kbv
