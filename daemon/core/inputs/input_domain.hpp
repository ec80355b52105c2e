// inputs/input_domain.hpp — the values an input may take, as the ops reading it declare them
// (Op::input_domain): the families draw every value inside it, on the host and the device alike.
#pragma once

#include <cstdint>

#include "inputs/philox.hpp"

namespace kbv::inputs {

// any: the family's values as drawn. nonnegative: their magnitudes |v| (log, sqrt, a fractional
// pow are NaN below 0: a family of negative values would leave such a problem nothing to check).
// |v| keeps each family's scale, structure and exact zeros (log 0 = −inf on both sides, which the
// comparison takes as agreement).
enum class InputDomain : uint8_t { any, nonnegative };

template <class Real>
KBV_HD inline Real within_domain(InputDomain domain, Real value) {
  return domain == InputDomain::nonnegative && value < Real(0) ? -value : value;
}

}  // namespace kbv::inputs
