// daemon/ops/common/baseline/blas.cpp — the cuBLAS GEMM calls and the GEMM step matmul and bmm
// share (and sdpa's two products).
#include "ops/common/baseline/blas.hpp"

#include <climits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/pad_copy.hpp"

namespace kbv::ops::baseline {
namespace {

using cuda::measure::LibraryContext;

constexpr float kZero = 0.f;

// Leading dimensions that are multiples of 4 floats (16 bytes): cuBLAS's sm90 tensor-core kernels
// (TMA) need 16-byte aligned strides and fall back to far slower ones without them. KernelBench
// L1 #8 (8205x2949 · 2949x5921) on an H200, TF32: cuBLAS 2.39 ms as called, torch.compile 0.97
// ms, which pads the operands first (inductor's pad_mm). The library pads the same way.
constexpr int kAlignedFloats = 4;
// Padding copies A and B and C once more: worth it only for products large enough that the copies
// are small beside them (L1 #8 is 143 G multiply-adds; its copies move 0.7 GB, ~0.2 ms).
constexpr double kPadMinMultiplyAdds = 1u << 30;

int64_t aligned_up(int64_t value) { return (value + kAlignedFloats - 1) / kAlignedFloats * kAlignedFloats; }

// One row-major matrix as stored (rows x cols, densely) and its zero-padded copy.
struct PaddedMatrix {
  int64_t rows = 0, cols = 0, padded_rows = 0, padded_cols = 0;
  size_t padded_count() const { return static_cast<size_t>(padded_rows * padded_cols); }
  // Copies `source` in and zeroes the pad (scratch is shared with other steps, so every run).
  void fill(float* padded, const float* source, cudaStream_t stream) const {
    pad_matrix(padded, padded_rows, padded_cols, source, rows, cols, stream);
  }
};

// The padded form of one unaligned product (pad_mm): K and N rounded up with zeros (and M, when A
// is stored transposed, since M is then its row length), each operand's stored leading dimension
// aligned, the product into a padded C [gemm.m, gemm.n] whose first m rows and n columns (the
// call's own) are copied out. nullopt when the product is aligned already, batched, or too small
// to gain.
struct PaddedGemm {
  BlasGemm gemm;  // on the padded operands: k and n padded, m too when A is transposed
  PaddedMatrix a, b;
  size_t scratch_floats() const { return a.padded_count() + b.padded_count() + static_cast<size_t>(gemm.m) * static_cast<size_t>(gemm.n); }
};

std::optional<PaddedGemm> padded_form(const BlasGemm& g) {
  const int64_t lda = g.transpose_a ? g.m : g.k, ldb = g.transpose_b ? g.k : g.n;
  const bool aligned = lda % kAlignedFloats == 0 && ldb % kAlignedFloats == 0 && g.n % kAlignedFloats == 0;
  if (aligned || g.batch != 1 || static_cast<double>(g.m) * g.n * g.k < kPadMinMultiplyAdds) return std::nullopt;
  // cuBLAS reads a transposed A's leading dimension from m (run_gemm), so m is padded with it.
  const int64_t padded_m = g.transpose_a ? aligned_up(g.m) : g.m, padded_n = aligned_up(g.n), padded_k = aligned_up(g.k);
  PaddedGemm p;
  // A stored [m,k] (or [k,m]); B stored [k,n] (or [n,k]); the K axis and B's N axis padded with
  // zeros, every stored row padded to an aligned length.
  p.a = g.transpose_a ? PaddedMatrix{g.k, g.m, padded_k, padded_m} : PaddedMatrix{g.m, g.k, g.m, padded_k};
  p.b = g.transpose_b ? PaddedMatrix{g.n, g.k, padded_n, padded_k} : PaddedMatrix{g.k, g.n, padded_k, padded_n};
  p.gemm = g;
  p.gemm.m = static_cast<int>(padded_m);
  p.gemm.n = static_cast<int>(padded_n);
  p.gemm.k = static_cast<int>(padded_k);
  p.gemm.a_offset = p.gemm.b_offset = p.gemm.c_offset = 0;
  return p;
}

class GemmStep final : public cuda::measure::NodeStep {
 public:
  GemmStep(LibraryContext& context, std::vector<BlasGemm> calls)
      : context_(context), calls_(std::move(calls)) {
    context_.cublas();
    if (calls_.size() == 1) padded_ = padded_form(calls_.front());
    if (padded_) context_.reserve_scratch(padded_->scratch_floats() * sizeof(float));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    const BlasGemm& call = calls_.front();
    if (padded_) return run_padded(*padded_, call, in[0] + call.a_offset, in[1] + call.b_offset, out + call.c_offset, stream);
    for (const BlasGemm& gemm : calls_) run_gemm(context_, gemm, in[0], in[1], out);
  }

  std::string describe() const override {
    if (padded_)
      return gemm_text(padded_->gemm, context_.mode()) + " on operands padded to 16-byte aligned rows (K " +
             std::to_string(calls_.front().k) + " and N " + std::to_string(calls_.front().n) + " as given), as torch.compile's pad_mm";
    std::string text = gemm_text(calls_.front(), context_.mode());
    if (calls_.size() > 1) text += " and " + std::to_string(calls_.size() - 1) + " more like it";
    return text;
  }

 private:
  // `call`: the product as given, whose m rows and n columns of the padded C are its result.
  void run_padded(const PaddedGemm& p, const BlasGemm& call, const float* a, const float* b, float* c, cudaStream_t stream) {
    auto* padded_a = static_cast<float*>(context_.scratch());
    float* padded_b = padded_a + p.a.padded_count();
    float* padded_c = padded_b + p.b.padded_count();
    p.a.fill(padded_a, a, stream);
    p.b.fill(padded_b, b, stream);
    run_gemm(context_, p.gemm, padded_a, padded_b, padded_c);
    crop_matrix(c, call.m, call.n, padded_c, p.gemm.n, stream);
  }

  LibraryContext& context_;
  std::vector<BlasGemm> calls_;
  std::optional<PaddedGemm> padded_;
};

}  // namespace

int as_blas_int(int64_t value, const cuda::measure::NodeContext& node, const char* dim) {
  if (value < 1 || value > INT_MAX)
    throw std::invalid_argument(node.where() + ": dimension " + dim + " = " +
                                std::to_string(value) + " is outside cuBLAS's int range");
  return static_cast<int>(value);
}

std::string math_text(cuda::MathMode mode) {
  return mode == cuda::MathMode::tf32 ? "TF32 tensor-op math" : "strict fp32 math";
}

void run_gemm(LibraryContext& context, const BlasGemm& g, const float* a, const float* b,
              float* c) {
  // Column-major: Cᵀ[n,m] = op(Bᵀ)[n,k] · op(Aᵀ)[k,m]; a row-major [k,n] B read column-major is
  // Bᵀ with leading dimension n, a row-major [n,k] one is B (op T) with leading dimension k.
  const cublasOperation_t op_b = g.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = g.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ldb = g.transpose_b ? g.k : g.n;
  const int lda = g.transpose_a ? g.m : g.k;
  a += g.a_offset;
  b += g.b_offset;
  c += g.c_offset;
  if (g.batch == 1) {
    cuda::measure::check(cublasSgemm(context.cublas(), op_b, op_a, g.n, g.m, g.k, &g.alpha, b, ldb,
                                     a, lda, &kZero, c, g.n),
                         "cublasSgemm");
    return;
  }
  cuda::measure::check(
      cublasSgemmStridedBatched(context.cublas(), op_b, op_a, g.n, g.m, g.k, &g.alpha, b, ldb,
                                g.b_stride, a, lda, g.a_stride, &kZero, c, g.n, g.c_stride,
                                g.batch),
      "cublasSgemmStridedBatched");
}

std::string gemm_text(const BlasGemm& g, cuda::MathMode mode) {
  return std::string(g.batch == 1 ? "cublasSgemm" : "cublasSgemmStridedBatched") +
         " batch=" + std::to_string(g.batch) + " m=" + std::to_string(g.m) +
         " n=" + std::to_string(g.n) + " k=" + std::to_string(g.k) +
         (g.transpose_a ? " op(A)=T" : "") + (g.transpose_b ? " op(B)=T" : "") + " (" +
         math_text(mode) + ")";
}

std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(LibraryContext& context,
                                                       std::vector<BlasGemm> calls) {
  if (calls.empty()) throw std::invalid_argument("make_gemm_step: no GEMM to run");
  return std::make_unique<GemmStep>(context, std::move(calls));
}

std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(LibraryContext& context, int64_t batch,
                                                       int m, int n, int k) {
  if (batch < 1 || batch > INT_MAX)
    throw std::invalid_argument("make_gemm_step: batch " + std::to_string(batch) +
                                " is outside cuBLAS's int range");
  BlasGemm gemm;
  gemm.m = m, gemm.n = n, gemm.k = k, gemm.batch = static_cast<int>(batch);
  gemm.a_stride = static_cast<int64_t>(m) * k;
  gemm.b_stride = static_cast<int64_t>(k) * n;
  gemm.c_stride = static_cast<int64_t>(m) * n;
  return make_gemm_step(context, {gemm});
}

}  // namespace kbv::ops::baseline
