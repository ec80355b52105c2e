// ops/common/products.hpp — what the matrix products' host faces share (matmul, bmm, linear).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "tensor/shape.hpp"

namespace kbv::ops {

// c[M,N] = a[M,K]·b[K,N] in i-k-j order: the innermost loop streams a row of b and a row of c,
// both contiguous, so the fp64 reference stays fast enough for the small shape sets.
template <class T>
void gemm_ikj(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  std::fill(c, c + m * n, T(0));
  for (int64_t i = 0; i < m; ++i) {
    T* c_row = c + i * n;
    for (int64_t p = 0; p < k; ++p) {
      const T a_ip = a[i * k + p];
      const T* b_row = b + p * n;
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}

// "<op>: a has shape … and b has shape …; expected <rule>".
inline std::string inner_mismatch(std::string_view op, const Shape& a, const Shape& b,
                                  std::string_view rule) {
  return std::string(op) + ": a has shape " + to_string(a) + " and b has shape " + to_string(b) +
         "; expected " + std::string(rule);
}

}  // namespace kbv::ops
