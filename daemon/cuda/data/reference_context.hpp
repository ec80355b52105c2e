// data/reference_context.hpp — what the fp64 device reference needs: a stream and a cuBLAS
// handle on it in default math mode (true fp64: no TF32, no FP64 fixed-point emulation, which
// cuBLAS uses only under CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "common/cublas_handle.hpp"

namespace kbv::cuda {

class ReferenceContext {
 public:
  // `stream` is borrowed: it must outlive this context.
  explicit ReferenceContext(cudaStream_t stream) : stream_(stream), cublas_(stream, CUBLAS_DEFAULT_MATH) {}

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t cublas() const { return cublas_.get(); }

 private:
  cudaStream_t stream_;
  CublasHandle cublas_;
};

}  // namespace kbv::cuda
