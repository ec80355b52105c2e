// bench/cuda_timing/linear_offers.cpp — kbv_bench_cuda_timing --linear-offers [M,N,K[;M,N,K…]]:
// how much a timed choice among cuBLASLt's algorithms would gain over the heuristic's first, the
// one the library's linear step runs (ops/linear/baseline.cpp). For each y[M,N] = x[M,K]·W[N,K]ᵀ + b
// (default: the distinct layers of KernelBench L3 #1–#3, the MLPs whose library trails
// torch.compile by 6–9 %: docs/results/h100/calibrate-torch.md), the library's exact descriptor
// (TF32 compute, W transposed, BIAS epilogue, 32 MiB workspace, 256-byte alignment) and every offer
// the heuristic makes for it, each timed cold (a 2 × L2 fill before every run, CUDA events, median),
// with its configuration; then the first offer with the RELU_BIAS epilogue (a hidden layer's ReLU
// fused), and the weight's read bandwidth. Prints figures; asserts nothing.
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stream.hpp"
#include "measure/baseline/library_context.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "device_present.hpp"
#include "event_median.hpp"
#include "lt_preference.hpp"

namespace kbv::bench {
namespace {

using cuda::measure::check;

constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 15;
constexpr int kMostOffers = 32;  // the heuristic rarely has more for one layout
constexpr uint32_t kAlignment = 256;  // the library's (PyTorch's _getAlignment) for 256-byte-aligned operands
constexpr size_t kFlushMultiple = 2;  // as the cold timer's flush (timing/l2_flush.hpp)

struct Layer {
  int m = 0, n = 0, k = 0;
};

// KernelBench L3 #1 (128 × 16384 → 16384 → 16384 → 8192), #2 (128 × 16384 → 32768 → 32768 →
// 16384), #3 (1024 × 8192 → 1024 ×16 → 8192): each distinct layer once.
const char* const kDefaultLayers = "128,16384,16384;128,8192,16384;128,32768,16384;128,32768,32768;128,16384,32768;"
                                   "1024,1024,8192;1024,1024,1024;1024,8192,1024";

std::vector<Layer> parse_layers(const std::string& text) {
  std::vector<Layer> layers;
  std::stringstream list(text.empty() ? kDefaultLayers : text);
  std::string item;
  while (std::getline(list, item, ';')) {
    Layer layer;
    if (std::sscanf(item.c_str(), "%d,%d,%d", &layer.m, &layer.n, &layer.k) != 3 || layer.m < 1 || layer.n < 1 || layer.k < 1)
      throw std::invalid_argument("--linear-offers takes M,N,K[;M,N,K…] (positive integers), not '" + item + "'");
    layers.push_back(layer);
  }
  return layers;
}

template <typename T>
T config(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
  T value{};
  size_t written = 0;
  cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof value, &written);
  return value;
}

std::string describe(const cublasLtMatmulAlgo_t& algo) {
  char text[160];
  std::snprintf(text, sizeof text, "algo %d tile %u stages %u split-k %d reduction %u swizzle %u",
                config<int>(algo, CUBLASLT_ALGO_CONFIG_ID), config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID),
                config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID), config<int>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM),
                config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME), config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING));
  return text;
}

class LinearDescriptor {
 public:
  LinearDescriptor(const Layer& layer, cublasLtEpilogue_t epilogue, const float* bias) {
    cublasLtMatmulDesc_t raw = nullptr;
    check(cublasLtMatmulDescCreate(&raw, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F), "cublasLtMatmulDescCreate");
    desc_ = cuda::measure::CublasLtMatmulDesc(raw);
    const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
    set(CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose);
    set(CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof keep);
    set(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
    set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
    weight_ = lt_layout(static_cast<uint64_t>(layer.k), static_cast<uint64_t>(layer.n), layer.k);
    input_ = lt_layout(static_cast<uint64_t>(layer.k), static_cast<uint64_t>(layer.m), layer.k);
    output_ = lt_layout(static_cast<uint64_t>(layer.n), static_cast<uint64_t>(layer.m), layer.n);
  }

  std::vector<cublasLtMatmulHeuristicResult_t> offers(cublasLtHandle_t handle, int most) const {
    const auto preference = lt_preference(kAlignment, kAlignment);
    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<size_t>(most));
    int found = 0;
    check(cublasLtMatmulAlgoGetHeuristic(handle, desc_.get(), weight_.get(), input_.get(), output_.get(), output_.get(), preference.get(), most,
                                         results.data(), &found),
          "cublasLtMatmulAlgoGetHeuristic");
    results.resize(static_cast<size_t>(found));
    return results;
  }

  void run(cuda::measure::LibraryContext& context, const cublasLtMatmulAlgo_t& algo, const float* x, const float* w, float* y,
           cudaStream_t stream) const {
    const float one = 1.f, zero = 0.f;
    check(cublasLtMatmul(context.cublaslt(), desc_.get(), &one, w, weight_.get(), x, input_.get(), &zero, y, output_.get(), y, output_.get(),
                         &algo, context.blas_workspace(), cuda::measure::kBlasWorkspaceBytes, stream),
          "cublasLtMatmul");
  }

 private:
  void set(cublasLtMatmulDescAttributes_t attribute, const void* value, size_t bytes) {
    check(cublasLtMatmulDescSetAttribute(desc_.get(), attribute, value, bytes), "cublasLtMatmulDescSetAttribute");
  }
  cuda::measure::CublasLtMatmulDesc desc_;
  cuda::measure::CublasLtLayout weight_, input_, output_;
};

}  // namespace

int run_linear_offers(const std::string& shapes) {
  const std::vector<Layer> layers = parse_layers(shapes);
  if (!cuda_device_present()) return 1;
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("linear y = x·Wᵀ + b through cuBLASLt (TF32) on %s, cuBLASLt %zu; cold: %zu × L2 filled before each run; median of %d after %d\n",
              properties.name, cublasLtGetVersion(), kFlushMultiple, kTimedRuns, kWarmupRuns);
  cuda::Stream stream;
  cuda::measure::LibraryContext context(cuda::MathMode::tf32);
  context.bind_stream(stream.get());
  const cuda::measure::DeviceMemory flush(kFlushMultiple * static_cast<size_t>(properties.l2CacheSize), "L2 flush buffer");
  for (const Layer& layer : layers) {
    const auto count = [](int a, int b) { return static_cast<size_t>(a) * static_cast<size_t>(b); };
    const cuda::measure::DeviceMemory x(4 * count(layer.m, layer.k), "x"), w(4 * count(layer.n, layer.k), "W"),
        bias(4 * static_cast<size_t>(layer.n), "b"), y(4 * count(layer.m, layer.n), "y");
    cuda::fill_random_uniform(x.as<float>(), static_cast<int64_t>(count(layer.m, layer.k)), 1, 1.f, stream.get());
    cuda::fill_random_uniform(w.as<float>(), static_cast<int64_t>(count(layer.n, layer.k)), 2, 0.01f, stream.get());
    cuda::fill_random_uniform(bias.as<float>(), layer.n, 3, 1.f, stream.get());
    const double weight_bytes = 4.0 * static_cast<double>(count(layer.n, layer.k));
    std::printf("\nM=%d N=%d K=%d (W %.2f GB)\n", layer.m, layer.n, layer.k, weight_bytes / 1e9);
    double first_ms = 0, best_ms = 0;
    for (const auto epilogue : {CUBLASLT_EPILOGUE_BIAS, CUBLASLT_EPILOGUE_RELU_BIAS}) {
      const LinearDescriptor desc(layer, epilogue, bias.as<float>());
      const auto offers = desc.offers(context.cublaslt(), epilogue == CUBLASLT_EPILOGUE_BIAS ? kMostOffers : 1);
      for (size_t i = 0; i < offers.size(); ++i) {
        const double ms = event_median_ms(
            [&] { desc.run(context, offers[i].algo, x.as<float>(), w.as<float>(), y.as<float>(), stream.get()); }, stream.get(),
            kWarmupRuns, kTimedRuns, [&](int run) {
              check(cudaMemsetAsync(flush.get(), run & 0xFF, flush.bytes(), stream.get()), "cudaMemsetAsync (L2 flush)");
            });
        if (epilogue == CUBLASLT_EPILOGUE_BIAS) {
          if (i == 0) first_ms = best_ms = ms;
          best_ms = std::min(best_ms, ms);
        }
        std::printf("  %-10s offer %2zu  %-64s %5.1f waves %8.4f ms %6.2f TB/s of W%s\n",
                    epilogue == CUBLASLT_EPILOGUE_BIAS ? "BIAS" : "RELU_BIAS", i, describe(offers[i].algo).c_str(),
                    static_cast<double>(offers[i].wavesCount), ms, weight_bytes / (ms * 1e-3) / 1e12,
                    i == 0 && epilogue == CUBLASLT_EPILOGUE_BIAS ? "  (the library's)" : "");
      }
    }
    std::printf("  best BIAS offer against the heuristic's first: %.4f / %.4f ms = %.3f\n", best_ms, first_ms, best_ms / first_ms);
  }
  return 0;
}

}  // namespace kbv::bench
