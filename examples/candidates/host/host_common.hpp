// host_common.hpp — small helpers the honest host candidates share: argument checks, the
// [outer, extent, inner] view around an axis, and the fp32 matmul / linear loops.
#pragma once

#include <kbv/plugin.hpp>

#include <cstdint>
#include <string>

namespace host_candidate {

// Records `why` as the error text and says whether `ok`; callers return
// KBV_STATUS_INVALID_ARGUMENT when it is false.
inline bool expect(bool ok, const std::string& why) {
  if (!ok) kbv::set_error(why);
  return ok;
}

// True when the call has exactly these tensor counts and every tensor is fp32.
inline bool expect_f32(const kbv::Call& call, uint32_t inputs, uint32_t outputs) {
  if (!expect(call.num_inputs() == inputs && call.num_outputs() == outputs,
              "expected " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) +
                  " outputs, got " + std::to_string(call.num_inputs()) + " and " +
                  std::to_string(call.num_outputs())))
    return false;
  for (uint32_t i = 0; i < inputs; ++i)
    if (!expect(call.input(i).dtype() == KBV_DTYPE_F32, "input " + std::to_string(i) + " is not fp32"))
      return false;
  for (uint32_t i = 0; i < outputs; ++i)
    if (!expect(call.output(i).dtype() == KBV_DTYPE_F32, "output " + std::to_string(i) + " is not fp32"))
      return false;
  return true;
}

// A tensor seen as [outer, extent, inner] around `axis` (negative counts from the end):
// element (o, a, i) is at (o * extent + a) * inner + i.
struct AxisSplit {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
  bool valid = false;
};

inline AxisSplit split_at_axis(const kbv::Tensor& tensor, double axis_attribute) {
  const auto rank = static_cast<int64_t>(tensor.rank());
  auto axis = static_cast<int64_t>(axis_attribute);
  if (axis < 0) axis += rank;
  AxisSplit split;
  if (axis < 0 || axis >= rank) return split;
  for (int64_t d = 0; d < axis; ++d) split.outer *= tensor.dim(static_cast<uint32_t>(d));
  split.extent = tensor.dim(static_cast<uint32_t>(axis));
  for (int64_t d = axis + 1; d < rank; ++d) split.inner *= tensor.dim(static_cast<uint32_t>(d));
  split.valid = true;
  return split;
}

// c[M,N] = a[M,K] · b[K,N], all row-major. i-k-j order: the innermost loop walks a row of b
// and a row of c contiguously, so it vectorises; one row of c stays in cache while k advances.
inline void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    float* c_row = c + i * n;
    for (int64_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    const float* a_row = a + i * k;
    for (int64_t p = 0; p < k; ++p) {
      const float a_ip = a_row[p];
      const float* b_row = b + p * n;
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * b_row[j];
    }
  }
}

// Dot product with independent partial sums, so the compiler can keep them in one vector
// register without reassociating a single float sum (which it may not do under IEEE rules).
inline float dot(const float* x, const float* y, int64_t n) {
  constexpr int kLanes = 8;
  float partial[kLanes] = {};
  int64_t p = 0;
  for (; p + kLanes <= n; p += kLanes)
    for (int lane = 0; lane < kLanes; ++lane) partial[lane] += x[p + lane] * y[p + lane];
  float sum = 0.0f;
  for (; p < n; ++p) sum += x[p] * y[p];
  for (int lane = 0; lane < kLanes; ++lane) sum += partial[lane];
  return sum;
}

// z[M,N] = x[M,K] · w[N,K]ᵀ + bias[N] (torch.nn.Linear), then `epilogue(z)` per element.
// Both operands are read along contiguous rows of length K.
template <class Epilogue>
void linear(const float* x, const float* w, const float* bias, float* y, int64_t m, int64_t k,
            int64_t n, Epilogue epilogue) {
  for (int64_t i = 0; i < m; ++i) {
    const float* x_row = x + i * k;
    float* y_row = y + i * n;
    for (int64_t j = 0; j < n; ++j) y_row[j] = epilogue(dot(x_row, w + j * k, k) + bias[j]);
  }
}

// Geometry of a 2-D convolution or pooling window over an [N, C, H, W] input.
struct Window2d {
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride = 1, padding = 0, dilation = 1;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;

  int64_t expected_out(int64_t in, int64_t kernel) const {
    return (in + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
  }
  bool consistent() const {
    return stride >= 1 && padding >= 0 && dilation >= 1 &&
           out_h == expected_out(in_h, kernel_h) && out_w == expected_out(in_w, kernel_w);
  }
  // The output columns [first, last) whose input column ow*stride - padding + offset is inside
  // [0, in_w): clipping the range once keeps the inner loop free of bounds checks.
  void valid_columns(int64_t offset, int64_t& first, int64_t& last) const {
    const int64_t shift = offset - padding;  // input column = ow * stride + shift
    first = shift >= 0 ? 0 : (-shift + stride - 1) / stride;
    last = in_w - shift <= 0 ? 0 : (in_w - shift - 1) / stride + 1;
    if (last > out_w) last = out_w;
    if (first > last) first = last;
  }
};

// y[n,o,:,:] = Σ_c Σ_kh Σ_kw w[o,c,kh,kw] · x[n,c,...] + conv_bias[o] (conv_bias may be null),
// accumulated as whole output rows so the innermost loop is a strided (often unit-stride) axpy.
inline void conv2d(const float* x, const float* w, const float* conv_bias, float* y, int64_t batch,
                   int64_t channels, int64_t out_channels, const Window2d& g) {
  const int64_t out_plane = g.out_h * g.out_w;
  const int64_t in_plane = g.in_h * g.in_w;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < out_channels; ++o) {
      float* y_plane = y + (n * out_channels + o) * out_plane;
      const float init = conv_bias ? conv_bias[o] : 0.0f;
      for (int64_t i = 0; i < out_plane; ++i) y_plane[i] = init;
      for (int64_t c = 0; c < channels; ++c) {
        const float* x_plane = x + (n * channels + c) * in_plane;
        const float* w_kernel = w + (o * channels + c) * g.kernel_h * g.kernel_w;
        for (int64_t kh = 0; kh < g.kernel_h; ++kh)
          for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
            const float weight = w_kernel[kh * g.kernel_w + kw];
            int64_t first = 0, last = 0;
            g.valid_columns(kw * g.dilation, first, last);
            const int64_t count = last - first;
            if (count == 0) continue;
            const int64_t first_column = first * g.stride + kw * g.dilation - g.padding;
            for (int64_t oh = 0; oh < g.out_h; ++oh) {
              const int64_t ih = oh * g.stride - g.padding + kh * g.dilation;
              if (ih < 0 || ih >= g.in_h) continue;
              const float* x_row = x_plane + ih * g.in_w + first_column;
              float* y_row = y_plane + oh * g.out_w + first;
              if (g.stride == 1)
                for (int64_t t = 0; t < count; ++t) y_row[t] += weight * x_row[t];
              else
                for (int64_t t = 0; t < count; ++t) y_row[t] += weight * x_row[t * g.stride];
            }
          }
      }
    }
}

}  // namespace host_candidate
