// daemon/ops/squeeze/cases.cpp — squeeze's test cases (ops/op_cases.hpp). Every sample is one
// in-order copy: the CUDA baseline's cudaMemcpyAsync, the reference's rank-1 strided copy (rank
// 0 for a one-element tensor).
#include "ops/op_cases.hpp"

namespace kbv::ops::squeeze {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"middle", {{8, 1, 50}}, {{"axis", 1}}},
                   {"last", {{30, 1}}, {{"axis", -1}}},
                   {"to_rank_0", {{1}}, {}}};
  cases.shapes = {{{{3, 1, 4}}, {{"axis", 1}}, {3, 4}},
                  {{{3, 1, 4}}, {{"axis", -2}}, {3, 4}},
                  {{{1, 5}}, {}, {5}},
                  {{{1}}, {}, {}}};
  cases.rejects = {{{{3, 2}}, {{"axis", 1}}, "has extent 2; expected an axis of extent 1"},
                   {{{3, 1}}, {{"axis", 2}}, "expected an axis in [-2, 1]"}};
  cases.costs = {{{{128, 1, 4096}}, {{"axis", 1}}, 0}};
  // torch.arange(1, 5).reshape(2, 1, 2).squeeze(1): the elements keep their order.
  cases.values = {
      {"the middle axis of 1 removed", {{2, 1, 2}}, {{1, 2, 3, 4}}, {{"axis", 1}}, {1, 2, 3, 4}}};
  return cases;
}

}  // namespace kbv::ops::squeeze
