// baseline/library_context.cpp — lazily created handles, math modes, shared workspaces.
#include "measure/baseline/library_context.hpp"

#include <algorithm>

#include "measure/support/device_attributes.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure {

namespace {
// Refuses tf32 under NVIDIA_TF32_OVERRIDE=0 before any device work happens.
MathMode checked(MathMode mode) {
  require_math_mode_available(mode);
  return mode;
}
}  // namespace

LibraryContext::LibraryContext(MathMode mode)
    : mode_(checked(mode)), sm_count_(current_sm_count()) {}

void* LibraryContext::blas_workspace() {
  if (!blas_workspace_.get())
    blas_workspace_ = DeviceMemory(kBlasWorkspaceBytes, "cuBLAS/cuBLASLt workspace");
  return blas_workspace_.get();
}

cublasHandle_t LibraryContext::cublas() {
  if (!cublas_) {
    cublas_ = make_cublas();
    // TF32: cuBLAS may round fp32 inputs to TF32 for tensor cores (torch allow_tf32=True).
    // DEFAULT: strict fp32 (CUBLAS_DEFAULT_MATH never uses TF32 for fp32 GEMMs).
    check(cublasSetMathMode(cublas_.get(), mode_ == MathMode::tf32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                                   : CUBLAS_DEFAULT_MATH),
          "cublasSetMathMode");
    check(cublasSetWorkspace(cublas_.get(), blas_workspace(), kBlasWorkspaceBytes),
          "cublasSetWorkspace");
  }
  return cublas_.get();
}

cublasLtHandle_t LibraryContext::cublaslt() {
  if (!cublaslt_) {
    cublaslt_ = make_cublaslt();
    blas_workspace();
  }
  return cublaslt_.get();
}

cudnnHandle_t LibraryContext::cudnn() {
  if (!cudnn_) cudnn_ = make_cudnn();
  return cudnn_.get();
}

void LibraryContext::reserve_scratch(size_t bytes) {
  scratch_reserved_ = std::max(scratch_reserved_, bytes);
}

void LibraryContext::allocate_scratch() {
  if (scratch_reserved_ > scratch_.bytes())
    scratch_ = DeviceMemory(scratch_reserved_, "baseline scratch (cuDNN workspace, partials)");
}

void LibraryContext::bind_stream(cudaStream_t stream) {
  if (cublas_) {
    check(cublasSetStream(cublas_.get(), stream), "cublasSetStream");
    check(cublasSetWorkspace(cublas_.get(), blas_workspace_.get(), blas_workspace_.bytes()),
          "cublasSetWorkspace");
  }
  if (cudnn_) check(cudnnSetStream(cudnn_.get(), stream), "cudnnSetStream");
}

}  // namespace kbv::cuda::measure
