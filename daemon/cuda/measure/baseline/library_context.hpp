// baseline/library_context.hpp — the library handles and device memory one baseline shares
// among its graph nodes: a cuBLAS and a cuBLASLt handle with one 32 MiB workspace, a cuDNN
// handle, and one scratch block (cuDNN workspace, layernorm partials) sized to the largest
// request, since nodes run one after another on one stream.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cudnn.h>

#include <cstddef>

#include "measure/baseline/math_mode.hpp"
#include "measure/support/handles.hpp"

namespace kbv::cuda::measure {

// PyTorch's cuBLAS (and cuBLASLt) workspace on sm90: CUBLAS_WORKSPACE_CONFIG's default
// ":4096:8", 8 × 4096 KiB = 32 MiB (docs/measurement.md, Baselines; aten/src/ATen/cuda/CublasHandlePool.cpp).
constexpr size_t kBlasWorkspaceBytes = size_t{32} << 20;

class LibraryContext {
 public:
  explicit LibraryContext(MathMode mode);

  // A step's decision by the mode (its math type, compute type or kernel): recorded, so that
  // mode_may_matter() knows the baseline's program depends on it.
  MathMode mode() const {
    mode_consulted_ = true;
    return mode_;
  }
  // Whether anything built on this context could run differently in the other math mode: a step
  // asked for the mode, or made a cuBLAS, cuBLASLt or cuDNN handle (library kernels may pick
  // tensor cores by it). False: the problem's TF32 and FP32 baselines are one program.
  bool mode_may_matter() const { return mode_consulted_ || cublas_ || cublaslt_ || cudnn_; }
  int sm_count() const { return sm_count_; }

  // Created on first use; cuBLAS gets the mode's math mode and the shared workspace.
  cublasHandle_t cublas();
  cublasLtHandle_t cublaslt();
  cudnnHandle_t cudnn();
  void* blas_workspace();

  // Scratch: steps reserve while they are built, then allocate_scratch() makes one block. A step
  // that lays several buffers in it starts each on kScratchAlignment (scratch_aligned(bytes)).
  static constexpr size_t kScratchAlignment = 256;  // cudaMalloc's alignment: cuDNN's and vector loads' needs
  static constexpr size_t scratch_aligned(size_t bytes) { return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment; }
  void reserve_scratch(size_t bytes);
  void allocate_scratch();
  void* scratch() const { return scratch_.get(); }

  // Before a run: every created handle works on `stream` (re-attaching the cuBLAS workspace,
  // which cublasSetStream resets).
  void bind_stream(cudaStream_t stream);

  // Device memory this context holds: BLAS workspace plus scratch.
  size_t held_bytes() const { return blas_workspace_.bytes() + scratch_.bytes(); }

 private:
  MathMode mode_;
  mutable bool mode_consulted_ = false;
  int sm_count_ = 0;
  CublasHandle cublas_;
  CublasLtHandle cublaslt_;
  CudnnHandle cudnn_;
  DeviceMemory blas_workspace_;
  size_t scratch_reserved_ = 0;
  DeviceMemory scratch_;
};

}  // namespace kbv::cuda::measure
