// tests/cuda/measure/math_mode_test.cpp — the math-mode guard refuses TF32 baselines when
// NVIDIA_TF32_OVERRIDE=0 would silently turn them into FP32 (no GPU).
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "measure/baseline/math_mode.hpp"

namespace kbv::cuda {
namespace {

TEST(MathModeGuard, RefusesTf32WhenOverriddenOff) {
  ASSERT_EQ(setenv("NVIDIA_TF32_OVERRIDE", "0", 1), 0);
  EXPECT_THROW(require_math_mode_available(MathMode::tf32), std::runtime_error);
  EXPECT_NO_THROW(require_math_mode_available(MathMode::fp32));
  ASSERT_EQ(setenv("NVIDIA_TF32_OVERRIDE", "1", 1), 0);
  EXPECT_NO_THROW(require_math_mode_available(MathMode::tf32));
  ASSERT_EQ(unsetenv("NVIDIA_TF32_OVERRIDE"), 0);
  EXPECT_NO_THROW(require_math_mode_available(MathMode::tf32));
  EXPECT_EQ(to_string(MathMode::tf32), "tf32");
  EXPECT_EQ(to_string(MathMode::fp32), "fp32");
}

}  // namespace
}  // namespace kbv::cuda
