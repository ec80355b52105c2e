// baseline/kernel_steps.cpp — graph nodes run by kbv's own kernels, one kernel per node
// (two for layernorm over few long rows): softmax, rmsnorm, layernorm and maxpool2d. Where PyTorch eager needs several kernels for one kbv op (rmsnorm
// written as pow, mean, add, sqrt, div) the baseline runs one fused kernel: never slower than
// eager, so it cannot inflate a speedup.
#include <cmath>
#include <stdexcept>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "measure/kernels/kernels.hpp"

namespace kbv::cuda::measure {
namespace {

using kernels::AxisSplit;

size_t axis_index(const NodeContext& node, const std::string& name, size_t rank) {
  const double value = node.attr(name);
  const auto r = static_cast<double>(rank);
  if (value != std::floor(value) || value < -r || value >= r)
    throw std::invalid_argument(node.where() + ": " + name + " = " + std::to_string(value) +
                                " is not an axis of a rank-" + std::to_string(rank) + " input");
  return static_cast<size_t>(value < 0 ? value + r : value);
}

int int_attr(const NodeContext& node, const std::string& name, int min_value) {
  const double value = node.attr(name);
  if (value != std::floor(value) || value < min_value || value > 1e9)
    throw std::invalid_argument(node.where() + ": " + name + " = " + std::to_string(value) +
                                " must be an integer >= " + std::to_string(min_value));
  return static_cast<int>(value);
}

void require_inputs(const NodeContext& node, size_t low, size_t high, const char* signature) {
  const size_t count = node.input_shapes.size();
  if (count < low || count > high)
    throw std::invalid_argument(node.where() + ": expected inputs " + signature + ", got " +
                                std::to_string(count));
}

std::string split_text(const AxisSplit& s) {
  return "[outer=" + std::to_string(s.outer) + ", extent=" + std::to_string(s.extent) +
         ", inner=" + std::to_string(s.inner) + "]";
}

class SoftmaxStep final : public NodeStep {
 public:
  explicit SoftmaxStep(AxisSplit split) : split_(split) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    kernels::launch_softmax(split_, in[0], out, stream);
  }
  std::string describe() const override { return "kbv softmax kernel " + split_text(split_); }

 private:
  AxisSplit split_;
};

class RmsNormStep final : public NodeStep {
 public:
  RmsNormStep(AxisSplit split, float eps) : split_(split), eps_(eps) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    kernels::launch_rmsnorm(split_, eps_, in[0], out, stream);
  }
  std::string describe() const override { return "kbv fused rmsnorm kernel " + split_text(split_); }

 private:
  AxisSplit split_;
  float eps_;
};

class LayerNormStep final : public NodeStep {
 public:
  LayerNormStep(kernels::LayerNormGeometry geometry, float eps, size_t inputs,
                LibraryContext& context)
      : geometry_(geometry), eps_(eps), inputs_(inputs), context_(context) {
    context_.reserve_scratch(kernels::layernorm_scratch_bytes(geometry_));
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    kernels::launch_layernorm(geometry_, eps_, in[0], inputs_ > 1 ? in[1] : nullptr,
                              inputs_ > 2 ? in[2] : nullptr, out, context_.scratch(), stream);
  }
  std::string describe() const override {
    return "kbv layernorm (Welford) rows=" + std::to_string(geometry_.rows) +
           " cols=" + std::to_string(geometry_.cols) +
           (geometry_.chunks > 1 ? " split into " + std::to_string(geometry_.chunks) +
                                       " chunks (moments + apply kernels)"
                                 : " one kernel");
  }

 private:
  kernels::LayerNormGeometry geometry_;
  float eps_;
  size_t inputs_;
  LibraryContext& context_;
};

class MaxPoolStep final : public NodeStep {
 public:
  explicit MaxPoolStep(kernels::Pool2dGeometry geometry) : geometry_(geometry) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    kernels::launch_maxpool2d(geometry_, in[0], out, stream);
  }
  std::string describe() const override {
    return "kbv maxpool2d kernel k=" + std::to_string(geometry_.kernel) +
           " s=" + std::to_string(geometry_.stride) + " p=" + std::to_string(geometry_.padding) +
           " d=" + std::to_string(geometry_.dilation);
  }

 private:
  kernels::Pool2dGeometry geometry_;
};

AxisSplit split_for(const NodeContext& node) {
  const Shape& x = node.input_shapes.at(0);
  return op_support::split_at_axis(x, axis_index(node, "axis", x.size()));
}

}  // namespace

std::unique_ptr<NodeStep> make_kernel_step(const NodeContext& node, LibraryContext& context) {
  const std::string& op = node.node.op;
  if (op == "softmax") {
    require_inputs(node, 1, 1, "x");
    return std::make_unique<SoftmaxStep>(split_for(node));
  }
  if (op == "rmsnorm") {
    require_inputs(node, 1, 1, "x");
    return std::make_unique<RmsNormStep>(split_for(node), static_cast<float>(node.attr("eps")));
  }
  if (op == "layernorm") {
    require_inputs(node, 1, 3, "x, weight?, bias?");
    const Shape& x = node.input_shapes[0];
    const int rank = int_attr(node, "normalized_rank", 1);
    if (static_cast<size_t>(rank) > x.size())
      throw std::invalid_argument(node.where() + ": normalized_rank exceeds the input's rank");
    int64_t cols = 1;
    for (size_t d = x.size() - static_cast<size_t>(rank); d < x.size(); ++d) cols *= x[d];
    for (size_t i = 1; i < node.input_shapes.size(); ++i)
      if (numel(node.input_shapes[i]) != cols)
        throw std::invalid_argument(node.where() + ": weight and bias must hold the " +
                                    std::to_string(cols) + " normalised elements");
    return std::make_unique<LayerNormStep>(
        kernels::plan_layernorm(numel(x) / cols, cols, context.sm_count()),
        static_cast<float>(node.attr("eps")), node.input_shapes.size(), context);
  }
  if (op == "maxpool2d") {
    require_inputs(node, 1, 1, "x");
    const Shape& x = node.input_shapes[0];
    const Shape& y = node.output_shape;
    if (x.size() != 4 || y.size() != 4)
      throw std::invalid_argument(node.where() + ": expected x[N, C, H, W]");
    kernels::Pool2dGeometry g;
    g.planes = x[0] * x[1];
    g.in_h = x[2];
    g.in_w = x[3];
    g.out_h = y[2];
    g.out_w = y[3];
    g.kernel = int_attr(node, "kernel", 1);
    g.stride = int_attr(node, "stride", 0);
    if (g.stride == 0) g.stride = g.kernel;  // PyTorch: stride defaults to kernel_size
    g.padding = int_attr(node, "padding", 0);
    g.dilation = int_attr(node, "dilation", 1);
    return std::make_unique<MaxPoolStep>(g);
  }
  throw std::invalid_argument(node.where() + ": op '" + op + "' has no CUDA baseline");
}

}  // namespace kbv::cuda::measure
