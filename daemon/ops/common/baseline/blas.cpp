// daemon/ops/common/baseline/blas.cpp — the cuBLAS GEMM calls and the GEMM step matmul and bmm
// share (and sdpa's two products).
#include "ops/common/baseline/blas.hpp"

#include <climits>
#include <stdexcept>
#include <utility>

#include "measure/support/library_errors.hpp"

namespace kbv::ops::baseline {
namespace {

using cuda::measure::LibraryContext;

constexpr float kZero = 0.f;

class GemmStep final : public cuda::measure::NodeStep {
 public:
  GemmStep(LibraryContext& context, std::vector<BlasGemm> calls)
      : context_(context), calls_(std::move(calls)) {
    context_.cublas();
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t) override {
    for (const BlasGemm& gemm : calls_) run_gemm(context_, gemm, in[0], in[1], out);
  }

  std::string describe() const override {
    std::string text = gemm_text(calls_.front(), context_.mode());
    if (calls_.size() > 1) text += " and " + std::to_string(calls_.size() - 1) + " more like it";
    return text;
  }

 private:
  LibraryContext& context_;
  std::vector<BlasGemm> calls_;
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
