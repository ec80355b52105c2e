// ops/common/baseline/cudnn_backend_conv.hpp — a forward 2-D convolution, channels-last, through
// cuDNN's backend (graph) API: the engines its heuristics propose for the operation graph, each a
// finalized execution plan. Why: the legacy cudnnConvolutionForward's algorithms do not reach
// cuDNN's sm90 warp-specialized kernels, which PyTorch's cudnn-frontend path does. KernelBench
// L2 #1 (conv2d_relu_biasadd) on an H100, TF32 (docs/results/parity-kernels.md, r51): torch.compile
// runs sm90_xmma_fprop_implicit_gemm…nhwckrsc_nhwc in 0.851 ms; cudnnFind's best legacy algorithm
// (IMPLICIT_PRECOMP_GEMM, an sm80 kernel) takes ~1.5 ms.
//
// TF32 mode only: the engines' numerical notes are not read, so strict FP32 keeps the legacy API's
// CUDNN_FMA_MATH, which forbids tensor cores by contract.
//
// Opt-in for now (KBV_CUDNN_BACKEND_PLANS=1, cudnn_convolution.cpp): written without a GPU to run
// it on; the convolution GPU tests decide when it becomes the default.
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kbv::ops::baseline {

// Row-major NCHW extents and the convolution's per-axis parameters (height, width).
struct BackendConvShape {
  int64_t images = 0, in_channels = 0, height = 0, width = 0;
  int64_t out_channels = 0, kernel_height = 0, kernel_width = 0, out_height = 0, out_width = 0;
  int64_t padding[2] = {0, 0}, stride[2] = {1, 1}, dilation[2] = {1, 1};
};

// One finalized execution plan on NHWC x, KRSC w and NHWC y (each 16-byte aligned).
class BackendConvPlan {
 public:
  struct Descriptors;  // the plan and what it refers to, kept alive together
  BackendConvPlan(std::shared_ptr<const Descriptors> graph, std::shared_ptr<void> plan, size_t workspace, int64_t engine, size_t rank);

  size_t workspace() const { return workspace_; }
  // Its place in the heuristics' list (0 first), the same for the same graph on the same cuDNN.
  size_t rank() const { return rank_; }
  // "cuDNN backend engine 12 (heuristics rank 3)".
  std::string describe() const;
  // Enqueues the convolution on the handle's stream; throws on a cuDNN error.
  void run(cudnnHandle_t handle, const float* x, const float* w, float* y, void* workspace) const;

 private:
  std::shared_ptr<const Descriptors> graph_;
  std::shared_ptr<void> plan_;
  size_t workspace_ = 0;
  int64_t engine_ = -1;
  size_t rank_ = 0;
};

// The plans of the heuristics' engine configurations (CUDNN_HEUR_MODE_A, in its order) that
// finalize, at most `max_plans`; empty (never throws) when the backend cannot build the graph:
// the caller keeps the legacy API then.
std::vector<BackendConvPlan> backend_conv_plans(cudnnHandle_t handle, const BackendConvShape& shape, size_t max_plans);

}  // namespace kbv::ops::baseline
