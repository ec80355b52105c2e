// support/library_versions.cpp — the loaded CUDA libraries' versions (library_versions.hpp).
#include "measure/support/library_versions.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace kbv::cuda {

std::string library_versions() {
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  // The versions of the libraries loaded (not the headers'): what runs is what the ratio describes.
  return "cudart " + std::to_string(runtime) + ", cublasLt " + std::to_string(cublasLtGetVersion()) + ", cudnn " + std::to_string(cudnnGetVersion());
}

}  // namespace kbv::cuda
