// bf16_round.hpp — a float rounded to bfloat16 (8-bit mantissa, round to nearest even) and held in a
// float: the operand rounding of a bf16 tensor-core GEMM, for the host bf16 red-team candidates.
#pragma once

#include <cstdint>
#include <cstring>

namespace redteam {

inline float to_bf16(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even on the 16 dropped bits
  bits &= 0xffff0000u;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace redteam
