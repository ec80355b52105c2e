// daemon/ops/cross_entropy/cases.cpp — cross_entropy's test cases (ops/op_cases.hpp). Targets
// are class indices (Sample::class_indices); the values are PyTorch's, computed on the CPU in
// float64 with torch.nn.functional.cross_entropy (torch 2.11).
#include "ops/op_cases.hpp"

#include <cmath>

namespace kbv::ops::cross_entropy {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"kernelbench_like", {{64, 4096}, {64}}, {}, {{1, 4096}}},  // 1024 threads a row, 4 classes each
                   {"odd_classes", {{37, 999}, {37}}, {}, {{1, 999}}},          // a partial last warp
                   {"few_classes", {{300, 7}, {300}}, {}, {{1, 7}}},            // 32 threads, most idle
                   {"one_row", {{1, 50}, {1}}, {}, {{1, 50}}},
                   // The CUDA baseline's block-per-row kernel (rows of up to 8192 logits, a multiple of 4):
                   // its widest row, one a vector past a power of two (masked float4s), and one past its reach.
                   {"resident_widest", {{5, 8192}, {5}}, {}, {{1, 8192}}},
                   {"resident_masked", {{6, 4100}, {6}}, {}, {{1, 4100}}},
                   {"beyond_resident", {{3, 8196}, {3}}, {}, {{1, 8196}}}};
  cases.shapes = {{{{4, 10}, {4}}, {}, {}}, {{{1, 1}, {1}}, {}, {}}};
  cases.rejects = {{{{10}, {1}}, {}, "[N, C]"},
                   {{{4, 10}, {10}}, {}, "expected targets of shape [4]"},
                   {{{4, 10}, {4, 1}}, {}, "expected targets of shape [4]"},
                   {{{2, 4, 10}, {2, 10}}, {}, "the K-dimensional form is not supported"}};
  cases.costs = {{{{32768, 4096}, {32768}}, {}, 32768.0 * 4096.0}};
  cases.values = {
      {"rows [1, 2, 3] target 2 and [1, 1, 1] target 0", {{2, 3}, {2}}, {{1, 2, 3, 1, 1, 1}, {2, 0}}, {}, {0.7531091265562451}},
      {"logits near 1000 and ±1000: the row max is subtracted", {{2, 3}, {2}}, {{1001, 1002, 1003, -1000, 0, 1000}, {0, 2}}, {},
       {1.2038029822221903}},
      {"one row of four classes, target 1", {{1, 4}, {1}}, {{0.5, -1.0, 2.0, 0.0}, {1}}, {}, {3.342349582389822}},
      {"one class: the loss is 0", {{2, 1}, {2}}, {{3.0, -2.0}, {0, 0}}, {}, {0.0}},
      {"a target outside [0, C) gives NaN (PyTorch raises)", {{1, 3}, {1}}, {{1, 2, 3}, {3}}, {}, {NAN}}};
  return cases;
}

}  // namespace kbv::ops::cross_entropy
