// daemon/ops/unflatten/cases.cpp — unflatten's test cases (ops/op_cases.hpp). Every sample is
// one in-order copy: the CUDA baseline's cudaMemcpyAsync, the reference's rank-1 strided copy.
#include "ops/op_cases.hpp"

namespace kbv::ops::unflatten {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"leading", {{4, 60, 5}}, {{"axis", 1}, {"size", 4}}},
                   {"trailing", {{6, 49}}, {{"axis", -1}, {"size", -7}}}};
  cases.shapes = {{{{2, 12, 5}}, {{"axis", 1}, {"size", 3}}, {2, 3, 4, 5}},
                  {{{2, 12}}, {{"axis", 1}, {"size", -3}}, {2, 4, 3}},
                  {{{2, 12}}, {{"axis", -1}, {"size", -12}}, {2, 1, 12}},
                  {{{8}}, {}, {1, 8}}};
  cases.rejects = {{{{2, 12}}, {{"axis", 1}, {"size", 5}}, "whose magnitude divides the extent"},
                   {{{2, 12}}, {{"axis", 1}, {"size", 0}}, "expected a nonzero size"},
                   {{{2, 12}}, {{"axis", 1}, {"size", 2.5}}, "expected an integer"},
                   {{{2, 12}}, {{"axis", 2}}, "expected an axis in [-2, 1]"},
                   {{{1, 1, 1, 1, 1, 1, 1, 4}},
                    {{"axis", -1}, {"size", 2}},
                    "the output has shape [1, 1, 1, 1, 1, 1, 1, 2, 2] (rank 9)"}};
  cases.costs = {{{{16, 64, 4096}}, {{"axis", 2}, {"size", -64}}, 0}};
  // torch.unflatten(torch.arange(1, 13).reshape(2, 6), 1, (-1, 3)) and
  // torch.unflatten(torch.arange(1, 7), 0, (2, -1)): the elements keep their order.
  cases.values = {
      {"size -3: [2, 6] as [2, 2, 3]",
       {{2, 6}},
       {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
       {{"axis", 1}, {"size", -3}},
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
      {"size 2: [6] as [2, 3]", {{6}}, {{1, 2, 3, 4, 5, 6}}, {{"size", 2}}, {1, 2, 3, 4, 5, 6}}};
  return cases;
}

}  // namespace kbv::ops::unflatten
