// data/device_compare.cu — the comparison kernels: reference RMS, then per-element verdicts and
// error sums, each reduced per block and then by one block in a fixed order.
//
// Compiled with --fmad=false (CMakeLists.txt): the host rule computes atol·rms + rtol·|ref|
// and (out−ref)² without fused multiply-adds, and an element at the boundary must get the
// same verdict on both sides.
#include <cmath>
#include <cstring>
#include <limits>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/device_compare.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

using detail::block_reduce;
constexpr long long kNoViolation = std::numeric_limits<long long>::max();

struct ReferenceStats {
  double sum_sq_ref;
  double rms;
  double abs_allowance;  // atol · max(rms, kTinyReferenceRms)
};

struct ElementStats {
  long long violations, nonfinite, unwritten, first_violation;
  double max_abs, max_rel, sum_sq_error, output_sum;
};

__device__ ElementStats reduce_element_stats(ElementStats local) {
  __shared__ long long integer_scratch[32];
  __shared__ double real_scratch[32];
  ElementStats total;
  total.violations = block_reduce(local.violations, detail::SumOp{}, integer_scratch);
  total.nonfinite = block_reduce(local.nonfinite, detail::SumOp{}, integer_scratch);
  total.unwritten = block_reduce(local.unwritten, detail::SumOp{}, integer_scratch);
  total.first_violation = block_reduce(local.first_violation, detail::MinOp{}, integer_scratch);
  total.max_abs = block_reduce(local.max_abs, detail::MaxOp{}, real_scratch);
  total.max_rel = block_reduce(local.max_rel, detail::MaxOp{}, real_scratch);
  total.sum_sq_error = block_reduce(local.sum_sq_error, detail::SumOp{}, real_scratch);
  total.output_sum = block_reduce(local.output_sum, detail::SumOp{}, real_scratch);
  return total;
}

__device__ ElementStats empty_stats() { return {0, 0, 0, kNoViolation, 0.0, 0.0, 0.0, 0.0}; }

// Each thread walks i = t, t + S, t + 2S, … (S the grid size) in that order, as a plain
// grid-stride loop would; it loads kUnroll of them before using any, so more loads are in
// flight (a one-load-per-iteration loop read 12.8 GB at ~1.5 TB/s on the H200). Same elements,
// same order per thread: the fp64 sums are bit for bit those of the plain loop.
constexpr int kUnroll = 4;

template <class Load, class Use>
__device__ __forceinline__ void for_each_element(int64_t count, Load load, Use use) {
  const int64_t stride = detail::grid_stride();
  int64_t i = detail::global_thread_index();
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    decltype(load(i)) loaded[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) loaded[u] = load(i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) use(i + u * stride, loaded[u]);
  }
  for (; i < count; i += stride) use(i, load(i));
}

template <class Reference>
__global__ void reference_squares_kernel(const Reference* reference, int64_t count, double* partials) {
  __shared__ double scratch[32];
  double local = 0.0;
  for_each_element(
      count, [&](int64_t i) { return static_cast<double>(reference[i]); },
      [&](int64_t, double r) {
        if (isfinite(r)) local += r * r;
      });
  const double total = block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void reference_finish_kernel(const double* partials, int blocks, int64_t count,
                                        double atol, ReferenceStats* stats) {
  __shared__ double scratch[32];
  double local = 0.0;
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) local += partials[b];
  const double total = block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0) {
    stats->sum_sq_ref = total;
    stats->rms = count > 0 ? sqrt(total / static_cast<double>(count)) : 0.0;
    stats->abs_allowance = atol * fmax(stats->rms, kTinyReferenceRms);
  }
}

// The per-element rule of verify/compare.cpp's compare_output(), statement for statement.
template <class Reference>
__global__ void element_kernel(const float* output, const Reference* reference, int64_t count,
                               const ReferenceStats* stats, double rtol, uint32_t poison_bits,
                               ElementStats* partials) {
  const double abs_allowance = stats->abs_allowance;
  ElementStats local = empty_stats();
  struct Pair {
    float raw;
    double ref;
  };
  for_each_element(
      count, [&](int64_t i) { return Pair{output[i], static_cast<double>(reference[i])}; },
      [&](int64_t i, Pair pair) {
        const float raw = pair.raw;
        if (__float_as_uint(raw) == poison_bits) ++local.unwritten;
        const double out = raw;
        const double ref = pair.ref;
        local.output_sum += out;
        bool bad = false;
        if (!isfinite(out)) {
          const bool same_nonfinite = (isnan(out) && isnan(ref)) || (isinf(out) && out == ref);
          if (isfinite(ref)) ++local.nonfinite;
          bad = !same_nonfinite;
          if (bad) local.max_abs = INFINITY;
        } else if (!isfinite(ref)) {
          bad = true;
        } else {
          const double diff = fabs(out - ref);
          const double allowed = abs_allowance + rtol * fabs(ref);
          local.sum_sq_error += diff * diff;
          local.max_abs = fmax(local.max_abs, diff);
          const double ratio = allowed > 0 ? diff / allowed : (diff > 0 ? INFINITY : 0.0);
          local.max_rel = fmax(local.max_rel, ratio);
          bad = diff > allowed;
        }
        if (bad) {
          ++local.violations;
          if (i < local.first_violation) local.first_violation = i;
        }
      });
  const ElementStats total = reduce_element_stats(local);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void element_finish_kernel(const ElementStats* partials, int blocks, ElementStats* result) {
  ElementStats local = empty_stats();
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
    const ElementStats& p = partials[b];
    local.violations += p.violations;
    local.nonfinite += p.nonfinite;
    local.unwritten += p.unwritten;
    local.first_violation = min(local.first_violation, p.first_violation);
    local.max_abs = fmax(local.max_abs, p.max_abs);
    local.max_rel = fmax(local.max_rel, p.max_rel);
    local.sum_sq_error += p.sum_sq_error;
    local.output_sum += p.output_sum;
  }
  const ElementStats total = reduce_element_stats(local);
  if (threadIdx.x == 0) *result = total;
}

template <class Reference>
DeviceComparison compare_with(const float* output, const Reference* reference, int64_t count,
                              const Tolerance& tolerance, cudaStream_t stream) {
  DeviceComparison comparison;
  comparison.elements = count;
  if (count <= 0) return comparison;

  const unsigned blocks = detail::grid_for(count);
  auto reference_partials = DeviceBuffer<double>::on_stream(blocks, stream);
  auto reference_stats = DeviceBuffer<ReferenceStats>::on_stream(1, stream);
  auto element_partials = DeviceBuffer<ElementStats>::on_stream(blocks, stream);
  auto element_total = DeviceBuffer<ElementStats>::on_stream(1, stream);

  reference_squares_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(reference, count,
                                                                         reference_partials.get());
  check_launch("reference_squares_kernel");
  reference_finish_kernel<<<1, detail::kBlockThreads, 0, stream>>>(
      reference_partials.get(), static_cast<int>(blocks), count, tolerance.atol,
      reference_stats.get());
  check_launch("reference_finish_kernel");
  element_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(
      output, reference, count, reference_stats.get(), tolerance.rtol, kPoisonBits,
      element_partials.get());
  check_launch("element_kernel");
  element_finish_kernel<<<1, detail::kBlockThreads, 0, stream>>>(
      element_partials.get(), static_cast<int>(blocks), element_total.get());
  check_launch("element_finish_kernel");

  ReferenceStats ref_stats{};
  ElementStats totals{};
  check(cudaMemcpyAsync(&ref_stats, reference_stats.get(), sizeof ref_stats,
                        cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (comparison reference stats)");
  check(cudaMemcpyAsync(&totals, element_total.get(), sizeof totals, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (comparison totals)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (comparison)");

  comparison.violations = totals.violations;
  comparison.nonfinite_where_ref_finite = totals.nonfinite;
  comparison.unwritten = totals.unwritten;
  comparison.first_violation_index = totals.first_violation == kNoViolation ? -1 : totals.first_violation;
  comparison.max_abs_error = totals.max_abs;
  comparison.max_rel_error = totals.max_rel;
  comparison.sum_sq_error = totals.sum_sq_error;
  comparison.sum_sq_ref = ref_stats.sum_sq_ref;
  comparison.ref_rms = ref_stats.rms;
  comparison.output_sum = totals.output_sum;
  return comparison;
}

}  // namespace

DeviceComparison compare_on_device(const float* output, const double* reference, int64_t count,
                                   const Tolerance& tolerance, cudaStream_t stream) {
  return compare_with(output, reference, count, tolerance, stream);
}

DeviceComparison compare_on_device(const float* output, const float* reference, int64_t count,
                                   const Tolerance& tolerance, cudaStream_t stream) {
  return compare_with(output, reference, count, tolerance, stream);
}

}  // namespace kbv::cuda
