// cuda kb_l3_{1,2,3} MLPs (wmma TF32, fused) — Linear → ReLU → … → Linear: every layer one TF32
// tensor-core GEMM (tf32_gemm.cuh) with the bias and the ReLU in its epilogue, activations
// ping-ponging between two device buffers the candidate keeps from call to call. The same source
// serves any depth: the layers are the inputs after x, a (weight, bias) pair each.
#include <memory>

#include "tf32_gemm.cuh"

namespace {

struct Relu {
  __device__ float operator()(float z) const { return fmaxf(z, 0.0f); }
};
struct Identity {
  __device__ float operator()(float z) const { return z; }
};

// Device memory freed with the object that owns it.
struct CudaFree {
  void operator()(float* p) const { cudaFree(p); }
};
using DeviceFloats = std::unique_ptr<float, CudaFree>;

DeviceFloats allocate(int64_t count) {
  float* p = nullptr;
  if (cudaMalloc(&p, static_cast<size_t>(count) * sizeof(float)) != cudaSuccess)
    throw kbv::Error(KBV_STATUS_DEVICE_ERROR, "cudaMalloc of " + std::to_string(count) + " activations failed");
  return DeviceFloats(p);
}

class Mlp {
 public:
  kbv_status run(kbv::Call& call) {
    using cuda_candidate::expect;
    const uint32_t inputs = call.num_inputs();
    if (!expect(inputs >= 3 && inputs % 2 == 1, "expected x then a (weight, bias) pair per layer")) return KBV_STATUS_INVALID_ARGUMENT;
    if (!cuda_candidate::expect_f32(call, inputs, 1)) return KBV_STATUS_INVALID_ARGUMENT;
    const uint32_t layers = (inputs - 1) / 2;
    const kbv::Tensor x = call.input(0u);
    const int64_t batch = x.dim(0u);
    int64_t width = x.dim(1u), widest_hidden = 0;
    for (uint32_t l = 0; l < layers; ++l) {
      const kbv::Tensor w = call.input(1 + 2 * l), b = call.input(2 + 2 * l);
      if (!expect(w.rank() == 2 && w.dim(1u) == width && b.numel() == w.dim(0u), "layer " + std::to_string(l) + ": expected weight[N, K] and bias[N]"))
        return KBV_STATUS_INVALID_ARGUMENT;
      width = w.dim(0u);
      if (l + 1 < layers) widest_hidden = std::max(widest_hidden, width);
    }
    if (!expect(call.output(0u).numel() == batch * width, "expected y[batch, last layer's width]")) return KBV_STATUS_INVALID_ARGUMENT;
    if (batch * widest_hidden > buffer_elements_) {  // grown once, then kept
      for (DeviceFloats& buffer : buffers_) buffer = allocate(batch * widest_hidden);
      buffer_elements_ = batch * widest_hidden;
    }
    const cudaStream_t stream = cuda_candidate::stream_of(call);
    const float* in = x.data<float>();
    for (uint32_t l = 0; l < layers; ++l) {
      const kbv::Tensor w = call.input(1 + 2 * l), b = call.input(2 + 2 * l);
      const bool last = l + 1 == layers;
      float* out = last ? call.output(0u).data<float>() : buffers_[l % 2].get();
      const int64_t k = w.dim(1u), n = w.dim(0u);
      const kbv_status status =
          last ? tf32_gemm::launch(tf32_gemm::Linear<Identity>{in, w.data<float>(), b.data<float>(), out, batch, n, k, 1, Identity{}}, stream, "mlp_output_layer")
               : tf32_gemm::launch(tf32_gemm::Linear<Relu>{in, w.data<float>(), b.data<float>(), out, batch, n, k, 1, Relu{}}, stream, "mlp_hidden_layer");
      if (status != KBV_STATUS_OK) return status;
      in = out;
    }
    return KBV_STATUS_OK;
  }

 private:
  DeviceFloats buffers_[2];
  int64_t buffer_elements_ = 0;
};

}  // namespace

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_CUDA, "mlp_wmma_tf32", Mlp)
