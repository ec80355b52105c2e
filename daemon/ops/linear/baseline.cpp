// daemon/ops/linear/baseline.cpp — linear's CUDA baseline, as PyTorch eager runs F.linear: with a
// bias, one cuBLASLt matmul with the BIAS epilogue (addmm's gemm_and_bias path); without, a
// cublasSgemm on the transposed weight (F.linear → mm(x, Wᵀ)). Leading dims of x flatten into M.
// A scaling tail folded into the node (measure/baseline/gemm_scale_fold.hpp) is the GEMM's alpha,
// with the bias scaled by it first (cuBLASLt adds the bias after alpha), as torch.compile folds it;
// a ReLU folded in is the epilogue's (RELU_BIAS, or RELU through cuBLASLt for a linear without bias).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/blas.hpp"

namespace kbv::ops::linear {
namespace {

using baseline::math_text;
using cuda::CudaError;
using cuda::MathMode;
using cuda::measure::check;
using cuda::measure::CublasLtLayout;
using cuda::measure::CublasLtMatmulDesc;
using cuda::measure::CublasLtPreference;
using cuda::measure::kBlasWorkspaceBytes;
using cuda::measure::LibraryContext;
using cuda::measure::NodeStep;

constexpr float kOne = 1.f;
constexpr float kZero = 0.f;

// " alpha=1.5 (a scaling tail folded in)" for a folded scale, "" for none.
std::string alpha_text(float alpha) {
  if (alpha == kOne) return "";
  char text[48];
  std::snprintf(text, sizeof text, " alpha=%g (a scaling tail folded in)", static_cast<double>(alpha));
  return text;
}

// y[M,N] = x[M,K] · W[N,K]ᵀ, no bias: column-major yᵀ = op_T(W) · xᵀ.
class LinearNoBiasStep final : public NodeStep {
 public:
  LinearNoBiasStep(LibraryContext& context, int m, int n, int k, float alpha)
      : context_(context), m_(m), n_(n), k_(k), alpha_(alpha) {
    context_.cublas();
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t) override {
    check(cublasSgemm(context_.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n_, m_, k_, &alpha_, in[1], k_,
                      in[0], k_, &kZero, out, n_),
          "cublasSgemm (linear)");
  }
  std::string describe() const override {
    return "cublasSgemm (linear, no bias) m=" + std::to_string(m_) + " n=" + std::to_string(n_) +
           " k=" + std::to_string(k_) + alpha_text(alpha_) + " (" + math_text(context_.mode()) + ")";
  }

 private:
  LibraryContext& context_;
  int m_, n_, k_;
  float alpha_;
};

// y[M,N] = x[M,K] · W[N,K]ᵀ + b[N] with cuBLASLt's BIAS epilogue (bias along the column-major
// rows, i.e. per output feature), as PyTorch's gemm_and_bias; with `relu`, relu(y) in the same
// call (RELU_BIAS; RELU when there is no bias).
class LinearLtStep final : public NodeStep {
 public:
  LinearLtStep(LibraryContext& context, int m, int n, int k, float alpha, bool bias, bool relu)
      : context_(context), m_(m), n_(n), k_(k), alpha_(alpha), bias_(bias), relu_(relu) {
    if (bias_ && alpha_ != kOne) context_.reserve_scratch(sizeof(float) * static_cast<size_t>(n_));  // the scaled bias
    // COMPUTE_32F_FAST_TF32 is what PyTorch passes when allow_tf32 is on, COMPUTE_32F when off.
    const cublasComputeType_t compute = context_.mode() == MathMode::tf32
                                            ? CUBLAS_COMPUTE_32F_FAST_TF32
                                            : CUBLAS_COMPUTE_32F;
    cublasLtMatmulDesc_t desc = nullptr;
    check(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
    desc_.reset(desc);
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    const cublasLtEpilogue_t epilogue = chosen_epilogue();
    set_desc(CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose));
    set_desc(CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof(keep));
    set_desc(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
    weight_layout_ = layout(k_, n_, k_);  // W as stored: column-major K×N
    input_layout_ = layout(k_, m_, k_);   // x: column-major K×M
    output_layout_ = layout(n_, m_, n_);  // y: column-major N×M
    context_.cublaslt();
    algorithm_for(kMaxAlignment);  // fail at build time, not on the first call
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    const float* x = in[0];
    const float* w = in[1];
    const float* bias = bias_ ? in[2] : nullptr;
    if (bias_ && alpha_ != kOne) {
      // alpha·b into scratch: the epilogue adds the bias after alpha scaled the product.
      auto* scaled = static_cast<float*>(context_.scratch());
      check(cublasSgeam(context_.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n_, 1, &alpha_, bias, n_, &kZero, bias, n_, scaled, n_),
            "cublasSgeam (linear: bias times the folded scale)");
      bias = scaled;
    }
    if (bias_) set_desc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    const uint32_t alignment = std::min({alignment_of(x), alignment_of(w), alignment_of(out)});
    const cublasLtMatmulAlgo_t& algo = algorithm_for(alignment);
    check(cublasLtMatmul(context_.cublaslt(), desc_.get(), &alpha_, w, weight_layout_.get(), x,
                         input_layout_.get(), &kZero, out, output_layout_.get(), out,
                         output_layout_.get(), &algo, context_.blas_workspace(),
                         kBlasWorkspaceBytes, stream),
          "cublasLtMatmul (linear with its epilogue)");
  }

  std::string describe() const override {
    return std::string("cublasLtMatmul epilogue=") + epilogue_text() + " m=" + std::to_string(m_) + " n=" + std::to_string(n_) +
           " k=" + std::to_string(k_) + alpha_text(alpha_) + " compute=" +
           (context_.mode() == MathMode::tf32 ? "32F_FAST_TF32" : "32F") + " workspace=32MiB";
  }

 private:
  cublasLtEpilogue_t chosen_epilogue() const {
    if (relu_) return bias_ ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    return bias_ ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
  }
  const char* epilogue_text() const {
    if (relu_) return bias_ ? "RELU_BIAS (a ReLU folded in)" : "RELU (a ReLU folded in)";
    return bias_ ? "BIAS" : "DEFAULT";
  }

  // PyTorch's _getAlignment: the largest power of two up to 256 dividing the address, passed
  // to the heuristic as the operands' minimum alignment.
  static constexpr uint32_t kMaxAlignment = 256;
  static uint32_t alignment_of(const void* pointer) {
    const auto address = reinterpret_cast<uintptr_t>(pointer);
    uint32_t alignment = kMaxAlignment;
    while (alignment > 1 && address % alignment != 0) alignment /= 2;
    return alignment;
  }

  void set_desc(cublasLtMatmulDescAttributes_t attribute, const void* value, size_t bytes) {
    check(cublasLtMatmulDescSetAttribute(desc_.get(), attribute, value, bytes),
          "cublasLtMatmulDescSetAttribute");
  }

  static CublasLtLayout layout(int rows, int cols, int ld) {
    cublasLtMatrixLayout_t handle = nullptr;
    check(cublasLtMatrixLayoutCreate(&handle, CUDA_R_32F, static_cast<uint64_t>(rows),
                                     static_cast<uint64_t>(cols), ld),
          "cublasLtMatrixLayoutCreate");
    return CublasLtLayout(handle);
  }

  // The heuristic's first choice for operands aligned to `alignment` bytes, cached.
  const cublasLtMatmulAlgo_t& algorithm_for(uint32_t alignment) {
    if (auto it = algorithms_.find(alignment); it != algorithms_.end()) return it->second;
    cublasLtMatmulPreference_t raw = nullptr;
    check(cublasLtMatmulPreferenceCreate(&raw), "cublasLtMatmulPreferenceCreate");
    CublasLtPreference preference(raw);
    const uint64_t workspace = kBlasWorkspaceBytes;
    check(cublasLtMatmulPreferenceSetAttribute(raw, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                               &workspace, sizeof(workspace)),
          "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
    for (auto attribute : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                           CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                           CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                           CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
      check(cublasLtMatmulPreferenceSetAttribute(raw, attribute, &alignment, sizeof(alignment)),
            "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT)");
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    check(cublasLtMatmulAlgoGetHeuristic(context_.cublaslt(), desc_.get(), weight_layout_.get(),
                                         input_layout_.get(), output_layout_.get(),
                                         output_layout_.get(), raw, 1, &result, &found),
          "cublasLtMatmulAlgoGetHeuristic");
    if (found < 1)
      throw CudaError("cublasLtMatmulAlgoGetHeuristic: no algorithm for linear m=" +
                          std::to_string(m_) + " n=" + std::to_string(n_) +
                          " k=" + std::to_string(k_) + " at " + std::to_string(alignment) +
                          "-byte alignment",
                      0);
    return algorithms_.emplace(alignment, result.algo).first->second;
  }

  LibraryContext& context_;
  int m_, n_, k_;
  float alpha_;
  bool bias_, relu_;
  CublasLtMatmulDesc desc_;
  CublasLtLayout weight_layout_, input_layout_, output_layout_;
  std::map<uint32_t, cublasLtMatmulAlgo_t> algorithms_;
};

}  // namespace

std::unique_ptr<NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                             LibraryContext& context) {
  const std::vector<Shape>& in = node.input_shapes;  // x[..., K], weight[N, K], bias[N]?
  const int64_t k = in[0].back();
  const int m = baseline::as_blas_int(numel(in[0]) / k, node, "M");
  const int n = baseline::as_blas_int(in[1][0], node, "N");
  const int blas_k = baseline::as_blas_int(k, node, "K");
  const auto alpha = static_cast<float>(node.output_scale);
  const bool bias = in.size() == 3;
  if (bias || node.relu_epilogue) return std::make_unique<LinearLtStep>(context, m, n, blas_k, alpha, bias, node.relu_epilogue);
  return std::make_unique<LinearNoBiasStep>(context, m, n, blas_k, alpha);
}

}  // namespace kbv::ops::linear
