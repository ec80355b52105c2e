// verify/precision_signature.cpp — the distances of the precision check and its verdict text
// (precision_signature.hpp).
#include "verify/precision_signature.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace kbv {

double OperandRoundingDistances::ratio() const {
  if (to_reference_sq <= 0) return std::numeric_limits<double>::infinity();
  return std::sqrt(to_rounded_sq / to_reference_sq);
}

std::string OperandRoundingDistances::summary() const {
  char text[400];
  std::snprintf(text, sizeof text,
                "the output is the product of bfloat16-rounded operands: %.3g times nearer the reference computed from the "
                "product operands rounded to bf16 than the reference itself (the check fails above %.0f; an honest TF32 or "
                "fp32 kernel is nearer the reference): a precision downgrade (docs/threat-model.md, pattern 15)",
                1.0 / ratio(), 1.0 / kBf16ExplainedRatio);
  return text;
}

void add_operand_rounding_distances(OperandRoundingDistances& distances, const float* output, const double* reference,
                                    const double* rounded_reference, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    const double out = output[i];
    if (!std::isfinite(out) || !std::isfinite(reference[i]) || !std::isfinite(rounded_reference[i])) continue;
    distances.to_reference_sq += (out - reference[i]) * (out - reference[i]);
    distances.to_rounded_sq += (out - rounded_reference[i]) * (out - rounded_reference[i]);
  }
}

}  // namespace kbv
