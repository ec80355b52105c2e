// common/cuda_error.cpp — turns CUDA runtime and cuBLAS status codes into CudaError.
#include "common/cuda_error.hpp"

namespace kbv::cuda {

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  throw CudaError(std::string(call) + ": " + cudaGetErrorString(status) + " (" +
                      cudaGetErrorName(status) + ")",
                  static_cast<int>(status));
}

void check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw CudaError(std::string(call) + ": " + cublasGetStatusString(status) + " (" +
                      cublasGetStatusName(status) + ")",
                  static_cast<int>(status));
}

void check_launch(const char* kernel) {
  check(cudaGetLastError(), (std::string("launch of ") + kernel).c_str());
}

}  // namespace kbv::cuda
