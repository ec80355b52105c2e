// data/axis_reductions_f64.cu — fp64 reference kernels that reduce along one axis: softmax,
// RMSNorm, and LayerNorm over trailing dimensions.
//
// A tensor is viewed as [outer, axis_len, inner]. When inner is wide, one thread walks each
// (outer, inner) column (neighbouring threads read neighbouring addresses: coalesced); when it
// is narrow, one block cooperates on each line. Every reduction has a fixed order, so results
// are deterministic.
#include <cmath>

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

// From this many columns on, a warp's 32 threads read 32 consecutive addresses per step, so the
// thread-per-column layout is coalesced (one warp = 32 threads).
constexpr int64_t kColumnKernelMinInner = 32;

struct Line {
  int64_t base, stride;
  __device__ Line(int64_t line, int64_t axis_len, int64_t inner)
      : base((line / inner) * axis_len * inner + line % inner), stride(inner) {}
  __device__ int64_t at(int64_t j) const { return base + j * stride; }
};

// ---- one thread per column ----

__global__ void softmax_columns(const double* x, double* y, int64_t lines, int64_t axis_len,
                                int64_t inner) {
  for (int64_t c = detail::global_thread_index(); c < lines; c += detail::grid_stride()) {
    const Line line(c, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = 0; j < axis_len; ++j) peak = fmax(peak, x[line.at(j)]);
    double total = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) total += exp(x[line.at(j)] - peak);
    for (int64_t j = 0; j < axis_len; ++j) y[line.at(j)] = exp(x[line.at(j)] - peak) / total;
  }
}

__global__ void rmsnorm_columns(const double* x, double* y, int64_t lines, int64_t axis_len,
                                int64_t inner, double eps) {
  for (int64_t c = detail::global_thread_index(); c < lines; c += detail::grid_stride()) {
    const Line line(c, axis_len, inner);
    double squares = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) squares += x[line.at(j)] * x[line.at(j)];
    const double rms = sqrt(squares / static_cast<double>(axis_len) + eps);
    for (int64_t j = 0; j < axis_len; ++j) y[line.at(j)] = x[line.at(j)] / rms;
  }
}

// ---- one block per line ----

__device__ double block_sum(double value) {
  __shared__ double scratch[32];
  __shared__ double slot;
  return detail::block_broadcast(detail::block_reduce(value, detail::SumOp{}, scratch), &slot);
}

__device__ double block_max(double value) {
  __shared__ double scratch[32];
  __shared__ double slot;
  return detail::block_broadcast(detail::block_reduce(value, detail::MaxOp{}, scratch), &slot);
}

__global__ void softmax_lines(const double* x, double* y, int64_t lines, int64_t axis_len,
                              int64_t inner) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) peak = fmax(peak, x[line.at(j)]);
    peak = block_max(peak);
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) total += exp(x[line.at(j)] - peak);
    total = block_sum(total);
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) {
      y[line.at(j)] = exp(x[line.at(j)] - peak) / total;
    }
  }
}

__global__ void rmsnorm_lines(const double* x, double* y, int64_t lines, int64_t axis_len,
                              int64_t inner, double eps) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double squares = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) {
      squares += x[line.at(j)] * x[line.at(j)];
    }
    squares = block_sum(squares);
    const double rms = sqrt(squares / static_cast<double>(axis_len) + eps);
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) y[line.at(j)] = x[line.at(j)] / rms;
  }
}

__global__ void layernorm_rows(const double* x, const double* weight, const double* bias,
                               double* y, int64_t rows, int64_t row_len, double eps) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const double* in = x + r * row_len;
    double* out = y + r * row_len;
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) total += in[j];
    const double mean = block_sum(total) / static_cast<double>(row_len);
    double squares = 0.0;  // two-pass variance: no cancellation when |mean| ≫ stddev
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
      squares += (in[j] - mean) * (in[j] - mean);
    }
    const double variance = block_sum(squares) / static_cast<double>(row_len);
    const double rstd = 1.0 / sqrt(variance + eps);  // as the host op: multiply by 1/σ
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
      double value = (in[j] - mean) * rstd;
      if (weight != nullptr) value *= weight[j];
      if (bias != nullptr) value += bias[j];
      out[j] = value;
    }
  }
}

bool use_columns(int64_t inner) { return inner >= kColumnKernelMinInner; }

}  // namespace

void softmax_f64(const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                 cudaStream_t stream) {
  const int64_t lines = outer * inner;
  if (lines <= 0 || axis_len <= 0) return;
  if (use_columns(inner)) {
    softmax_columns<<<detail::grid_for(lines), detail::kBlockThreads, 0, stream>>>(x, y, lines,
                                                                                   axis_len, inner);
  } else {
    softmax_lines<<<detail::grid_for(lines, 1), detail::kBlockThreads, 0, stream>>>(x, y, lines,
                                                                                    axis_len, inner);
  }
  check_launch("softmax kernel");
}

void rmsnorm_f64(const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                 double eps, cudaStream_t stream) {
  const int64_t lines = outer * inner;
  if (lines <= 0 || axis_len <= 0) return;
  if (use_columns(inner)) {
    rmsnorm_columns<<<detail::grid_for(lines), detail::kBlockThreads, 0, stream>>>(
        x, y, lines, axis_len, inner, eps);
  } else {
    rmsnorm_lines<<<detail::grid_for(lines, 1), detail::kBlockThreads, 0, stream>>>(
        x, y, lines, axis_len, inner, eps);
  }
  check_launch("rmsnorm kernel");
}

void layernorm_f64(const double* x, const double* weight, const double* bias, double* y,
                   int64_t rows, int64_t row_len, double eps, cudaStream_t stream) {
  if (rows <= 0 || row_len <= 0) return;
  layernorm_rows<<<detail::grid_for(rows, 1), detail::kBlockThreads, 0, stream>>>(
      x, weight, bias, y, rows, row_len, eps);
  check_launch("layernorm kernel");
}

}  // namespace kbv::cuda::ref
