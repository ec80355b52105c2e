// ops/common/products.hpp — what the matrix products' host faces share (matmul, bmm, linear, sdpa).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "tensor/shape.hpp"

namespace kbv::ops {

// c[M,N] = op(a)·op(b), row-major: a stored [M,K] ([K,M] when transpose_a), b stored [K,N]
// ([N,K] when transpose_b). An untransposed b streams its rows (i-k-j, as gemm_ikj); a transposed
// b gives each output a dot product along two contiguous rows (i-j-k, as a linear layer).
template <class T>
void gemm_transposed(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n,
                     bool transpose_a, bool transpose_b) {
  const auto a_at = [&](int64_t i, int64_t p) { return transpose_a ? a[p * m + i] : a[i * k + p]; };
  if (!transpose_b) {
    std::fill(c, c + m * n, T(0));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) {
        const T a_ip = a_at(i, p);
        const T* b_row = b + p * n;
        for (int64_t j = 0; j < n; ++j) c[i * n + j] += a_ip * b_row[j];
      }
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const T* b_row = b + j * k;
      T acc = T(0);
      for (int64_t p = 0; p < k; ++p) acc += a_at(i, p) * b_row[p];
      c[i * n + j] = acc;
    }
}

// c[M,N] = a[M,K]·b[K,N] in i-k-j order: the innermost loop streams a row of b and a row of c,
// both contiguous, so the fp64 reference stays fast enough for the small shape sets.
template <class T>
void gemm_ikj(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  gemm_transposed(a, b, c, m, k, n, false, false);
}

// "<op>: a has shape … and b has shape …; expected <rule>".
inline std::string inner_mismatch(std::string_view op, const Shape& a, const Shape& b,
                                  std::string_view rule) {
  return std::string(op) + ": a has shape " + to_string(a) + " and b has shape " + to_string(b) +
         "; expected " + std::string(rule);
}

}  // namespace kbv::ops
