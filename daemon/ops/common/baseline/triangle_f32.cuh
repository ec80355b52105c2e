// ops/common/baseline/triangle_f32.cuh — the CUDA fp32 baseline of tril and triu: one
// grid-stride masked copy per application, as PyTorch eager's triu_tril_kernel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/triangle.hpp"

namespace kbv::ops::baseline {

constexpr int kTriangleThreads = 256;
constexpr int64_t kMaxTriangleBlocks = 65535;

template <bool kLower>
__global__ void triangle_f32_kernel(int64_t diagonal, float fill, const float* __restrict__ x, float* __restrict__ y,
                                    int64_t count, int64_t rows, int64_t columns) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = triangle_keeps(kLower, (i / columns) % rows, i % columns, diagonal) ? x[i] : fill;
}

class TriangleStep final : public cuda::measure::NodeStep {
 public:
  TriangleStep(bool lower, int64_t diagonal, float fill, const Shape& shape)
      : lower_(lower), diagonal_(diagonal), fill_(fill), count_(numel(shape)), rows_(shape[shape.size() - 2]), columns_(shape.back()) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    if (count_ <= 0) return;
    const auto blocks = static_cast<unsigned>(std::min((count_ + kTriangleThreads - 1) / kTriangleThreads, kMaxTriangleBlocks));
    if (lower_)
      triangle_f32_kernel<true><<<blocks, kTriangleThreads, 0, stream>>>(diagonal_, fill_, in[0], out, count_, rows_, columns_);
    else
      triangle_f32_kernel<false><<<blocks, kTriangleThreads, 0, stream>>>(diagonal_, fill_, in[0], out, count_, rows_, columns_);
    cuda::check_launch(lower_ ? "kbv tril kernel" : "kbv triu kernel");
  }
  std::string describe() const override {
    return std::string(lower_ ? "kbv tril kernel" : "kbv triu kernel") + " diagonal " + std::to_string(diagonal_) +
           (fill_ == 0.f ? "" : " fill " + std::to_string(fill_)) +
           " over " + std::to_string(count_ / (rows_ * columns_)) + " matrices of " + std::to_string(rows_) + "x" +
           std::to_string(columns_);
  }

 private:
  bool lower_;
  int64_t diagonal_;
  float fill_;
  int64_t count_, rows_, columns_;
};

}  // namespace kbv::ops::baseline
