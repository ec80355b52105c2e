// data/reference_context.hpp — what the fp64 device reference needs: a stream and a cuBLAS
// handle on it in pedantic math mode.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "common/cublas_handle.hpp"

namespace kbv::cuda {

// Pedantic math: DGEMM uses the COMPUTE_64F_PEDANTIC compute type, standard IEEE fp64 arithmetic.
// The default mode would do too, except that cuBLAS 13 can be switched to FP64 fixed-point
// (Ozaki) emulation from outside the process (libcublas reads CUBLAS_EMULATE_DOUBLE_PRECISION);
// a trusted reference must not depend on the environment it was started in.
constexpr cublasMath_t kReferenceMathMode = CUBLAS_PEDANTIC_MATH;

class ReferenceContext {
 public:
  // `stream` is borrowed: it must outlive this context.
  explicit ReferenceContext(cudaStream_t stream) : stream_(stream), cublas_(stream, kReferenceMathMode) {}

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t cublas() const { return cublas_.get(); }

 private:
  cudaStream_t stream_;
  CublasHandle cublas_;
};

}  // namespace kbv::cuda
