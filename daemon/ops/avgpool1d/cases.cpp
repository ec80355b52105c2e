// daemon/ops/avgpool1d/cases.cpp — avgpool1d's test cases (ops/op_cases.hpp). Expected values
// are PyTorch 2.11's torch.nn.functional.avg_pool1d on the CPU in float64.
#include "ops/op_cases.hpp"

namespace kbv::ops::avgpool1d {

OpCases cases() {
  OpCases cases;
  const Attrs l1_44 = {{"kernel", 8}, {"stride", 1}, {"padding", 4}};
  const Attrs k3_s2_p1 = {{"kernel", 3}, {"stride", 2}, {"padding", 1}};
  const Attrs k3_s2_p1_ceil = {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", 1}};
  Attrs k3_s2_p1_ceil_exclude = k3_s2_p1_ceil;
  k3_s2_p1_ceil_exclude["count_include_pad"] = 0;
  cases.samples = {{"k8_s1_p4", {{2, 3, 100}}, l1_44},  // KernelBench L1 #44's geometry
                   {"defaults", {{2, 3, 9}}, {}},
                   {"k3_s2_p1_ceil", {{2, 3, 10}}, k3_s2_p1_ceil},
                   {"k3_s2_p1_ceil_exclude_pad", {{2, 3, 10}}, k3_s2_p1_ceil_exclude},
                   {"k4_s3_exclude_pad", {{1, 2, 31}}, {{"kernel", 4}, {"stride", 3}, {"padding", 2}, {"count_include_pad", 0}}}};
  cases.shapes = {{{{64, 128, 65536}}, l1_44, {64, 128, 65537}},
                  {{{1, 1, 6}}, k3_s2_p1_ceil, {1, 1, 4}},
                  {{{1, 1, 6}}, k3_s2_p1, {1, 1, 3}}};
  cases.rejects = {{{{1, 1, 8}}, {{"kernel", 3}, {"padding", 2}}, "expected padding <= kernel/2 (1)"},
                   {{{1, 1, 2}}, {{"kernel", 3}}, "does not fit the input's size 2"},
                   {{{1, 1, 4, 8}}, {}, "expected rank 3 [N, C, L]"},
                   {{{1, 1, 8}}, {{"count_include_pad", 0.5}}, "expected 0 (false) or 1 (true)"}};
  cases.costs = {{{{64, 128, 65536}}, l1_44, 64.0 * 128 * 65537},  // one divide per output
                 {{{1, 1, 6}}, k3_s2_p1_ceil, 4.0}};
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  cases.values = {
      {"count_include_pad divides by the kernel at the edges", {{1, 1, 6}}, {x}, k3_s2_p1, {1, 3, 5}},
      {"without count_include_pad, by the taps inside", {{1, 1, 6}}, {x},
       {{"kernel", 3}, {"stride", 2}, {"padding", 1}, {"count_include_pad", 0}}, {1.5, 3, 5}},
      {"ceil_mode: the last window, clipped to the padded input, counts 2", {{1, 1, 6}}, {x}, k3_s2_p1_ceil,
       {1, 3, 5, 3}},
      {"ceil_mode without count_include_pad", {{1, 1, 6}}, {x}, k3_s2_p1_ceil_exclude, {1.5, 3, 5, 6}},
      {"k4 s1 p2: windows over both paddings", {{1, 1, 6}}, {x}, {{"kernel", 4}, {"stride", 1}, {"padding", 2}},
       {0.75, 1.5, 2.5, 3.5, 4.5, 3.75, 2.75}},
      {"ceil_mode without padding: a window past the input counts its one tap", {{1, 1, 5}}, {{1, 2, 3, 4, 5}},
       {{"kernel", 2}, {"stride", 2}, {"ceil_mode", 1}}, {1.5, 3.5, 5}}};
  return cases;
}

}  // namespace kbv::ops::avgpool1d
