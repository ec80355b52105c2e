// daemon/ops/log_softmax/cases.cpp — log_softmax's test cases (ops/op_cases.hpp). Expected values
// from torch.log_softmax in float64 (PyTorch 2.11, CPU).
#include "ops/op_cases.hpp"

namespace kbv::ops::log_softmax {

OpCases cases() {
  OpCases cases = softmax_like_cases();
  // Rows the CUDA baseline holds on chip (softmax_resident_f32.cuh): full, and with empty lanes.
  cases.samples.push_back({"resident_rows", {{9, 65536}}, {{"axis", 1}}});
  cases.samples.push_back({"resident_partial_rows", {{6, 20000}}, {{"axis", -1}}});
  cases.costs = {{{{4096, 65536}}, {{"axis", 1}}, 2.0 * 4096 * 65536}};  // 2 per element
  const std::vector<double> expected = {-2.4076059644443806, -1.4076059644443804, -0.4076059644443804};
  cases.values = {{"log_softmax of 1, 2, 3", {{3}}, {{1, 2, 3}}, {}, expected},
                  {"shifted by 1000: exp would overflow without subtracting the max", {{3}},
                   {{1001, 1002, 1003}}, {}, expected},
                  {"along axis 0", {{2, 2}}, {{1, 5, 2, 5}}, {{"axis", 0}},
                   {-1.3132616875182228, -0.6931471805599453, -0.31326168751822286, -0.6931471805599453}}};
  return cases;
}

}  // namespace kbv::ops::log_softmax
