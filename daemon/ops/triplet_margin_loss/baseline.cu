// daemon/ops/triplet_margin_loss/baseline.cu — triplet_margin_loss's CUDA baseline: one kbv kernel
// with a block per row that sums its distances' norm terms (float4 loads where D and the rows
// allow) and writes the row's loss, then the mean of the rows' losses
// (ops/common/baseline/sum_terms_f32.cuh); fp32 in either math mode. PyTorch eager runs each
// pairwise_distance as a subtract, an add and a norm, then the hinge and the mean.
#include <memory>

#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/sum_terms_f32.cuh"
#include "ops/triplet_margin_loss/triplet_margin_loss.hpp"

namespace kbv::ops::triplet_margin_loss {
namespace {

using namespace baseline;

struct RowParams {
  float margin, p, eps;
  bool swap;
};

// Σ over a row of norm_term(x − y + eps): three running sums, one per distance.
struct Sums {
  float ap = 0.f, an = 0.f, pn = 0.f;
  __device__ void add(float a, float p, float n, const RowParams& r) {
    ap += Definition::norm_term(a - p + r.eps, r.p);
    an += Definition::norm_term(a - n + r.eps, r.p);
    if (r.swap) pn += Definition::norm_term(p - n + r.eps, r.p);
  }
};

template <bool kVector>
__global__ void row_losses_kernel(const float* __restrict__ anchor, const float* __restrict__ positive,
                                  const float* __restrict__ negative, int64_t rows, int64_t d,
                                  RowParams r, float* __restrict__ losses) {
  __shared__ float shared[device::kMaxWarpsPerBlock];
  for (int64_t n = blockIdx.x; n < rows; n += gridDim.x) {
    const float* a = anchor + n * d;
    const float* p = positive + n * d;
    const float* q = negative + n * d;
    Sums sums;
    if (kVector) {
      const auto* a4 = reinterpret_cast<const float4*>(a);
      const auto* p4 = reinterpret_cast<const float4*>(p);
      const auto* q4 = reinterpret_cast<const float4*>(q);
      for (int64_t i = threadIdx.x; i < d / 4; i += blockDim.x) {
        const float4 va = a4[i], vp = p4[i], vq = q4[i];
        sums.add(va.x, vp.x, vq.x, r);
        sums.add(va.y, vp.y, vq.y, r);
        sums.add(va.z, vp.z, vq.z, r);
        sums.add(va.w, vp.w, vq.w, r);
      }
    } else {
      for (int64_t j = threadIdx.x; j < d; j += blockDim.x) sums.add(a[j], p[j], q[j], r);
    }
    const float d_ap = Definition::norm_of(device::block_sum(sums.ap, shared), r.p);
    const float d_an = Definition::norm_of(device::block_sum(sums.an, shared), r.p);
    const float d_pn = r.swap ? Definition::norm_of(device::block_sum(sums.pn, shared), r.p) : 0.f;
    if (threadIdx.x == 0) losses[n] = Definition::row_loss(d_ap, d_an, d_pn, r.margin, r.swap);
  }
}

struct RowTerm {
  const float* losses;
  __device__ float operator()(int64_t n) const { return losses[n]; }
};

class TripletStep final : public cuda::measure::NodeStep {
 public:
  TripletStep(cuda::measure::LibraryContext& context, int64_t rows, int64_t d, RowParams params)
      : context_(context), rows_(rows), d_(d), params_(params),
        blocks_(sum_blocks(rows, context.sm_count())) {
    context_.reserve_scratch((static_cast<size_t>(rows_) + blocks_) * sizeof(float));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    float* losses = static_cast<float*>(context_.scratch());
    float* partials = losses + rows_;
    const bool vector = d_ % 4 == 0 && device::aligned16(in[0]) && device::aligned16(in[1]) &&
                        device::aligned16(in[2]);
    const int threads = row_threads(vector ? d_ / 4 : d_);
    if (vector)
      row_losses_kernel<true><<<row_blocks(rows_), threads, 0, stream>>>(in[0], in[1], in[2], rows_,
                                                                         d_, params_, losses);
    else
      row_losses_kernel<false><<<row_blocks(rows_), threads, 0, stream>>>(in[0], in[1], in[2], rows_,
                                                                          d_, params_, losses);
    cuda::check_launch("kbv triplet_margin_loss row kernel");
    sum_terms_f32(RowTerm{losses}, rows_, static_cast<float>(rows_), partials, blocks_, out, stream);
  }

  std::string describe() const override {
    return "kbv triplet_margin_loss kernels (a block per row, then the mean) rows=" +
           std::to_string(rows_) + " d=" + std::to_string(d_) + (params_.swap ? " swap" : "");
  }

 private:
  cuda::measure::LibraryContext& context_;
  int64_t rows_, d_;
  RowParams params_;
  unsigned blocks_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& anchor = node.input_shapes.at(0);  // [N, D]
  const RowParams params{static_cast<float>(node.attr("margin")), static_cast<float>(node.attr("p")),
                         static_cast<float>(node.attr("eps")), node.attr("swap") != 0};
  return std::make_unique<TripletStep>(context, anchor[0], anchor[1], params);
}

}  // namespace kbv::ops::triplet_margin_loss
