// daemon/ops/stack/cases.cpp — stack's test cases (ops/op_cases.hpp): the new axis first (whole
// inputs one after another), in the middle (rows interleaved), last (elements interleaved, an
// output stride of the input count), and 20 inputs (two launches of the CUDA kernels' batches).
#include "ops/op_cases.hpp"

namespace kbv::ops::stack {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"axis0", {{4, 50}, {4, 50}, {4, 50}}, {}},
                   {"middle", {{6, 7}, {6, 7}}, {{"axis", 1}}},
                   {"last", {{5, 9}, {5, 9}, {5, 9}, {5, 9}}, {{"axis", -1}}},
                   {"twenty_inputs", std::vector<Shape>(20, {3, 5}), {{"axis", 1}}}};
  cases.shapes = {{{{2, 3}, {2, 3}}, {}, {2, 2, 3}},
                  {{{2, 3}, {2, 3}, {2, 3}}, {{"axis", -1}}, {2, 3, 3}},
                  {{{2, 3}, {2, 3}}, {{"axis", 2}}, {2, 3, 2}},
                  {{{2, 3}, {2, 3}}, {{"axis", -3}}, {2, 2, 3}}};
  cases.rejects = {{{{2, 3}, {3, 2}}, {}, "expected every input to have the same shape"},
                   {{{2, 3}, {2, 3}}, {{"axis", 3}}, "expected an axis in [-3, 2]"},
                   {{{1, 1, 1, 1, 1, 1, 1, 2}, {1, 1, 1, 1, 1, 1, 1, 2}}, {}, "(rank 9)"}};
  cases.costs = {{{{64, 128}, {64, 128}}, {{"axis", 1}}, 0}};
  // From PyTorch: torch.stack([torch.tensor([1., 2.]), torch.tensor([3., 4.])], 1), the same
  // along axis 0, and two 2 x 2 matrices stacked along axis 1.
  cases.values = {
      {"along a new last axis", {{2}, {2}}, {{1, 2}, {3, 4}}, {{"axis", 1}}, {1, 3, 2, 4}},
      {"along a new first axis", {{2}, {2}}, {{1, 2}, {3, 4}}, {}, {1, 2, 3, 4}},
      {"matrices along axis 1",
       {{2, 2}, {2, 2}},
       {{1, 2, 3, 4}, {5, 6, 7, 8}},
       {{"axis", 1}},
       {1, 2, 5, 6, 3, 4, 7, 8}}};
  return cases;
}

}  // namespace kbv::ops::stack
