// daemon/ops/select/cases.cpp — select's test cases (ops/op_cases.hpp): a strided slab, a
// column (one element per row), a contiguous first slab (the CUDA baseline's cudaMemcpyAsync)
// and one element of a vector (a rank-0 copy at an offset).
#include "ops/op_cases.hpp"

namespace kbv::ops::select {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"middle_axis", {{5, 12, 33}}, {{"axis", 1}, {"index", 3}}},
                   {"last_column", {{40, 70}}, {{"axis", -1}, {"index", -1}}},
                   {"first_slab", {{6, 8, 9}}, {}},
                   {"one_element", {{7}}, {{"index", 4}}}};
  cases.shapes = {{{{3, 4, 5}}, {{"axis", 1}, {"index", 2}}, {3, 5}},
                  {{{3, 4, 5}}, {{"axis", -1}, {"index", -5}}, {3, 4}},
                  {{{3}}, {}, {}}};
  cases.rejects = {{{{3, 4}}, {{"axis", 1}, {"index", 4}}, "expected an index in [-4, 3]"},
                   {{{3, 4}}, {{"axis", 1}, {"index", -5}}, "expected an integer >= -4"},
                   {{{3, 4}}, {{"axis", 2}}, "expected an axis in [-2, 1]"}};
  cases.costs = {{{{3, 197, 768}}, {{"index", 0}}, 0}};
  // From PyTorch: torch.arange(1, 7.).reshape(2, 3).select(1, -1) and .select(0, 1).
  cases.values = {
      {"the last column", {{2, 3}}, {{1, 2, 3, 4, 5, 6}}, {{"axis", 1}, {"index", -1}}, {3, 6}},
      {"the second row", {{2, 3}}, {{1, 2, 3, 4, 5, 6}}, {{"index", 1}}, {4, 5, 6}}};
  return cases;
}

}  // namespace kbv::ops::select
