// daemon/ops/cross_entropy/reference.cu — cross_entropy's CUDA fp64 reference: one block per row
// (its max, the sum of exp(x − max), lse − x[target]) into per-row losses, then one block sums
// them in a fixed order and divides by the row count.
#include <cmath>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::cross_entropy {
namespace {

using cuda::detail::kBlockThreads;

// A target that is not a class index in [0, classes) gives a NaN loss, as on the host.
__global__ void row_losses(const double* logits, const double* targets, double* losses, int64_t rows, int64_t classes) {
  for (int64_t n = blockIdx.x; n < rows; n += gridDim.x) {
    const double* x = logits + n * classes;
    double peak = -INFINITY;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) peak = fmax(peak, x[c]);
    peak = reference::block_max(peak);
    double total = 0.0;
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) total += exp(x[c] - peak);
    total = reference::block_sum(total);
    if (threadIdx.x == 0) {
      const double target = targets[n];
      const bool valid = target >= 0.0 && target < static_cast<double>(classes) && floor(target) == target;
      losses[n] = valid ? peak + log(total) - x[static_cast<int64_t>(target)] : NAN;
    }
  }
}

__global__ void mean_of(const double* losses, double* out, int64_t rows) {
  double total = 0.0;
  for (int64_t n = threadIdx.x; n < rows; n += blockDim.x) total += losses[n];
  total = reference::block_sum(total);
  if (threadIdx.x == 0) out[0] = total / static_cast<double>(rows);
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  const int64_t rows = call.shape(0)[0], classes = call.shape(0)[1];
  auto losses = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(rows), call.stream);
  row_losses<<<cuda::detail::grid_for(rows, 1), kBlockThreads, 0, call.stream>>>(call.input(0), call.input(1), losses.get(), rows, classes);
  cuda::check_launch("cross_entropy row_losses");
  mean_of<<<1, kBlockThreads, 0, call.stream>>>(losses.get(), call.output(), rows);
  cuda::check_launch("cross_entropy mean_of");
}

}  // namespace kbv::ops::cross_entropy
