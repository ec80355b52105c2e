// daemon/ops/transpose/cases.cpp — transpose's test cases (ops/op_cases.hpp): strided copies of
// rank 2 and 3 (the last two axes, two outer axes around a contiguous row) and one whose merged
// box is a single run (an axis of extent 1: the CUDA baseline's cudaMemcpyAsync).
#include "ops/op_cases.hpp"

namespace kbv::ops::transpose {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"last_two", {{4, 24, 33}}, {{"axis0", -1}, {"axis1", -2}}},
                   {"outer", {{6, 5, 40}}, {}},
                   {"matrix", {{33, 65}}, {}},
                   {"unit_axis", {{1, 30, 40}}, {}}};
  cases.shapes = {{{{2, 3, 4}}, {}, {3, 2, 4}},
                  {{{2, 3, 4}}, {{"axis0", -1}, {"axis1", 0}}, {4, 3, 2}},
                  {{{2, 3, 4}}, {{"axis0", 1}, {"axis1", 1}}, {2, 3, 4}}};
  cases.rejects = {{{{2, 3}}, {{"axis1", 2}}, "expected an axis in [-2, 1]"},
                   {{{5}}, {}, "attribute axis1 is 1 for an input of rank 1"}};
  cases.costs = {{{{4096, 4096}}, {}, 0}};
  // From PyTorch: torch.arange(1, 7.).reshape(2, 3).transpose(0, 1) and
  // torch.arange(1, 9.).reshape(2, 2, 2).transpose(0, 2), flattened.
  cases.values = {{"a 2 x 3 matrix", {{2, 3}}, {{1, 2, 3, 4, 5, 6}}, {}, {1, 4, 2, 5, 3, 6}},
                  {"the outer and inner axes of a cube",
                   {{2, 2, 2}},
                   {{1, 2, 3, 4, 5, 6, 7, 8}},
                   {{"axis0", 0}, {"axis1", 2}},
                   {1, 5, 3, 7, 2, 6, 4, 8}}};
  return cases;
}

}  // namespace kbv::ops::transpose
