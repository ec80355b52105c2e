// support/library_versions.hpp — the CUDA runtime, cuBLAS(Lt) and cuDNN this process loaded, as
// PyTorch calibrations record them and evaluations match them: a library upgraded under the same
// driver runs other kernels, and a ratio measured against the old ones no longer holds.
#pragma once

#include <string>

namespace kbv::cuda {

// "cudart 13000, cublasLt 130100, cudnn 91000": each library's own version number, as it reports
// it (cudaRuntimeGetVersion, cublasLtGetVersion, cudnnGetVersion), for equality, not for display.
std::string library_versions();

}  // namespace kbv::cuda
