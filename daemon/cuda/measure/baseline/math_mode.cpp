// baseline/math_mode.cpp — mode names and the NVIDIA_TF32_OVERRIDE guard.
#include "measure/baseline/math_mode.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace kbv::cuda {

std::string_view to_string(MathMode mode) { return mode == MathMode::tf32 ? "tf32" : "fp32"; }

void require_math_mode_available(MathMode mode) {
  if (mode != MathMode::tf32) return;
  const char* override_value = std::getenv("NVIDIA_TF32_OVERRIDE");
  if (override_value != nullptr && std::string(override_value) == "0")
    throw std::runtime_error(
        "the tf32 baseline cannot run: NVIDIA_TF32_OVERRIDE=0 is set in this process's "
        "environment, which disables TF32 in cuBLAS and cuDNN; unset it (kbv pins the math "
        "mode itself)");
}

}  // namespace kbv::cuda
