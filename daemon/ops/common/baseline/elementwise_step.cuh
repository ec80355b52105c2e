// ops/common/baseline/elementwise_step.cuh — the CUDA baseline step of an elementwise op,
// generated from its Definition: one kbv kernel per application (ops/common/baseline/
// elementwise_f32.cuh) applying Definition::apply<float>, broadcasting for binary ops. TF32 and
// FP32 modes run the same kernel: no tensor cores are involved.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/elementwise_f32.cuh"
#include "ops/common/elementwise.hpp"

namespace kbv::ops::baseline {

template <class Definition>
struct UnaryFunctor {
  Params<float> params;
  __device__ float operator()(float x) const { return Definition::template apply<float>(x, params); }
};

template <class Definition>
class UnaryStep final : public cuda::measure::NodeStep {
 public:
  explicit UnaryStep(const cuda::measure::NodeContext& node)
      : functor_{params_as<float>(read_params<Definition>(node.node.attrs))},
        count_(numel(node.output_shape)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_unary(functor_, in[0], out, count_, stream);
  }
  std::string describe() const override {
    return "kbv elementwise kernel " + std::string(Definition::name) + " n=" + std::to_string(count_);
  }

 private:
  UnaryFunctor<Definition> functor_;
  int64_t count_;
};

template <class Definition>
struct BinaryFunctor {
  Params<float> params;
  __device__ float operator()(float a, float b) const {
    return Definition::template apply<float>(a, b, params);
  }
};

template <class Definition>
class BinaryStep final : public cuda::measure::NodeStep {
 public:
  explicit BinaryStep(const cuda::measure::NodeContext& node)
      : functor_{params_as<float>(read_params<Definition>(node.node.attrs))},
        geometry_(make_broadcast_geometry(node.input_shapes.at(0), node.input_shapes.at(1),
                                          node.output_shape)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_binary(functor_, geometry_, in[0], in[1], out, stream);
  }
  std::string describe() const override {
    return "kbv broadcast kernel " + std::string(Definition::name) +
           " n=" + std::to_string(geometry_.count) + " rank=" + std::to_string(geometry_.rank);
  }

 private:
  BinaryFunctor<Definition> functor_;
  BroadcastGeometry geometry_;
};

template <class Definition>
std::unique_ptr<cuda::measure::NodeStep> elementwise_step(const cuda::measure::NodeContext& node,
                                                          cuda::measure::LibraryContext&) {
  require_elementwise<Definition>();
  if constexpr (is_unary<Definition>)
    return std::make_unique<UnaryStep<Definition>>(node);
  else if constexpr (is_binary<Definition>)
    return std::make_unique<BinaryStep<Definition>>(node);
}

}  // namespace kbv::ops::baseline
