// ops/sdpa/sdpa_geometry.hpp — an sdpa application's sizes as every face needs them, from its
// shapes and attributes (shape inference's checks included). Host code only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_support.hpp"

namespace kbv::ops::sdpa {

struct SdpaGeometry {
  int64_t batch = 1;  // ΠB, the product of the shared leading axes
  int64_t l = 0, s = 0, e = 0, ev = 0;
  double scale = 0;   // resolved: 1/√E when the attribute is 0
  bool causal = false;
  Shape output;       // q's shape with its last axis Ev
};

// Throws OpError naming the input and the rule it breaks.
inline SdpaGeometry sdpa_geometry(std::string_view op, const std::vector<Shape>& inputs,
                                  const Attrs& attrs) {
  using namespace op_support;
  check_input_count(op, "q, k, v", inputs, 3, 3);
  check_dims_positive(op, inputs);
  const Shape& q = inputs[0];
  const Shape& k = inputs[1];
  const Shape& v = inputs[2];
  const auto name = [&](size_t i) { return std::string(i == 0 ? "q" : i == 1 ? "k" : "v"); };
  for (size_t i = 0; i < 3; ++i)
    if (inputs[i].size() < 2)
      throw OpError(std::string(op) + ": " + name(i) + " has shape " + to_string(inputs[i]) +
                    "; expected rank >= 2 ([..., L, E], [..., S, E], [..., S, Ev])");
  for (size_t i = 1; i < 3; ++i)
    if (inputs[i].size() != q.size() || !std::equal(q.begin(), q.end() - 2, inputs[i].begin()))
      throw OpError(std::string(op) + ": q has shape " + to_string(q) + " and " + name(i) +
                    " has shape " + to_string(inputs[i]) +
                    "; expected the same leading (batch) axes (no broadcasting)");
  if (k.back() != q.back())
    throw OpError(std::string(op) + ": q has shape " + to_string(q) + " and k has shape " +
                  to_string(k) + "; expected k.shape[-1] == q.shape[-1] (E)");
  if (v[v.size() - 2] != k[k.size() - 2])
    throw OpError(std::string(op) + ": k has shape " + to_string(k) + " and v has shape " +
                  to_string(v) + "; expected v.shape[-2] == k.shape[-2] (S)");
  SdpaGeometry g;
  for (size_t d = 0; d + 2 < q.size(); ++d) g.batch *= q[d];
  g.l = q[q.size() - 2], g.e = q.back(), g.s = k[k.size() - 2], g.ev = v.back();
  // The score matrix, L×S per batch, is a tensor of the computation too: bounded as tensors are,
  // so its size and the flops count never overflow (review: L·S wrapped to INT64_MIN).
  (void)bounded_product(op, "L*S (the score matrix)", g.l, g.s);
  g.causal = flag_attr(op, attrs, "is_causal", 0);
  const double scale = real_attr(op, attrs, "scale", 0);
  g.scale = scale != 0 ? scale : 1.0 / std::sqrt(static_cast<double>(g.e));
  g.output = q;
  g.output.back() = g.ev;
  return g;
}

// Query row i of a causal product attends to keys 0 … i (top-left aligned): min(i + 1, S) of them.
inline int64_t keys_of_row(const SdpaGeometry& g, int64_t i) {
  return g.causal ? std::min(i + 1, g.s) : g.s;
}

// The (i, j) pairs the softmax weighs, per batch.
inline int64_t unmasked_pairs(const SdpaGeometry& g) {
  if (!g.causal) return g.l * g.s;
  const int64_t full = std::max<int64_t>(0, g.l - g.s);    // rows past S attend to every key
  const int64_t ramp = g.l - full;                         // rows 0 … min(L, S) − 1: i + 1 keys
  return ramp * (ramp + 1) / 2 + full * g.s;
}

}  // namespace kbv::ops::sdpa
