// support/library_errors.hpp — cuDNN and CUPTI failures as kbv::cuda::CudaError, next to the
// CUDA runtime and cuBLAS overloads of common/cuda_error.hpp (one `check` overload set).
#pragma once

#include <cudnn.h>
#include <cupti.h>

#include "common/cuda_error.hpp"

namespace kbv::cuda::measure {

using kbv::cuda::check;
void check(cudnnStatus_t status, const char* call);
void check(CUptiResult status, const char* call);

}  // namespace kbv::cuda::measure
