// daemon/ops/common/baseline/cudnn_batch_norm.cu — cuDNN's training-mode batch norm as PyTorch
// calls it, and the copy kernel behind weight.repeat(N) for instance norm.
#include "ops/common/baseline/cudnn_batch_norm.hpp"

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/cuda_error.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::ops::baseline {

namespace {
// aten/src/ATen/native/Normalization.cpp, _select_batch_norm_backend: "input.sym_size(0) <=
// 880801 && training" and "input.sym_numel() < std::numeric_limits<std::int32_t>::max()".
constexpr int64_t kCudnnMaxTrainingRows = 880801;
constexpr int64_t kCudnnElementLimit = INT32_MAX;  // exclusive
}  // namespace

bool pytorch_batch_norm_uses_cudnn(const Shape& x, bool affine, double eps) {
  return affine && x.size() >= 3 && x[0] <= kCudnnMaxTrainingRows && numel(x) < kCudnnElementLimit &&
         eps >= CUDNN_BN_MIN_EPSILON;
}

namespace {

using cuda::measure::check;
using cuda::measure::CudnnTensorDesc;
using cuda::measure::DeviceMemory;

// torch.nn.BatchNorm*d's default momentum, which PyTorch passes as cuDNN's exponentialAverageFactor.
constexpr double kMomentum = 0.1;
// PyTorch's getCudnnBatchNormMode for a contiguous input of rank >= 3 in training mode.
constexpr cudnnBatchNormMode_t kMode = CUDNN_BATCHNORM_SPATIAL;
constexpr cudnnBatchNormOps_t kOps = CUDNN_BATCHNORM_OPS_BN;
constexpr float kOne = 1.f;
constexpr float kZero = 0.f;
// cuDNN's batch norm takes 4-d and 5-d tensors.
constexpr int kMinDims = 4;
constexpr int kMaxDims = 5;

__global__ void repeat_kernel(const float* __restrict__ source, int64_t count, int64_t repeats,
                              float* __restrict__ target) {
  const int64_t total = count * repeats;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step)
    target[i] = source[i % count];
}

void repeat(const float* source, int64_t count, int64_t repeats, float* target, cudaStream_t stream) {
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 1024;  // C·N values at most: a few thousand here
  const auto blocks =
      static_cast<unsigned>(std::min((count * repeats + kThreads - 1) / kThreads, kMaxBlocks));
  repeat_kernel<<<blocks, kThreads, 0, stream>>>(source, count, repeats, target);
  cuda::check_launch("kbv repeat kernel (weight.repeat)");
}

// x's descriptor as PyTorch's TensorDescriptor::set(input, 4) makes it: packed NC* strides,
// trailing dims of 1 up to 4-d; a rank above 5 folds its trailing dims into the fifth.
CudnnTensorDesc x_descriptor(const Shape& x) {
  std::vector<int64_t> dims(x.begin(), x.end());
  while (dims.size() < kMinDims) dims.push_back(1);
  while (dims.size() > kMaxDims) {
    dims[dims.size() - 2] *= dims.back();
    dims.pop_back();
  }
  std::vector<int> sizes(dims.size()), strides(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d] > INT_MAX || stride > INT_MAX)
      throw std::invalid_argument("batch norm: a dimension of " + kbv::to_string(x) +
                                  " is outside cuDNN's int range");
    sizes[d] = static_cast<int>(dims[d]);
    strides[d] = static_cast<int>(stride);
    stride *= dims[d];
  }
  CudnnTensorDesc desc = cuda::measure::make_cudnn_tensor_desc();
  check(cudnnSetTensorNdDescriptor(desc.get(), CUDNN_DATA_FLOAT, static_cast<int>(sizes.size()), sizes.data(),
                                   strides.data()),
        "cudnnSetTensorNdDescriptor");
  return desc;
}

class CudnnBatchNormStep final : public cuda::measure::NodeStep {
 public:
  CudnnBatchNormStep(const Shape& x_view, int64_t repeats, double eps, cuda::measure::LibraryContext& context,
                     std::string what)
      : shape_(x_view),
        channels_(x_view.at(1)),
        repeats_(repeats),
        eps_(eps),
        context_(context),
        what_(std::move(what)),
        x_desc_(x_descriptor(x_view)),
        bn_desc_(cuda::measure::make_cudnn_tensor_desc()) {
    check(cudnnDeriveBNTensorDescriptor(bn_desc_.get(), x_desc_.get(), kMode),
          "cudnnDeriveBNTensorDescriptor");
    check(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
              context_.cudnn(), kMode, kOps, x_desc_.get(), nullptr, x_desc_.get(), bn_desc_.get(), nullptr,
              &workspace_bytes_),
          "cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize");
    check(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(context_.cudnn(), kMode, kOps, nullptr,
                                                               x_desc_.get(), &reserve_bytes_),
          "cudnnGetBatchNormalizationTrainingExReserveSpaceSize");
    reserve_offset_ = cuda::measure::LibraryContext::scratch_aligned(workspace_bytes_);
    context_.reserve_scratch(reserve_offset_ + reserve_bytes_);
    // running mean, running var, saved mean, saved 1/σ; then the repeated weight and bias.
    const auto vectors = static_cast<size_t>(4 + (repeats_ > 1 ? 2 : 0));
    statistics_ =
        DeviceMemory(vectors * static_cast<size_t>(channels_) * sizeof(float), "batch norm statistics");
    check(cudaMemset(statistics_.get(), 0, statistics_.bytes()), "cudaMemset");
    const std::vector<float> ones(static_cast<size_t>(channels_), 1.f);
    check(cudaMemcpy(vector(1), ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy");
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    const float* weight = in[1];
    const float* bias = in[2];
    if (repeats_ > 1) {
      const int64_t count = channels_ / repeats_;
      repeat(weight, count, repeats_, vector(4), stream);
      repeat(bias, count, repeats_, vector(5), stream);
      weight = vector(4);
      bias = vector(5);
    }
    char* scratch = static_cast<char*>(context_.scratch());
    check(cudnnBatchNormalizationForwardTrainingEx(
              context_.cudnn(), kMode, kOps, &kOne, &kZero, x_desc_.get(), in[0], nullptr, nullptr,
              x_desc_.get(), out, bn_desc_.get(), weight, bias, kMomentum, vector(0), vector(1), eps_,
              vector(2), vector(3), nullptr, workspace_bytes_ > 0 ? scratch : nullptr, workspace_bytes_,
              reserve_bytes_ > 0 ? scratch + reserve_offset_ : nullptr, reserve_bytes_),
          "cudnnBatchNormalizationForwardTrainingEx");
  }

  std::string describe() const override {
    return "cudnnBatchNormalizationForwardTrainingEx (" + what_ + ") SPATIAL x=" + kbv::to_string(shape_) +
           (repeats_ > 1 ? " after weight/bias .repeat(" + std::to_string(repeats_) + ") kernels" : "") +
           " workspace=" + std::to_string(workspace_bytes_) + "B reserve=" + std::to_string(reserve_bytes_) +
           "B";
  }

 private:
  float* vector(int index) const { return statistics_.as<float>() + index * channels_; }

  Shape shape_;
  int64_t channels_;
  int64_t repeats_;
  double eps_;
  cuda::measure::LibraryContext& context_;
  std::string what_;
  CudnnTensorDesc x_desc_;
  CudnnTensorDesc bn_desc_;
  size_t workspace_bytes_ = 0;
  size_t reserve_bytes_ = 0;
  size_t reserve_offset_ = 0;
  DeviceMemory statistics_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_cudnn_batch_norm_step(const Shape& x_view, int64_t repeats,
                                                                    double eps,
                                                                    cuda::measure::LibraryContext& context,
                                                                    std::string what) {
  return std::make_unique<CudnnBatchNormStep>(x_view, repeats, eps, context, std::move(what));
}

}  // namespace kbv::ops::baseline
