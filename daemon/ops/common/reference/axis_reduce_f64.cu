// daemon/ops/common/reference/axis_reduce_f64.cu — fp64 reductions over adjacent axes (sum, mean,
// amax, amin, logsumexp, norm): one thread per column when the inner extent is wide, one block
// per line when it is narrow, in a fixed order (deterministic).
#include "ops/common/reference/axis_reduce_f64.hpp"

#include <cmath>

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

// One reduction's fold: the identity, how a value enters, how two partial results combine and
// what the line's output is. For logsumexp this is the second pass, the sum of exp(x − shift).
struct Fold {
  AxisReduction kind;
  double p;

  __device__ double identity() const {
    switch (kind) {
      case AxisReduction::max: return -INFINITY;
      case AxisReduction::min: return INFINITY;
      default: return 0.0;
    }
  }
  __device__ double term(double x, double shift) const {
    switch (kind) {
      case AxisReduction::logsumexp: return exp(x - shift);
      case AxisReduction::norm: return p == 2.0 ? x * x : (p == 1.0 ? fabs(x) : pow(fabs(x), p));
      default: return x;
    }
  }
  __device__ double combine(double a, double b) const {
    switch (kind) {
      case AxisReduction::max: return (a > b || a != a) ? a : b;  // NaN propagates
      case AxisReduction::min: return (a < b || a != a) ? a : b;
      default: return a + b;
    }
  }
  __device__ double finish(double acc, double shift, int64_t axis_len) const {
    switch (kind) {
      case AxisReduction::mean: return acc / static_cast<double>(axis_len);
      case AxisReduction::logsumexp: return shift + log(acc);
      case AxisReduction::norm: return p == 2.0 ? sqrt(acc) : (p == 1.0 ? acc : pow(acc, 1.0 / p));
      default: return acc;
    }
  }
};

// logsumexp's shift is the line's max; a non-finite max (all −inf, any +inf or NaN) is the result.
__device__ bool shift_is_result(double shift) { return !isfinite(shift); }

__global__ void reduce_columns(Fold fold, const double* x, double* y, int64_t lines, int64_t axis_len,
                               int64_t inner) {
  const Fold max_fold{AxisReduction::max, 0};
  for (int64_t c = global_thread_index(); c < lines; c += grid_stride()) {
    const Line line(c, axis_len, inner);
    double shift = 0.0;
    if (fold.kind == AxisReduction::logsumexp) {
      shift = max_fold.identity();
      for (int64_t j = 0; j < axis_len; ++j) shift = max_fold.combine(shift, x[line.at(j)]);
      if (shift_is_result(shift)) {
        y[c] = shift;
        continue;
      }
    }
    double acc = fold.identity();
    for (int64_t j = 0; j < axis_len; ++j) acc = fold.combine(acc, fold.term(x[line.at(j)], shift));
    y[c] = fold.finish(acc, shift, axis_len);
  }
}

// Block-wide combine of one value per thread, returned to every thread.
__device__ double block_combine(const Fold& fold, double value) {
  __shared__ double scratch[32];
  __shared__ double slot;
  const auto combine = [fold](double a, double b) { return fold.combine(a, b); };
  return cuda::detail::block_broadcast(cuda::detail::block_reduce(value, combine, scratch), &slot);
}

__global__ void reduce_lines(Fold fold, const double* x, double* y, int64_t lines, int64_t axis_len,
                             int64_t inner) {
  const Fold max_fold{AxisReduction::max, 0};
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double shift = 0.0;
    if (fold.kind == AxisReduction::logsumexp) {
      shift = max_fold.identity();
      for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) shift = max_fold.combine(shift, x[line.at(j)]);
      shift = block_combine(max_fold, shift);
      if (shift_is_result(shift)) {  // the same for the whole block
        if (threadIdx.x == 0) y[l] = shift;
        continue;
      }
    }
    double acc = fold.identity();
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) acc = fold.combine(acc, fold.term(x[line.at(j)], shift));
    acc = block_combine(fold, acc);
    if (threadIdx.x == 0) y[l] = fold.finish(acc, shift, axis_len);
  }
}

}  // namespace

void reduce_axis_f64(AxisReduction kind, double p, const double* x, double* y, int64_t outer, int64_t axis_len,
                     int64_t inner, cudaStream_t stream) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const int64_t lines = outer * inner;
  if (lines <= 0) return;
  const Fold fold{kind, p};
  if (use_columns(inner)) {
    reduce_columns<<<grid_for(lines), kBlockThreads, 0, stream>>>(fold, x, y, lines, axis_len, inner);
  } else {
    reduce_lines<<<grid_for(lines, 1), kBlockThreads, 0, stream>>>(fold, x, y, lines, axis_len, inner);
  }
  cuda::check_launch("axis reduction kernel (fp64 reference)");
}

}  // namespace kbv::ops::reference
