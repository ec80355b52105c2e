// daemon/ops/triplet_margin_loss/reference.cu — triplet_margin_loss's CUDA fp64 reference: one
// block per row sums the norms' terms of its two (three when swapping) distances, then the mean
// of the rows' losses (ops/common/reference/sum_terms_f64.cuh).
#include "common/device_buffer.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/sum_terms_f64.cuh"
#include "ops/triplet_margin_loss/triplet_margin_loss.hpp"

namespace kbv::ops::triplet_margin_loss {
namespace {

struct RowParams {
  double margin, p, eps;
  bool swap;
};

__device__ double distance(const double* x, const double* y, int64_t d, const RowParams& r) {
  double sum = 0.0;
  for (int64_t j = threadIdx.x; j < d; j += blockDim.x) sum += Definition::norm_term(x[j] - y[j] + r.eps, r.p);
  return Definition::norm_of(reference::block_sum(sum), r.p);
}

__global__ void row_losses(const double* anchor, const double* positive, const double* negative,
                           int64_t rows, int64_t d, RowParams r, double* losses) {
  for (int64_t n = blockIdx.x; n < rows; n += gridDim.x) {
    const double* a = anchor + n * d;
    const double* p = positive + n * d;
    const double* q = negative + n * d;
    const double d_ap = distance(a, p, d, r);
    const double d_an = distance(a, q, d, r);
    const double d_pn = r.swap ? distance(p, q, d, r) : 0.0;
    if (threadIdx.x == 0) losses[n] = Definition::row_loss(d_ap, d_an, d_pn, r.margin, r.swap);
  }
}

struct RowTerm {
  const double* losses;
  __device__ double operator()(int64_t n) const { return losses[n]; }
};

}  // namespace

void device_reference(const ReferenceCall& call) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const int64_t rows = call.shape(0)[0], d = call.shape(0)[1];
  const RowParams r{call.real("margin"), call.real("p"), call.real("eps"), call.integer("swap", 0) != 0};
  auto losses = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(rows), call.stream);
  row_losses<<<grid_for(rows, 1), kBlockThreads, 0, call.stream>>>(call.input(0), call.input(1),
                                                                   call.input(2), rows, d, r, losses.get());
  cuda::check_launch("triplet_margin_loss row kernel");
  reference::sum_terms_f64(RowTerm{losses.get()}, rows, static_cast<double>(rows), call.output(), call.stream);
}

}  // namespace kbv::ops::triplet_margin_loss
