// ops/op_cases.hpp — the test cases each op folder provides in its cases.cpp, as PyTorch's OpInfo
// records drive its generic op tests. The generic suites run every op through its own cases:
//   tests/ops/op_cases_test.cpp              shapes, rejections, cost, hand values, host fp32
//                                            baseline against the fp64 reference
//   tests/cuda/data/reference_ops_test.cpp   CUDA fp64 reference against the host's (gpu)
//   tests/cuda/measure/baseline_ops_test.cpp CUDA TF32 and FP32 baselines against it (gpu)
// Library kbv_op_cases (tests only). Each op folder defines `OpCases kbv::ops::<name>::cases()`.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op.hpp"

namespace kbv::ops {

// Random inputs of these shapes (attributes: the defaults overridden by `attrs`) for the three
// comparisons against the fp64 reference. Choose shapes that reach each kernel path of the op's
// CUDA faces (vector and scalar, rows and columns, fused and split); a few thousand elements
// each, so the host fp64 reference stays instant.
struct Sample {
  std::string label;  // [a-z0-9_], unique within the op; tests are named <op>_<label>
  std::vector<Shape> inputs;
  Attrs attrs;
  // Inputs that hold class indices (an int64 input, as the trusted side reads it widened):
  // input position → the number of classes. The suites turn their random values for it into
  // whole numbers in [0, classes) with make_class_indices().
  std::map<size_t, int64_t> class_indices = {};
};

// The suites' random values for input `input` of `sample`, turned into class indices where the
// sample says so: v becomes ⌊frac(|v|·1024)·classes⌋, a whole number in [0, classes) that
// depends only on v (the fp32 and fp64 copies of one draw agree). Other inputs are left as they are.
template <class T>
void make_class_indices(const Sample& sample, size_t input, std::vector<T>& values) {
  const auto found = sample.class_indices.find(input);
  if (found == sample.class_indices.end()) return;
  for (T& value : values) {
    const double scaled = std::fabs(static_cast<double>(value)) * 1024.0;
    const auto index = static_cast<int64_t>((scaled - std::floor(scaled)) * static_cast<double>(found->second));
    value = static_cast<T>(std::min(index, found->second - 1));
  }
}

// infer_shape must give `output`.
struct ShapeCase {
  std::vector<Shape> inputs;
  Attrs attrs;
  Shape output;
};

// infer_shape must throw an OpError whose message starts with "<op>:" and contains `message`.
struct RejectCase {
  std::vector<Shape> inputs;
  Attrs attrs;
  std::string message;
};

// flops() must give exactly `flops` (a lower bound: it feeds the physical floor).
struct CostCase {
  std::vector<Shape> inputs;
  Attrs attrs;
  double flops;
};

// The fp64 reference on inputs worked out by hand (or from a closed form) must give `expected`
// within 1e-12 per element; a NaN expects a NaN. The CUDA fp64 reference must give it too.
struct ValueCase {
  std::string what;  // what the case shows, for failure messages
  std::vector<Shape> inputs;
  std::vector<std::vector<double>> data;
  Attrs attrs;
  std::vector<double> expected;
};

struct OpCases {
  std::vector<Sample> samples;
  std::vector<ShapeCase> shapes;
  std::vector<RejectCase> rejects;
  std::vector<CostCase> costs;
  std::vector<ValueCase> values;
};

struct NamedOpCases {
  std::string_view op;
  OpCases cases;
};

// Every op folder's cases, in the registry's order (built once).
const std::vector<NamedOpCases>& all_op_cases();

// Cases every one-input elementwise op shares: samples that reach the float4 path with and
// without a tail, shape and cost on KernelBench's relu size, NaN in gives NaN out.
OpCases unary_cases();
// The same for broadcasting two-input ops: same shapes, a channel bias, an outer product, a row,
// both operands broadcast, a one-element operand; broadcasting shapes and refusals.
OpCases binary_cases();
// Samples, shapes and refusals the reductions over adjacent axes share (sum, mean, amax, amin,
// logsumexp, norm): columns (inner > 1), rows (inner == 1, with and without float4), narrow
// columns, axis 0, two axes and every axis (`count`); `axis`, `count` and `keepdim` shapes.
OpCases axis_reduction_cases();
// The same for reductions along one axis that write an index (argmax, argmin): no `count`,
// keepdim 0 by default; refusals of an axis and of an extent past 2^24.
OpCases arg_reduction_cases();
// Samples, shapes and refusals softmax and log_softmax share: float4 and scalar rows, long rows,
// narrow and wide columns, axis 0.
OpCases softmax_like_cases();
// Samples, shapes, refusals and costs cumsum and cumprod share: rows in one chunk and in
// several (the CUDA baseline's block scan), reverse, exclusive, columns, axis 0.
OpCases scan_cases();
// Samples, shapes, refusals and costs tril and triu share: square, wide and tall matrices, a
// batch of them, diagonals above and below.
OpCases triangle_cases();

}  // namespace kbv::ops
