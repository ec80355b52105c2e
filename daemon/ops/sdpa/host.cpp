// daemon/ops/sdpa/host.cpp — sdpa's host face: fp64 reference and fp32 host baseline, the three
// steps of PyTorch's math path per batch (scores = q·kᵀ·scale, a row softmax over the keys each
// query sees, scores·v), shape inference and cost.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/common/products.hpp"
#include "ops/op_support.hpp"
#include "ops/sdpa/sdpa.hpp"
#include "ops/sdpa/sdpa_geometry.hpp"

namespace kbv::ops::sdpa {
namespace {

using namespace op_support;

class SdpaOp final : public DefinedOp<SdpaOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    return sdpa_geometry(name(), inputs, attrs).output;
  }

  // Per unmasked (i, j): E multiply-adds for the score and Ev for its share of the output.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs& attrs) const override {
    const SdpaGeometry g = sdpa_geometry(name(), inputs, attrs);
    return 2.0 * static_cast<double>(g.batch) * static_cast<double>(unmasked_pairs(g)) *
           static_cast<double>(g.e + g.ev);
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const SdpaGeometry g = sdpa_geometry(name(), args.input_shapes, attrs_of(args));
    const auto scale = static_cast<T>(g.scale);
    std::vector<T> scores(static_cast<size_t>(g.l * g.s));
    for (int64_t b = 0; b < g.batch; ++b) {
      gemm_transposed(args.inputs[0] + b * g.l * g.e, args.inputs[1] + b * g.s * g.e, scores.data(),
                      g.l, g.e, g.s, false, true);
      for (int64_t i = 0; i < g.l; ++i) {
        T* row = scores.data() + i * g.s;
        const int64_t keys = keys_of_row(g, i);
        T peak = -std::numeric_limits<T>::infinity();
        for (int64_t j = 0; j < keys; ++j) peak = std::max(peak, row[j] * scale);
        T sum = T(0);
        for (int64_t j = 0; j < keys; ++j) {
          row[j] = std::exp(row[j] * scale - peak);
          sum += row[j];
        }
        for (int64_t j = 0; j < keys; ++j) row[j] /= sum;
        std::fill(row + keys, row + g.s, T(0));
      }
      gemm_transposed(scores.data(), args.inputs[2] + b * g.s * g.ev, args.output + b * g.l * g.ev,
                      g.l, g.s, g.ev, false, false);
    }
  }
};

}  // namespace

const Op& host_op() {
  static const SdpaOp op;
  return op;
}

}  // namespace kbv::ops::sdpa
