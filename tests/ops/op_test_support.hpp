// tests/ops/op_test_support.hpp — running one op on host buffers from a test, and random data.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/registry.hpp"

namespace kbv::test {

// The op called `name`; fails the test (and returns a usable reference) when missing.
inline const Op& op_named(const std::string& name) {
  const Op* op = find_op(name);
  if (!op) throw std::runtime_error("no op named " + name);
  return *op;
}

// Runs `op` in T on inputs given as vectors, inferring the output shape.
template <class T>
std::vector<T> run_op(const Op& op, const std::vector<Shape>& shapes,
                      const std::vector<std::vector<T>>& data, const Attrs& attrs = {}) {
  OpArgs<T> args;
  args.input_shapes = shapes;
  for (const auto& tensor : data) args.inputs.push_back(tensor.data());
  args.output_shape = op.infer_shape(shapes, attrs);
  std::vector<T> output(static_cast<size_t>(numel(args.output_shape)),
                        std::numeric_limits<T>::quiet_NaN());
  args.output = output.data();
  args.attrs = &attrs;
  if constexpr (std::is_same_v<T, double>)
    op.reference_f64(args);
  else
    op.baseline_f32(args);
  return output;
}

// Normal(0, 1) values rounded to float, so the fp32 and fp64 runs see identical inputs.
inline std::vector<float> random_floats(const Shape& shape, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::vector<float> values(static_cast<size_t>(numel(shape)));
  for (float& v : values) v = static_cast<float>(normal(rng));
  return values;
}

inline std::vector<double> widen(const std::vector<float>& values) {
  return {values.begin(), values.end()};
}

// ||a - b||_2 / ||b||_2.
inline double relative_l2(const std::vector<float>& a, const std::vector<double>& b) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    diff += (a[i] - b[i]) * (a[i] - b[i]);
    norm += b[i] * b[i];
  }
  return std::sqrt(diff / norm);
}

}  // namespace kbv::test
