// common/cuda_error.hpp — CUDA runtime and cuBLAS failures as exceptions naming the failed call.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kbv::cuda {

// A failed CUDA or cuBLAS call. what() reads "<call>: <library message> (<code>)".
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Throw CudaError when `status` is not success; `call` names what was attempted.
void check(cudaError_t status, const char* call);
void check(cublasStatus_t status, const char* call);

// After a kernel launch: throws if the launch itself failed (bad configuration, sticky error).
void check_launch(const char* kernel);

}  // namespace kbv::cuda
