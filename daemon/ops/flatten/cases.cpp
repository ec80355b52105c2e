// daemon/ops/flatten/cases.cpp — flatten's test cases (ops/op_cases.hpp). Every sample is one
// in-order copy: the CUDA baseline's cudaMemcpyAsync, the reference's rank-1 strided copy.
#include "ops/op_cases.hpp"

namespace kbv::ops::flatten {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"middle", {{4, 6, 5, 7}}, {{"start_axis", 1}, {"end_axis", 2}}},
                   {"all", {{3, 4, 5}}, {}},
                   {"trailing", {{2, 3, 16, 16}}, {{"start_axis", -2}}}};
  cases.shapes = {{{{2, 3, 4, 5}}, {{"start_axis", 1}, {"end_axis", 2}}, {2, 12, 5}},
                  {{{2, 3, 4, 5}}, {}, {120}},
                  {{{2, 3, 4, 5}}, {{"start_axis", 1}}, {2, 60}},  // nn.Flatten
                  {{{2, 3, 4, 5}}, {{"start_axis", -2}}, {2, 3, 20}},
                  {{{2, 3}}, {{"start_axis", 1}, {"end_axis", 1}}, {2, 3}}};
  cases.rejects = {{{{2, 3, 4}},
                    {{"start_axis", 2}, {"end_axis", 1}},
                    "expected start_axis at or before end_axis"},
                   {{{2, 3}}, {{"end_axis", 2}}, "expected an axis in [-2, 1]"},
                   {{{1, 1, 1, 1, 1, 1, 1, 1, 2}}, {}, "expected rank at most 8"}};
  cases.costs = {{{{16, 64, 256, 256}}, {{"start_axis", 1}}, 0}};
  // torch.flatten(torch.arange(1, 13).reshape(2, 2, 3), 1, 2): the elements keep their order.
  cases.values = {{"axes 1..2 merged, the order kept",
                   {{2, 2, 3}},
                   {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
                   {{"start_axis", 1}, {"end_axis", 2}},
                   {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}};
  return cases;
}

}  // namespace kbv::ops::flatten
