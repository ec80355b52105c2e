// daemon/ops/sdpa/baseline.cu — sdpa's CUDA baseline: PyTorch's math path in three steps per chunk
// of batches — cublasSgemmStridedBatched for scores = q·kᵀ·scale, kbv's row softmax (causal rows
// masked; ops/common/baseline/softmax_f32.cuh), cublasSgemmStridedBatched for p·v — TF32 or
// strict fp32 by the library context's math mode; chunks of kBaselineScoreChunkBytes of scores
// (ops/sdpa/baseline.hpp).
//
// This library baseline is weaker than PyTorch here: for fp32 inputs PyTorch eager dispatches to
// its fused memory-efficient attention kernel (flash attention takes fp16/bf16 only), which
// never writes the [L, S] scores to memory and is faster than these three steps; it falls back
// to this same math path only where that kernel's constraints fail. cuDNN's fused SDPA takes
// fp8, fp16 and bf16 on Hopper, not fp32, and head dims up to 256 (its support matrix, cuDNN
// 9.18), so no library offers the fused fp32 form to call instead. For this op, read the eager
// and compiled PyTorch baselines (torch calibration) beside the library one.
#include <algorithm>
#include <memory>

#include "ops/common/baseline/blas.hpp"
#include "ops/common/baseline/softmax_f32.cuh"
#include "ops/sdpa/baseline.hpp"
#include "ops/sdpa/sdpa_geometry.hpp"

namespace kbv::ops::sdpa {
namespace {

using baseline::BlasGemm;
using cuda::measure::LibraryContext;

constexpr int64_t kFloatBytes = sizeof(float);

class SdpaStep final : public cuda::measure::NodeStep {
 public:
  SdpaStep(LibraryContext& context, const SdpaGeometry& g, const cuda::measure::NodeContext& node,
           int64_t score_chunk_bytes)
      : context_(context), g_(g),
        chunk_(std::clamp<int64_t>(score_chunk_bytes / (g.l * g.s * kFloatBytes), 1, g.batch)) {
    qk_.m = baseline::as_blas_int(g.l, node, "L");
    qk_.n = baseline::as_blas_int(g.s, node, "S");
    qk_.k = baseline::as_blas_int(g.e, node, "E");
    qk_.transpose_b = true;
    qk_.a_stride = g.l * g.e, qk_.b_stride = g.s * g.e, qk_.c_stride = g.l * g.s;
    qk_.alpha = static_cast<float>(g.scale);
    pv_.m = qk_.m, pv_.n = baseline::as_blas_int(g.ev, node, "Ev"), pv_.k = qk_.n;
    pv_.a_stride = g.l * g.s, pv_.b_stride = g.s * g.ev, pv_.c_stride = g.l * g.ev;
    baseline::as_blas_int(chunk_, node, "batch");
    context_.cublas();
    context_.reserve_scratch(2 * static_cast<size_t>(chunk_ * g.l * g.s) * sizeof(float));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    float* scores = static_cast<float*>(context_.scratch());
    float* probabilities = scores + chunk_ * g_.l * g_.s;
    for (int64_t first = 0; first < g_.batch; first += chunk_) {
      const int batches = static_cast<int>(std::min(chunk_, g_.batch - first));
      BlasGemm qk = qk_, pv = pv_;
      qk.batch = pv.batch = batches;
      baseline::run_gemm(context_, qk, in[0] + first * g_.l * g_.e, in[1] + first * g_.s * g_.e, scores);
      baseline::launch_softmax_rows<false>(scores, probabilities, batches * g_.l, g_.s, g_.causal ? g_.l : 0,
                                           baseline::row_blocks(batches * g_.l), stream);
      cuda::check_launch("kbv softmax kernel");
      baseline::run_gemm(context_, pv, probabilities, in[2] + first * g_.s * g_.ev,
                         out + first * g_.l * g_.ev);
    }
  }

  std::string describe() const override {
    BlasGemm qk = qk_, pv = pv_;
    qk.batch = pv.batch = static_cast<int>(chunk_);
    return "sdpa in " + std::to_string((g_.batch + chunk_ - 1) / chunk_) + " chunk(s): " +
           baseline::gemm_text(qk, context_.mode()) + ", kbv softmax kernel" +
           (g_.causal ? " (causal)" : "") + ", " + baseline::gemm_text(pv, context_.mode());
  }

 private:
  LibraryContext& context_;
  SdpaGeometry g_;
  int64_t chunk_;
  BlasGemm qk_, pv_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_sdpa_step(const cuda::measure::NodeContext& node,
                                                        LibraryContext& context,
                                                        int64_t score_chunk_bytes) {
  const Attrs attrs{{"is_causal", node.attr("is_causal")}, {"scale", node.attr("scale")}};
  return std::make_unique<SdpaStep>(context, sdpa_geometry(node.node.op, node.input_shapes, attrs),
                                    node, score_chunk_bytes);
}

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            LibraryContext& context) {
  return make_sdpa_step(node, context, kBaselineScoreChunkBytes);
}

}  // namespace kbv::ops::sdpa
