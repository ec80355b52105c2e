// ops/common/scalar_math.hpp — KBV_HOST_DEVICE and the math an elementwise op's scalar function
// calls: one name per function for float and double, on the host (std::) and in CUDA device code
// (libdevice's expf/exp…), so the host reference, the host baseline and both CUDA faces evaluate
// the same expression with the functions each side used before.
//
// Inside namespace kbv::ops, call these as math::exp(x), never unqualified: another op's
// namespace (kbv::ops::exp, if an op is called exp) would hide the global function.
#pragma once

#include <cmath>

#if defined(__CUDACC__)
#define KBV_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define KBV_HOST_DEVICE inline
#endif

// `#pragma unroll` in a KBV_HOST_DEVICE function: the device compiler's, which the host compiler
// does not know (and warns about).
#if defined(__CUDA_ARCH__)
#define KBV_UNROLL _Pragma("unroll")
#else
#define KBV_UNROLL
#endif

namespace kbv::ops::math {

#if defined(__CUDA_ARCH__)
#define KBV_OPS_MATH_FUNCTION(fn)                                  \
  KBV_HOST_DEVICE float fn(float x) { return ::fn##f(x); }         \
  KBV_HOST_DEVICE double fn(double x) { return ::fn(x); }
#else
#define KBV_OPS_MATH_FUNCTION(fn)                                  \
  KBV_HOST_DEVICE float fn(float x) { return std::fn(x); }         \
  KBV_HOST_DEVICE double fn(double x) { return std::fn(x); }
#endif

KBV_OPS_MATH_FUNCTION(exp)
KBV_OPS_MATH_FUNCTION(expm1)
KBV_OPS_MATH_FUNCTION(log)
KBV_OPS_MATH_FUNCTION(log1p)
KBV_OPS_MATH_FUNCTION(erf)
KBV_OPS_MATH_FUNCTION(tanh)
KBV_OPS_MATH_FUNCTION(sqrt)
KBV_OPS_MATH_FUNCTION(fabs)

#undef KBV_OPS_MATH_FUNCTION

#if defined(__CUDA_ARCH__)
KBV_HOST_DEVICE float pow(float x, float y) { return ::powf(x, y); }
KBV_HOST_DEVICE double pow(double x, double y) { return ::pow(x, y); }
#else
KBV_HOST_DEVICE float pow(float x, float y) { return std::pow(x, y); }
KBV_HOST_DEVICE double pow(double x, double y) { return std::pow(x, y); }
#endif

}  // namespace kbv::ops::math
