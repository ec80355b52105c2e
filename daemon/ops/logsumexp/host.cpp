// daemon/ops/logsumexp/host.cpp — logsumexp's host face: fp64 reference and fp32 host baseline
// (two passes of reduce_lines: the max, then Σ exp(x − max)), shape inference and cost.
#include <cmath>
#include <vector>

#include "ops/common/extreme.hpp"
#include "ops/logsumexp/logsumexp.hpp"

namespace kbv::ops::logsumexp {
namespace {

class LogSumExpOp final : public AxisReductionOp<LogSumExpOp, Definition> {
 public:
  // As torch.logsumexp: the max m, then m + log(Σ exp(x − m)); a non-finite m (every element
  // −inf, a +inf, a NaN) is the result, where PyTorch's masked shift gives the same.
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    std::vector<T> shift(static_cast<size_t>(split.outer * split.inner));
    reduce_extreme<true>(x, shift.data(), split);
    reduce_lines(
        x, y, split, T(0),
        [&shift](T& sum, T value, int64_t line) { sum += std::exp(value - shift[static_cast<size_t>(line)]); },
        [&shift](T sum, int64_t line) {
          const T m = shift[static_cast<size_t>(line)];
          return std::isfinite(m) ? m + std::log(sum) : m;
        });
  }
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)));
  }
};

}  // namespace

const Op& host_op() {
  static const LogSumExpOp op;
  return op;
}

}  // namespace kbv::ops::logsumexp
