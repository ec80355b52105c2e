// tests/sdk/out_of_tree/my_matmul_cublas.cu — an out-of-tree author's stateful CUDA candidate (KBV_CANDIDATE_CLASS): a
// cuBLAS handle and its workspace are created once in create() (the constructor) and released
// in destroy() (the destructor), not on every call. The GEMM is cuBLAS's, so kbv flags it
// calls_library (non-gating).
#include <kbv/plugin.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <memory>
#include <string>

namespace {

// cuBLAS's recommended workspace on Hopper (cuBLAS documentation, cublasSetWorkspace).
constexpr size_t kWorkspaceBytes = size_t{32} << 20;

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw kbv::Error(KBV_STATUS_DEVICE_ERROR, std::string(what) + ": " + cublasGetStatusString(status));
}

struct HandleDeleter {
  void operator()(cublasHandle_t handle) const { cublasDestroy(handle); }
};
struct DeviceDeleter {
  void operator()(void* pointer) const { cudaFree(pointer); }
};

}  // namespace

class CublasMatmul {
 public:
  CublasMatmul() {
    cublasHandle_t handle = nullptr;
    check(cublasCreate(&handle), "cublasCreate");
    handle_.reset(handle);
    check(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH), "cublasSetMathMode");
    void* workspace = nullptr;
    if (const cudaError_t error = cudaMalloc(&workspace, kWorkspaceBytes); error != cudaSuccess)
      throw kbv::Error(KBV_STATUS_DEVICE_ERROR, std::string("cudaMalloc(workspace): ") + cudaGetErrorString(error));
    workspace_.reset(workspace);
    check(cublasSetWorkspace(handle, workspace, kWorkspaceBytes), "cublasSetWorkspace");
  }

  kbv_status run(kbv::Call& call) {
    const kbv::Tensor a = call.input("a"), b = call.input("b"), c = call.output("c");
    const int m = static_cast<int>(a.dim(0)), k = static_cast<int>(a.dim(1)), n = static_cast<int>(b.dim(1));
    check(cublasSetStream(handle_.get(), static_cast<cudaStream_t>(call.stream())), "cublasSetStream");
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: swap the operands, no transposes.
    check(cublasSgemm(handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.data<float>(), n, a.data<float>(), k, &zero, c.data<float>(), n),
          "cublasSgemm");
    return KBV_STATUS_OK;
  }

 private:
  // Destroyed in reverse order: the handle before the workspace it uses.
  std::unique_ptr<void, DeviceDeleter> workspace_;
  std::unique_ptr<cublasContext, HandleDeleter> handle_;
};

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_CUDA, "my_matmul_cublas", CublasMatmul)
