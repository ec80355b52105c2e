// baseline/kernel_steps.cpp — graph nodes run by kbv's own kernels, one kernel per node:
// maxpool2d.
#include <cmath>
#include <stdexcept>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "measure/kernels/kernels.hpp"

namespace kbv::cuda::measure {
namespace {

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

}  // namespace

std::unique_ptr<NodeStep> make_kernel_step(const NodeContext& node, LibraryContext&) {
  const std::string& op = node.node.op;
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
