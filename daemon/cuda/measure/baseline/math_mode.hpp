// baseline/math_mode.hpp — the two arithmetic modes a baseline runs in, as PyTorch would.
//
// tf32: what PyTorch runs with torch.backends.cuda.matmul.allow_tf32 = True (cuDNN's
//       allow_tf32 is True by default): tensor-core ops take TF32 inputs, accumulate in fp32.
// fp32: strict IEEE fp32 everywhere (PyTorch's matmul default; cudnn.allow_tf32 = False).
// Elementwise ops and reductions are identical in both modes.
#pragma once

#include <string_view>

namespace kbv::cuda {

enum class MathMode { tf32, fp32 };

std::string_view to_string(MathMode mode);

// NVIDIA_TF32_OVERRIDE=0 silently disables TF32 in every NVIDIA library of the process, which
// would turn the "tf32" baseline into an fp32 one. Throws std::runtime_error naming the
// variable when `mode` is tf32 and the override is "0"; does nothing otherwise.
void require_math_mode_available(MathMode mode);

}  // namespace kbv::cuda
