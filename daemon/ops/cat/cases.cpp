// daemon/ops/cat/cases.cpp — cat's test cases (ops/op_cases.hpp): slabs along a middle axis
// (merged rank-2 copies), whole inputs one after another along axis 0 (rank-1 copies), the last
// axis, and 40 and 64 inputs (3 and 4 launches of the CUDA kernels' 16-copy batches).
#include "ops/cat/cat.hpp"
#include "ops/op_cases.hpp"

namespace kbv::ops::cat {

OpCases cases() {
  OpCases cases;
  cases.samples = {
      {"middle_axis", {{2, 3, 5}, {2, 4, 5}, {2, 1, 5}}, {{"axis", 1}}},
      {"axis0", {{3, 7}, {5, 7}}, {}},
      {"last_axis", {{4, 3}, {4, 5}}, {{"axis", -1}}},
      {"forty_inputs", std::vector<Shape>(40, {2, 3, 4}), {{"axis", 1}}},
      {"sixty_four_inputs", std::vector<Shape>(kMaxCatInputs, {2, 1, 3}), {{"axis", 1}}}};
  cases.shapes = {{{{2, 3}, {2, 5}}, {{"axis", 1}}, {2, 8}},
                  {{{2, 3}, {4, 3}, {1, 3}}, {}, {7, 3}},
                  {{{2, 3, 4}, {2, 3, 1}}, {{"axis", -1}}, {2, 3, 5}}};
  cases.rejects = {{{{2, 3}, {3, 4}},
                    {{"axis", 1}},
                    "input 1 has shape [3, 4] and input 0 [2, 3]; expected equal ranks and equal "
                    "dims except along axis 1"},
                   {{{2, 3}, {2, 3, 1}}, {}, "expected equal ranks"},
                   {{{2, 3}, {2, 3}}, {{"axis", 2}}, "expected an axis in [-2, 1]"}};
  cases.costs = {{{{8, 32, 64, 64}, {8, 32, 64, 64}}, {{"axis", 1}}, 0}};
  // From PyTorch: torch.cat([torch.arange(1, 5.).reshape(2, 2), torch.tensor([[5.], [6.]])], 1)
  // and torch.cat([torch.tensor([[1., 2.]]), torch.arange(3, 7.).reshape(2, 2)], 0).
  cases.values = {
      {"columns appended",
       {{2, 2}, {2, 1}},
       {{1, 2, 3, 4}, {5, 6}},
       {{"axis", 1}},
       {1, 2, 5, 3, 4, 6}},
      {"rows appended", {{1, 2}, {2, 2}}, {{1, 2}, {3, 4, 5, 6}}, {}, {1, 2, 3, 4, 5, 6}}};
  return cases;
}

}  // namespace kbv::ops::cat
