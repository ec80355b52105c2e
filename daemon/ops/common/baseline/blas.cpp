// daemon/ops/common/baseline/blas.cpp — the cuBLAS GEMM step matmul and bmm share.
#include "ops/common/baseline/blas.hpp"

#include <climits>
#include <stdexcept>

#include "measure/support/library_errors.hpp"

namespace kbv::ops::baseline {
namespace {

using cuda::measure::LibraryContext;

constexpr float kOne = 1.f;
constexpr float kZero = 0.f;

class GemmStep final : public cuda::measure::NodeStep {
 public:
  GemmStep(LibraryContext& context, int64_t batch, int m, int n, int k)
      : context_(context), batch_(batch), m_(m), n_(n), k_(k) {
    context_.cublas();
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t) override {
    const float* a = in[0];
    const float* b = in[1];
    if (batch_ == 1) {
      cuda::measure::check(cublasSgemm(context_.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_,
                                       &kOne, b, n_, a, k_, &kZero, out, n_),
                           "cublasSgemm");
    } else {
      cuda::measure::check(
          cublasSgemmStridedBatched(context_.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_, &kOne,
                                    b, n_, static_cast<long long>(k_) * n_, a, k_,
                                    static_cast<long long>(m_) * k_, &kZero, out, n_,
                                    static_cast<long long>(m_) * n_, static_cast<int>(batch_)),
          "cublasSgemmStridedBatched");
    }
  }

  std::string describe() const override {
    return std::string(batch_ == 1 ? "cublasSgemm" : "cublasSgemmStridedBatched") +
           " batch=" + std::to_string(batch_) + " m=" + std::to_string(m_) +
           " n=" + std::to_string(n_) + " k=" + std::to_string(k_) + " (" +
           math_text(context_.mode()) + ")";
  }

 private:
  LibraryContext& context_;
  int64_t batch_;
  int m_, n_, k_;
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

std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(LibraryContext& context, int64_t batch,
                                                       int m, int n, int k) {
  return std::make_unique<GemmStep>(context, batch, m, n, k);
}

}  // namespace kbv::ops::baseline
