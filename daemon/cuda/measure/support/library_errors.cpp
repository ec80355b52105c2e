// support/library_errors.cpp — cuDNN and CUPTI status codes to CudaError.
#include "measure/support/library_errors.hpp"

#include <string>

namespace kbv::cuda::measure {

void check(cudnnStatus_t status, const char* call) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  throw CudaError(std::string(call) + ": " + cudnnGetErrorString(status) + " (cuDNN status " +
                      std::to_string(static_cast<int>(status)) + ")",
                  static_cast<int>(status));
}

void check(CUptiResult status, const char* call) {
  if (status == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr) text = "unknown";
  throw CudaError(std::string(call) + ": " + text + " (CUPTI result " +
                      std::to_string(static_cast<int>(status)) + ")",
                  static_cast<int>(status));
}

}  // namespace kbv::cuda::measure
