// common/cublas_handle.hpp — CublasHandle: an owned cuBLAS handle bound to one stream.
#pragma once

#include <cublas_v2.h>

#include <utility>

#include "common/cuda_error.hpp"

namespace kbv::cuda {

// The math mode is set explicitly by whoever creates the handle (the fp64 reference: pedantic;
// baselines: TF32 or strict FP32), never left to cuBLAS's default.
class CublasHandle {
 public:
  CublasHandle(cudaStream_t stream, cublasMath_t math_mode) {
    check(cublasCreate(&handle_), "cublasCreate");
    try {
      check(cublasSetStream(handle_, stream), "cublasSetStream");
      check(cublasSetMathMode(handle_, math_mode), "cublasSetMathMode");
      check(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    } catch (...) {
      (void)cublasDestroy(handle_);
      throw;
    }
  }
  CublasHandle(CublasHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  CublasHandle& operator=(CublasHandle&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  ~CublasHandle() {
    if (handle_ != nullptr) (void)cublasDestroy(handle_);
  }

  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace kbv::cuda
