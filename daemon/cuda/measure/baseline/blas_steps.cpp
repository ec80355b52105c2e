// baseline/blas_steps.cpp — matmul, bmm and linear as PyTorch eager calls cuBLAS:
//   mm       → cublasSgemm                  (at::cuda::blas::gemm<float>)
//   bmm      → cublasSgemmStridedBatched    (at::cuda::blas::bgemm<float>)
//   linear   → cuBLASLt matmul, epilogue BIAS (addmm's gemm_and_bias path) when a bias is
//              given, else cublasSgemm on the transposed weight (F.linear → mm(x, Wᵀ)).
// Row-major C[M,N] = A[M,K]·B[K,N] is column-major Cᵀ = Bᵀ·Aᵀ: the operands swap and no
// transpose is needed (PyTorch does the same).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure {
namespace {

constexpr float kOne = 1.f;
constexpr float kZero = 0.f;

int as_blas_int(int64_t value, const NodeContext& node, const char* dim) {
  if (value < 1 || value > INT_MAX)
    throw std::invalid_argument(node.where() + ": dimension " + dim + " = " +
                                std::to_string(value) + " is outside cuBLAS's int range");
  return static_cast<int>(value);
}

std::string math_text(MathMode mode) {
  return mode == MathMode::tf32 ? "TF32 tensor-op math" : "strict fp32 math";
}

// C[batch][M,N] = A[batch][M,K] · B[batch][K,N]
class GemmStep final : public NodeStep {
 public:
  GemmStep(LibraryContext& context, int64_t batch, int m, int n, int k)
      : context_(context), batch_(batch), m_(m), n_(n), k_(k) {
    context_.cublas();
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t) override {
    const float* a = in[0];
    const float* b = in[1];
    if (batch_ == 1) {
      check(cublasSgemm(context_.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_, &kOne, b, n_, a,
                        k_, &kZero, out, n_),
            "cublasSgemm");
    } else {
      check(cublasSgemmStridedBatched(
                context_.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_, &kOne, b, n_,
                static_cast<long long>(k_) * n_, a, k_, static_cast<long long>(m_) * k_, &kZero,
                out, n_, static_cast<long long>(m_) * n_, static_cast<int>(batch_)),
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

// y[M,N] = x[M,K] · W[N,K]ᵀ, no bias: column-major yᵀ = op_T(W) · xᵀ.
class LinearNoBiasStep final : public NodeStep {
 public:
  LinearNoBiasStep(LibraryContext& context, int m, int n, int k)
      : context_(context), m_(m), n_(n), k_(k) {
    context_.cublas();
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t) override {
    check(cublasSgemm(context_.cublas(), CUBLAS_OP_T, CUBLAS_OP_N, n_, m_, k_, &kOne, in[1], k_,
                      in[0], k_, &kZero, out, n_),
          "cublasSgemm (linear)");
  }
  std::string describe() const override {
    return "cublasSgemm (linear, no bias) m=" + std::to_string(m_) + " n=" + std::to_string(n_) +
           " k=" + std::to_string(k_) + " (" + math_text(context_.mode()) + ")";
  }

 private:
  LibraryContext& context_;
  int m_, n_, k_;
};

// y[M,N] = x[M,K] · W[N,K]ᵀ + b[N] with cuBLASLt's BIAS epilogue (bias along the column-major
// rows, i.e. per output feature), as PyTorch's gemm_and_bias.
class LinearBiasStep final : public NodeStep {
 public:
  LinearBiasStep(LibraryContext& context, int m, int n, int k)
      : context_(context), m_(m), n_(n), k_(k) {
    // COMPUTE_32F_FAST_TF32 is what PyTorch passes when allow_tf32 is on, COMPUTE_32F when off.
    const cublasComputeType_t compute = context_.mode() == MathMode::tf32
                                            ? CUBLAS_COMPUTE_32F_FAST_TF32
                                            : CUBLAS_COMPUTE_32F;
    cublasLtMatmulDesc_t desc = nullptr;
    check(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
    desc_.reset(desc);
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
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
    const float* bias = in[2];
    set_desc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    const uint32_t alignment = std::min({alignment_of(x), alignment_of(w), alignment_of(out)});
    const cublasLtMatmulAlgo_t& algo = algorithm_for(alignment);
    check(cublasLtMatmul(context_.cublaslt(), desc_.get(), &kOne, w, weight_layout_.get(), x,
                         input_layout_.get(), &kZero, out, output_layout_.get(), out,
                         output_layout_.get(), &algo, context_.blas_workspace(),
                         kBlasWorkspaceBytes, stream),
          "cublasLtMatmul (linear + bias epilogue)");
  }

  std::string describe() const override {
    return "cublasLtMatmul epilogue=BIAS m=" + std::to_string(m_) + " n=" + std::to_string(n_) +
           " k=" + std::to_string(k_) + " compute=" +
           (context_.mode() == MathMode::tf32 ? "32F_FAST_TF32" : "32F") + " workspace=32MiB";
  }

 private:
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
  CublasLtMatmulDesc desc_;
  CublasLtLayout weight_layout_, input_layout_, output_layout_;
  std::map<uint32_t, cublasLtMatmulAlgo_t> algorithms_;
};

}  // namespace

std::unique_ptr<NodeStep> make_blas_step(const NodeContext& node, LibraryContext& context) {
  const std::string& op = node.node.op;
  const std::vector<Shape>& in = node.input_shapes;
  if (op == "matmul" || op == "bmm") {
    if (in.size() != 2) throw std::invalid_argument(node.where() + ": expected inputs a, b");
    const Shape& a = in[0];
    const Shape& b = in[1];
    if (a.size() == 2 && b.size() == 2 && a[1] == b[0])
      return std::make_unique<GemmStep>(context, 1, as_blas_int(a[0], node, "M"),
                                        as_blas_int(b[1], node, "N"),
                                        as_blas_int(a[1], node, "K"));
    if (a.size() == 3 && b.size() == 3 && a[0] == b[0] && a[2] == b[1])
      return std::make_unique<GemmStep>(context, as_blas_int(a[0], node, "batch"),
                                        as_blas_int(a[1], node, "M"),
                                        as_blas_int(b[2], node, "N"),
                                        as_blas_int(a[2], node, "K"));
    throw std::invalid_argument(node.where() + ": the CUDA baseline runs [M,K]·[K,N] and "
                                "[B,M,K]·[B,K,N]; got " + kbv::to_string(a) + " · " + kbv::to_string(b));
  }
  // linear: x[..., K], weight[N, K], bias[N] optional; leading dims of x flatten into M.
  if (in.size() < 2 || in.size() > 3 || in[1].size() != 2 || in[0].empty() ||
      in[0].back() != in[1][1])
    throw std::invalid_argument(node.where() + ": expected x[..., K], weight[N, K], bias[N]?");
  const int64_t k = in[0].back();
  const int64_t m = numel(in[0]) / k;
  const int64_t n = in[1][0];
  if (in.size() == 3)
    return std::make_unique<LinearBiasStep>(context, as_blas_int(m, node, "M"),
                                            as_blas_int(n, node, "N"), as_blas_int(k, node, "K"));
  return std::make_unique<LinearNoBiasStep>(context, as_blas_int(m, node, "M"),
                                            as_blas_int(n, node, "N"), as_blas_int(k, node, "K"));
}

}  // namespace kbv::cuda::measure
