// daemon/ops/rmsnorm/cases.cpp — rmsnorm's test cases (ops/op_cases.hpp).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::rmsnorm {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"columns", {{4, 16, 8, 8}}, {}},                           // axis 1, inner 64
                   {"narrow_columns", {{5, 10, 3}}, {{"axis", 1}}},             // inner 3: lines
                   {"rows", {{8, 256}}, {{"axis", -1}, {"eps", 1e-5}}},         // float4 rows
                   {"odd_rows", {{7, 100}}, {{"axis", -1}, {"eps", 1e-6}}},
                   {"four_dims", {{3, 16, 4, 5}}, {{"axis", 1}}},
                   // extent 64 fills the cached column kernel's registers; 65 takes the two-read one
                   {"cached_columns_full", {{2, 64, 300}}, {{"axis", 1}}},
                   {"long_columns", {{2, 65, 40}}, {{"axis", 1}}},
                   // inner a multiple of 128: the float4 column kernel, full and with a short last group
                   {"float4_columns", {{3, 64, 256}}, {{"axis", 1}}},
                   {"float4_columns_short", {{2, 37, 128}}, {{"axis", 1}}}};
  cases.shapes = {{{{112, 64, 512, 512}}, {}, {112, 64, 512, 512}}};
  cases.rejects = {{{{4}}, {}, "expected an axis in [-1, 0]"},
                   {{{4, 4}}, {{"eps", -1e-5}}, "eps >= 0"}};
  cases.costs = {{{{112, 64, 512, 512}}, {}, 3.0 * 112 * 64 * 512 * 512}};
  // x[1, 2, 2]: channel pairs (3, 4) and (0, 1) normalised over axis 1.
  const double rms_a = std::sqrt(12.5 + 1e-5), rms_b = std::sqrt(0.5 + 1e-5);
  cases.values = {{"divides by the RMS along axis 1", {{1, 2, 2}}, {{3, 0, 4, 1}}, {},
                   {3 / rms_a, 0 / rms_b, 4 / rms_a, 1 / rms_b}}};
  return cases;
}

}  // namespace kbv::ops::rmsnorm
