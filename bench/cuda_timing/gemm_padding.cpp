// bench/cuda_timing/gemm_padding.cpp — kbv_bench_cuda_timing --gemm-padding [M,K,N]: the ways to
// run one unaligned TF32 product C[M,N] = A[M,K]·B[K,N] (default KernelBench L1 #8, 8205 × 2949 ·
// 2949 × 5921), timed: cuBLAS as called; the library's padded GEMM step (ops/common/baseline/
// blas.cpp: pad A, pad B, GEMM, crop C), whole and pass by pass; the padded GEMM writing the
// unaligned C directly (cublasSgemm with ldc = N, and each cuBLASLt algorithm its heuristic
// offers when told D is only 4-byte aligned); cuBLASLt's offers for the unpadded operands; and
// the GEMM alone on the padded operands, other ways than the library's (N as given with padded
// leading dimensions, cublasGemmEx, each cuBLASLt offer for an aligned D). torch.compile pads A
// and B (inductor's pad_mm) and runs no crop kernel (docs/results/h100/parity-kernels.md); r74 on
// an H100 timed it at 0.999 ms against the library's 1.227 (docs/results/h100/calibrate-torch.md);
// whether its result is a strided view of the padded C, the calibration's evidence now records
// (kbv_torch/server.py, output_layout). Each direct variant's C is compared with the library's
// (largest difference relative to the largest |C|). Prints figures; asserts nothing.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stream.hpp"
#include "measure/baseline/library_context.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "ops/common/baseline/blas.hpp"
#include "ops/common/baseline/pad_copy.hpp"
#include "device_present.hpp"
#include "event_median.hpp"
#include "lt_preference.hpp"

namespace kbv::bench {
namespace {

using cuda::measure::check;

constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 15;  // each run is 0.1–2.5 ms: a steady median
constexpr int kLtOffers = 8;    // cuBLASLt heuristic results timed per layout
constexpr int64_t kAlignedFloats = 4;  // 16-byte rows, as blas.cpp pads

int64_t aligned_up(int64_t value) { return (value + kAlignedFloats - 1) / kAlignedFloats * kAlignedFloats; }

struct Product {
  int m = 8205, k = 2949, n = 5921;
};

Product parse_product(const std::string& text) {
  Product p;
  if (text.empty()) return p;
  if (std::sscanf(text.c_str(), "%d,%d,%d", &p.m, &p.k, &p.n) != 3 || p.m < 1 || p.k < 1 || p.n < 1)
    throw std::invalid_argument("--gemm-padding takes M,K,N (positive integers), not '" + text + "'");
  return p;
}

double median_ms(const std::function<void()>& pass, cudaStream_t stream) { return event_median_ms(pass, stream, kWarmupRuns, kTimedRuns); }

void print(const std::string& what, double ms, double flops) {
  std::printf("  %-72s %8.4f ms  %6.1f TFLOP/s\n", what.c_str(), ms, flops / (ms * 1e-3) / 1e12);
}

// max |x − reference| / max |reference| over the product's elements.
double relative_difference(const float* device, const std::vector<float>& reference) {
  std::vector<float> host(reference.size());
  check(cudaMemcpy(host.data(), device, host.size() * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  double largest = 0, worst = 0;
  for (size_t i = 0; i < host.size(); ++i) {
    largest = std::max(largest, std::fabs(static_cast<double>(reference[i])));
    worst = std::max(worst, std::fabs(static_cast<double>(host[i]) - reference[i]));
  }
  return largest > 0 ? worst / largest : worst;
}

// Column-major D[n,m] = Bᵀ[n,k] · Aᵀ[k,m] (row-major C = A·B) through cuBLASLt, each algorithm
// the heuristic offers for these layouts and alignments timed; `before` runs ahead of each (the
// pads, or nothing).
// `c` has rows of ldc floats and `output_alignment` bytes; it is compared with `reference` (the
// library's C) where one is given: not for the padded product, whose C is laid out otherwise.
void time_lt_offers(const std::string& label, cuda::measure::LibraryContext& context, const Product& p, int64_t k, const float* a, int64_t lda,
                    const float* b, int64_t ldb, float* c, int64_t ldc, uint32_t operand_alignment, uint32_t output_alignment,
                    const std::function<void()>& before, const std::vector<float>* reference, cudaStream_t stream) {
  cublasLtMatmulDesc_t raw_desc = nullptr;
  check(cublasLtMatmulDescCreate(&raw_desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F), "cublasLtMatmulDescCreate");
  const cuda::measure::CublasLtMatmulDesc desc(raw_desc);
  const auto b_layout = lt_layout(static_cast<uint64_t>(p.n), static_cast<uint64_t>(k), ldb);
  const auto a_layout = lt_layout(static_cast<uint64_t>(k), static_cast<uint64_t>(p.m), lda);
  const auto d_layout = lt_layout(static_cast<uint64_t>(p.n), static_cast<uint64_t>(p.m), ldc);
  const auto preference = lt_preference(operand_alignment, output_alignment);
  std::vector<cublasLtMatmulHeuristicResult_t> offers(kLtOffers);
  int found = 0;
  check(cublasLtMatmulAlgoGetHeuristic(context.cublaslt(), desc.get(), b_layout.get(), a_layout.get(), d_layout.get(), d_layout.get(),
                                       preference.get(), kLtOffers, offers.data(), &found),
        "cublasLtMatmulAlgoGetHeuristic");
  std::printf("%s: %d offers (operands %u-byte, C %u-byte aligned)\n", label.c_str(), found, operand_alignment, output_alignment);
  const float one = 1.f, zero = 0.f;
  const double flops = 2.0 * p.m * p.n * p.k;
  for (int i = 0; i < found; ++i) {
    const cublasLtMatmulAlgo_t& algo = offers[static_cast<size_t>(i)].algo;
    const auto run = [&] {
      before();
      check(cublasLtMatmul(context.cublaslt(), desc.get(), &one, b, b_layout.get(), a, a_layout.get(), &zero, c, d_layout.get(), c,
                           d_layout.get(), &algo, context.blas_workspace(), cuda::measure::kBlasWorkspaceBytes, stream),
            "cublasLtMatmul");
    };
    const double ms = median_ms(run, stream);
    int tile = 0, stages = 0;
    size_t written = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &written);
    cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &written);
    char what[160];
    std::snprintf(what, sizeof what, "offer %d (tile id %d, stages id %d, %.1f waves)", i, tile, stages,
                  static_cast<double>(offers[static_cast<size_t>(i)].wavesCount));
    if (reference) std::snprintf(what + std::strlen(what), sizeof what - std::strlen(what), "; C off by %.1e", relative_difference(c, *reference));
    print(what, ms, flops);
  }
}

}  // namespace

int run_gemm_padding(const std::string& shape) {
  const Product p = parse_product(shape);
  if (!cuda_device_present()) return 1;
  const int64_t padded_k = aligned_up(p.k), padded_n = aligned_up(p.n);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("C[%d,%d] = A[%d,%d] · B[%d,%d] in TF32 on %s; padded K %ld, N %ld; median of %d runs after %d (CUDA events)\n\n", p.m, p.n, p.m,
              p.k, p.k, p.n, properties.name, static_cast<long>(padded_k), static_cast<long>(padded_n), kTimedRuns, kWarmupRuns);

  cuda::Stream stream;
  cuda::measure::LibraryContext context(cuda::MathMode::tf32);
  const auto gemm_step = ops::baseline::make_gemm_step(context, 1, p.m, p.n, p.k);
  context.allocate_scratch();
  context.bind_stream(stream.get());
  const size_t a_count = static_cast<size_t>(p.m) * static_cast<size_t>(p.k), b_count = static_cast<size_t>(p.k) * static_cast<size_t>(p.n);
  const size_t c_count = static_cast<size_t>(p.m) * static_cast<size_t>(p.n);
  const size_t padded_a_count = static_cast<size_t>(p.m) * static_cast<size_t>(padded_k);
  const size_t padded_b_count = static_cast<size_t>(padded_k) * static_cast<size_t>(padded_n);
  const size_t padded_c_count = static_cast<size_t>(p.m) * static_cast<size_t>(padded_n);
  cuda::measure::DeviceMemory a(a_count * 4, "A"), b(b_count * 4, "B"), c(c_count * 4, "C"), library_c(c_count * 4, "library's C"),
      padded_a(padded_a_count * 4, "padded A"), padded_b(padded_b_count * 4, "padded B"), padded_c(padded_c_count * 4, "padded C");
  cuda::fill_random_uniform(a.as<float>(), static_cast<int64_t>(a_count), 1, 1.f, stream.get());
  cuda::fill_random_uniform(b.as<float>(), static_cast<int64_t>(b_count), 2, 1.f, stream.get());
  const double flops = 2.0 * p.m * p.n * p.k;
  const double pad_bytes = 4.0 * (static_cast<double>(a_count + b_count) + static_cast<double>(padded_a_count + padded_b_count));

  const float* inputs[] = {a.as<float>(), b.as<float>()};
  const auto library = [&] { gemm_step->run(inputs, library_c.as<float>(), stream.get()); };
  std::printf("the library's step: %s\n", gemm_step->describe().c_str());
  print("whole (pad A, pad B, GEMM, crop C)", median_ms(library, stream.get()), flops);
  check(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
  std::vector<float> reference(c_count);
  check(cudaMemcpy(reference.data(), library_c.get(), c_count * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");

  const auto pad_a = [&] { ops::baseline::pad_matrix(padded_a.as<float>(), p.m, padded_k, a.as<float>(), p.m, p.k, stream.get()); };
  const auto pad_b = [&] { ops::baseline::pad_matrix(padded_b.as<float>(), padded_k, padded_n, b.as<float>(), p.k, p.n, stream.get()); };
  const auto pads = [&] { pad_a(), pad_b(); };
  const double pads_ms = median_ms(pads, stream.get());
  std::printf("  %-72s %8.4f ms  %6.2f TB/s\n", "pad A and B", pads_ms, pad_bytes / (pads_ms * 1e-3) / 1e12);
  ops::baseline::BlasGemm padded;
  padded.m = p.m, padded.n = static_cast<int>(padded_n), padded.k = static_cast<int>(padded_k);
  print("GEMM on the padded operands into the padded C", median_ms([&] {
          ops::baseline::run_gemm(context, padded, padded_a.as<float>(), padded_b.as<float>(), padded_c.as<float>());
        }, stream.get()), flops);
  const double crop_ms = median_ms([&] { ops::baseline::crop_matrix(c.as<float>(), p.m, p.n, padded_c.as<float>(), padded_n, stream.get()); },
                                   stream.get());
  std::printf("  %-72s %8.4f ms  %6.2f TB/s\n", "crop C", crop_ms, 8.0 * static_cast<double>(c_count) / (crop_ms * 1e-3) / 1e12);

  std::printf("cublasSgemm\n");
  ops::baseline::BlasGemm as_given;
  as_given.m = p.m, as_given.n = p.n, as_given.k = p.k;
  print("as called (unaligned rows)", median_ms([&] { ops::baseline::run_gemm(context, as_given, a.as<float>(), b.as<float>(), c.as<float>()); },
                                                stream.get()), flops);
  const float one = 1.f, zero = 0.f;
  const auto padded_into_c = [&] {
    pads();
    check(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, static_cast<int>(padded_k), &one, padded_b.as<float>(),
                      static_cast<int>(padded_n), padded_a.as<float>(), static_cast<int>(padded_k), &zero, c.as<float>(), p.n),
          "cublasSgemm");
  };
  const double direct_ms = median_ms(padded_into_c, stream.get());
  char what[160];
  std::snprintf(what, sizeof what, "pads, then padded A and B into the unaligned C (ldc = N); C off by %.1e",
                relative_difference(c.as<float>(), reference));
  print(what, direct_ms, flops);

  time_lt_offers("cuBLASLt, pads then padded A and B into the unaligned C", context, p, padded_k, padded_a.as<float>(), padded_k,
                 padded_b.as<float>(), padded_n, c.as<float>(), p.n, 16, 4, pads, &reference, stream.get());
  time_lt_offers("cuBLASLt, the operands as given", context, p, p.k, a.as<float>(), p.k, b.as<float>(), p.n, c.as<float>(), p.n, 4, 4, [] {},
                 &reference, stream.get());

  // The GEMM alone on the padded operands into the padded C, other ways than the library's
  // (cublasSgemm, N padded): torch.compile's padded GEMM ran 0.885 ms on this product on an H100
  // (docs/results/h100/parity-kernels.md: sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32),
  // the library's 0.969 (r81).
  std::printf("the GEMM alone on the padded operands into the padded C\n");
  print("cublasSgemm N as given (ldb = ldc = padded N)", median_ms([&] {
          check(cublasSgemm(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, static_cast<int>(padded_k), &one, padded_b.as<float>(),
                            static_cast<int>(padded_n), padded_a.as<float>(), static_cast<int>(padded_k), &zero, padded_c.as<float>(),
                            static_cast<int>(padded_n)),
                "cublasSgemm");
        }, stream.get()), flops);
  print("cublasGemmEx CUBLAS_COMPUTE_32F_FAST_TF32, N padded", median_ms([&] {
          check(cublasGemmEx(context.cublas(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(padded_n), p.m, static_cast<int>(padded_k), &one,
                             padded_b.as<float>(), CUDA_R_32F, static_cast<int>(padded_n), padded_a.as<float>(), CUDA_R_32F,
                             static_cast<int>(padded_k), &zero, padded_c.as<float>(), CUDA_R_32F, static_cast<int>(padded_n),
                             CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
        }, stream.get()), flops);
  Product padded_product = p;
  padded_product.n = static_cast<int>(padded_n);
  time_lt_offers("cuBLASLt, padded A and B into the padded C (N padded)", context, padded_product, padded_k, padded_a.as<float>(), padded_k,
                 padded_b.as<float>(), padded_n, padded_c.as<float>(), padded_n, 16, 16, [] {}, nullptr, stream.get());
  return 0;
}

}  // namespace kbv::bench
