// daemon/ops/unsqueeze/cases.cpp — unsqueeze's test cases (ops/op_cases.hpp). Every sample is
// one in-order copy: the CUDA baseline's cudaMemcpyAsync, the reference's rank-1 strided copy.
#include "ops/op_cases.hpp"

namespace kbv::ops::unsqueeze {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"middle", {{8, 50}}, {{"axis", 1}}},  // KernelBench L1 #12's A.unsqueeze(1)
                   {"end", {{3, 4, 5}}, {{"axis", -1}}},
                   {"front", {{70}}, {}}};
  cases.shapes = {{{{3, 4}}, {{"axis", 2}}, {3, 4, 1}},
                  {{{3, 4}}, {{"axis", -1}}, {3, 4, 1}},
                  {{{3, 4}}, {{"axis", -3}}, {1, 3, 4}},
                  {{{3, 4}}, {{"axis", 1}}, {3, 1, 4}},
                  {{{3, 4}}, {}, {1, 3, 4}}};
  cases.rejects = {{{{3, 4}}, {{"axis", 3}}, "expected an axis in [-3, 2] of the rank-3 output"},
                   {{{3, 4}}, {{"axis", -4}}, "expected an integer >= -3"},
                   {{{1, 1, 1, 1, 1, 1, 1, 2}}, {}, "(rank 9); expected rank at most 8"}};
  cases.costs = {{{{4096}}, {{"axis", 1}}, 0}};
  // torch.arange(1, 7).reshape(2, 3).unsqueeze(-1): the elements keep their order.
  cases.values = {
      {"a trailing axis of 1", {{2, 3}}, {{1, 2, 3, 4, 5, 6}}, {{"axis", -1}}, {1, 2, 3, 4, 5, 6}}};
  return cases;
}

}  // namespace kbv::ops::unsqueeze
