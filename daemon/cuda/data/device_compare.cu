// data/device_compare.cu — the comparison kernels: the reference's summary (RMS), then per-element
// verdicts and error sums, each reduced per block and then by one block in a fixed order; and
// the same element rule applied to trivial outputs that are never written.
//
// Compiled with --fmad=false (CMakeLists.txt): the host rule computes atol·rms + rtol·|ref|
// and (out−ref)² without fused multiply-adds, and an element at the boundary must get the
// same verdict on both sides.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/device_compare.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

using detail::block_reduce;
constexpr long long kNoViolation = std::numeric_limits<long long>::max();

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

// One block's partial added into a finish kernel's thread-local total (element_finish_kernel,
// one_read_finish_kernel: the same order, so the same sums).
__device__ __forceinline__ void accumulate(ElementStats& into, const ElementStats& p) {
  into.violations += p.violations;
  into.nonfinite += p.nonfinite;
  into.unwritten += p.unwritten;
  into.first_violation = min(into.first_violation, p.first_violation);
  into.max_abs = fmax(into.max_abs, p.max_abs);
  into.max_rel = fmax(into.max_rel, p.max_rel);
  into.sum_sq_error += p.sum_sq_error;
  into.output_sum += p.output_sum;
}

// Each thread walks i = t, t + S, t + 2S, … (S the grid size) in that order, as a plain
// grid-stride loop would; it loads kUnroll of them before using any, so more loads are in
// flight (a one-load-per-iteration loop read 12.8 GB at ~1.5 TB/s on the H200). Same elements,
// same order per thread: the fp64 sums are bit for bit those of the plain loop.
constexpr int kUnroll = 4;

// …and stops early once keep_going() (asked before each group of kUnroll elements) says so.
template <class KeepGoing, class Load, class Use>
__device__ __forceinline__ void for_each_element_while(int64_t count, KeepGoing keep_going, Load load, Use use) {
  const int64_t stride = detail::grid_stride();
  int64_t i = detail::global_thread_index();
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    if (!keep_going()) return;
    decltype(load(i)) loaded[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) loaded[u] = load(i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) use(i + u * stride, loaded[u]);
  }
  for (; i < count && keep_going(); i += stride) use(i, load(i));
}

template <class Load, class Use>
__device__ __forceinline__ void for_each_element(int64_t count, Load load, Use use) {
  for_each_element_while(count, [] { return true; }, load, use);
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

// Each row's allowance atol·max(rms, row rms, tiny) (verify/compare.cpp's statement), a block
// per row at a time: the row's Σ ref² over finite values reduced in a fixed order.
template <class Reference>
__global__ void row_allowance_kernel(const Reference* reference, int64_t rows, int64_t row_length, double atol,
                                     const ReferenceStats* stats, double* allowances) {
  __shared__ double scratch[32];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const Reference* values = reference + row * row_length;
    double local = 0.0;
    for (int64_t j = threadIdx.x; j < row_length; j += blockDim.x) {
      const double r = static_cast<double>(values[j]);
      if (isfinite(r)) local += r * r;
    }
    const double total = block_reduce(local, detail::SumOp{}, scratch);
    if (threadIdx.x == 0) {
      const double row_rms = sqrt(total / static_cast<double>(row_length));
      allowances[row] = atol * fmax(fmax(stats->rms, row_rms), kTinyReferenceRms);
    }
  }
}

// Element i's absolute allowance: its row's, or the whole output's without rows. The row from a
// multiply by 1/length, corrected by one either way (exact for i < 2⁵³): a 64-bit division per
// element would cost the element pass more than its loads.
__device__ __forceinline__ double allowance_at(double whole, const RowAllowances& rows, int64_t i) {
  if (rows.values == nullptr) return whole;
  int64_t row = static_cast<int64_t>(static_cast<double>(i) * rows.inverse_length);
  if (row * rows.length > i) --row;
  else if ((row + 1) * rows.length <= i) ++row;
  return rows.values[row];
}

// The per-element rule of verify/compare.cpp's compare_output(), statement for statement; every
// kernel here judges elements through it.
struct ElementVerdict {
  bool unwritten;          // the output holds kPoisonBits
  bool nonfinite_output;   // the output is NaN or ±Inf
  bool nonfinite_counted;  // …where the reference is finite (compare_output's nonfinite count)
  bool finite_pair;        // both finite: diff and allowed below are set
  bool bad;                // the element fails
  double diff, allowed;
};

__device__ __forceinline__ ElementVerdict judge_element(float raw, double ref, double abs_allowance, double rtol, uint32_t poison_bits) {
  ElementVerdict v{};
  v.unwritten = __float_as_uint(raw) == poison_bits;
  const double out = raw;
  if (!isfinite(out)) {
    const bool same_nonfinite = (isnan(out) && isnan(ref)) || (isinf(out) && out == ref);
    v.nonfinite_output = true;
    v.nonfinite_counted = isfinite(ref);
    v.bad = !same_nonfinite;
  } else if (!isfinite(ref)) {
    v.bad = true;
  } else {
    v.finite_pair = true;
    v.diff = fabs(out - ref);
    v.allowed = abs_allowance + rtol * fabs(ref);
    v.bad = v.diff > v.allowed;
  }
  return v;
}

// diff / allowed, the figure max_rel_error is the max of (compare_output's statement).
__device__ __forceinline__ double ratio_of(const ElementVerdict& v) {
  return v.allowed > 0 ? v.diff / v.allowed : (v.diff > 0 ? INFINITY : 0.0);
}

// What an element adds whatever its absolute allowance: Σout, the unwritten and non-finite counts,
// Σ(out − ref)² and max|out − ref| over finite pairs (+∞ once a non-finite output fails).
// element_kernel and one_read_kernel both tally through it, so their figures are the same sums.
__device__ __forceinline__ void tally(ElementStats& local, float raw, const ElementVerdict& v) {
  local.output_sum += static_cast<double>(raw);
  if (v.unwritten) ++local.unwritten;
  if (v.nonfinite_counted) ++local.nonfinite;
  if (v.nonfinite_output && v.bad) local.max_abs = INFINITY;
  if (v.finite_pair) {
    local.sum_sq_error += v.diff * v.diff;
    local.max_abs = fmax(local.max_abs, v.diff);
  }
}

// False only where diff / allowed cannot exceed `max_ratio`: fp64 division is a long
// instruction sequence (with a slow path for a zero numerator, which exact outputs give), and it
// made the element pass compute-bound (relu on the H200: 11 ms against 4.8 at bandwidth). The
// test is diff < max_ratio·allowed·(1 − 2⁻⁴⁰): the product's two roundings cannot make up
// 2⁻⁴⁰, so the true ratio is below max_ratio, its rounded value at most max_ratio, and the max
// comes out the same bit for bit. Where the product is not a normal number (subnormal: the
// relative rounding bound fails; NaN from ∞·0) the division runs as before; an overflowing
// product only skips ratios below max_ratio. An exact element (diff = 0, ratio 0) never raises
// it: with every element exact (a recheck of relu against the TF32 baseline) the max stays 0,
// and the bound with it, so without this test every element divided (13 ms, not 6.6).
__device__ __forceinline__ bool may_raise_max_ratio(double diff, double allowed, double max_ratio) {
  constexpr double kBelowOne = 1.0 - 0x1p-40;
  if (diff == 0) return false;
  const double bound = max_ratio * allowed * kBelowOne;
  return !(bound >= DBL_MIN && diff < bound);
}

// Where an error scale is given (kScaled), element i's absolute allowance is also at least
// atol·S[i] (compare_output's statement).
struct ErrorScale {
  const double* values = nullptr;
  double atol = 0;
};

template <class Reference, bool kScaled>
__global__ void element_kernel(const float* output, const Reference* reference, int64_t count,
                               const ReferenceStats* stats, RowAllowances rows, ErrorScale scale, double rtol, uint32_t poison_bits,
                               ElementStats* partials) {
  const double whole_allowance = stats->abs_allowance;
  ElementStats local = empty_stats();
  struct Pair {
    float raw;
    double ref;
  };
  for_each_element(
      count, [&](int64_t i) { return Pair{output[i], static_cast<double>(reference[i])}; },
      [&](int64_t i, Pair pair) {
        double abs_allowance = allowance_at(whole_allowance, rows, i);
        if constexpr (kScaled) abs_allowance = fmax(abs_allowance, scale.atol * scale.values[i]);
        const ElementVerdict v = judge_element(pair.raw, pair.ref, abs_allowance, rtol, poison_bits);
        tally(local, pair.raw, v);
        if (v.finite_pair && may_raise_max_ratio(v.diff, v.allowed, local.max_rel)) local.max_rel = fmax(local.max_rel, ratio_of(v));
        if (v.bad) {
          ++local.violations;
          if (i < local.first_violation) local.first_violation = i;
        }
      });
  const ElementStats total = reduce_element_stats(local);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void element_finish_kernel(const ElementStats* partials, int blocks, ElementStats* result) {
  ElementStats local = empty_stats();
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) accumulate(local, partials[b]);
  const ElementStats total = reduce_element_stats(local);
  if (threadIdx.x == 0) *result = total;
}

// ---- the one-read verdict (a timed output's recheck, a correctness trial) -----------------------

// What one read of an output and its reference gives before the reference's RMS is known:
// the sums and counts of the two-pass comparison (in the same order per thread, so bit for bit
// the same), and for finite pairs the largest excess diff − rtol·|ref| over the relative
// allowance and the largest rtol·|ref|, which bound every element's verdict once the absolute
// allowance A = atol·max(rms, tiny) is known (pass_in_one_read).
struct OneReadStats {
  ElementStats element;               // tally()'s figures; violations, first_violation, max_rel stay empty
  long long nonfinite_disagreements;  // elements that fail whatever A is
  double sum_sq_ref, max_excess, max_relative_allowance;
  double rms, abs_allowance;  // and A, from sum_sq_ref as reference_finish_kernel computes them (finish kernel only)
};

__device__ OneReadStats reduce_one_read_stats(OneReadStats local) {
  __shared__ long long integer_scratch[32];
  __shared__ double real_scratch[32];
  OneReadStats total = local;
  total.element = reduce_element_stats(local.element);
  total.nonfinite_disagreements = block_reduce(local.nonfinite_disagreements, detail::SumOp{}, integer_scratch);
  total.sum_sq_ref = block_reduce(local.sum_sq_ref, detail::SumOp{}, real_scratch);
  total.max_excess = block_reduce(local.max_excess, detail::MaxOp{}, real_scratch);
  total.max_relative_allowance = block_reduce(local.max_relative_allowance, detail::MaxOp{}, real_scratch);
  return total;
}

__device__ OneReadStats empty_one_read_stats() { return {empty_stats(), 0, 0.0, -INFINITY, 0.0, 0.0, 0.0}; }

// element_kernel's tally with the absolute allowance left out (judge_element with A = 0 decides
// every non-finite case, which no allowance changes), and reference_squares_kernel's sum.
template <class Reference>
__global__ void one_read_kernel(const float* output, const Reference* reference, int64_t count, double rtol, uint32_t poison_bits,
                                OneReadStats* partials) {
  OneReadStats local = empty_one_read_stats();
  struct Pair {
    float raw;
    double ref;
  };
  for_each_element(
      count, [&](int64_t i) { return Pair{output[i], static_cast<double>(reference[i])}; },
      [&](int64_t, Pair pair) {
        if (isfinite(pair.ref)) local.sum_sq_ref += pair.ref * pair.ref;
        const ElementVerdict v = judge_element(pair.raw, pair.ref, 0.0, rtol, poison_bits);
        tally(local.element, pair.raw, v);
        if (v.finite_pair) {
          const double relative_allowance = v.allowed;  // 0 + rtol·|ref|: exactly the product element_kernel adds A to
          local.max_excess = fmax(local.max_excess, v.diff - relative_allowance);
          local.max_relative_allowance = fmax(local.max_relative_allowance, relative_allowance);
        } else if (v.bad) {
          ++local.nonfinite_disagreements;
        }
      });
  const OneReadStats total = reduce_one_read_stats(local);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// The partials in element_finish_kernel's and reference_finish_kernel's order, then A as
// reference_finish_kernel computes it.
__global__ void one_read_finish_kernel(const OneReadStats* partials, int blocks, int64_t count, double atol, OneReadStats* result) {
  OneReadStats local = empty_one_read_stats();
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) {
    const OneReadStats& p = partials[b];
    accumulate(local.element, p.element);
    local.nonfinite_disagreements += p.nonfinite_disagreements;
    local.sum_sq_ref += p.sum_sq_ref;
    local.max_excess = fmax(local.max_excess, p.max_excess);
    local.max_relative_allowance = fmax(local.max_relative_allowance, p.max_relative_allowance);
  }
  OneReadStats total = reduce_one_read_stats(local);
  if (threadIdx.x == 0) {
    total.rms = count > 0 ? sqrt(total.sum_sq_ref / static_cast<double>(count)) : 0.0;
    total.abs_allowance = atol * fmax(total.rms, kTinyReferenceRms);
    *result = total;
  }
}

// Σ ref² of `reference` into stats (with the RMS and the allowance for `atol`), through
// `partials` (at least grid_for(count) doubles); with a row length, each row's allowance into
// `row_allowances` (count / row_length doubles).
template <class Reference>
void summarize_into(const Reference* reference, int64_t count, int64_t row_length, double atol, double* partials, ReferenceStats* stats,
                    double* row_allowances, cudaStream_t stream) {
  const unsigned blocks = detail::grid_for(count);
  reference_squares_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(reference, count, partials);
  check_launch("reference_squares_kernel");
  reference_finish_kernel<<<1, detail::kBlockThreads, 0, stream>>>(partials, static_cast<int>(blocks), count, atol, stats);
  check_launch("reference_finish_kernel");
  if (row_length > 0) {
    const int64_t rows = count / row_length;
    const auto row_blocks = static_cast<unsigned>(std::min<int64_t>(rows, detail::grid_for(count)));
    row_allowance_kernel<<<row_blocks, detail::kBlockThreads, 0, stream>>>(reference, rows, row_length, atol, stats, row_allowances);
    check_launch("row_allowance_kernel");
  }
}

RowAllowances row_allowances_of(const double* values, int64_t row_length) {
  if (row_length == 0) return {};
  return {values, row_length, 1.0 / static_cast<double>(row_length)};
}

// The element pass against summarised reference stats, then the figures on the host.
template <class Reference>
DeviceComparison element_pass(const float* output, const Reference* reference, const ReferenceStats* stats, RowAllowances rows, int64_t count,
                              const Tolerance& tolerance, cudaStream_t stream, const double* error_scale = nullptr) {
  DeviceComparison comparison;
  comparison.elements = count;
  const unsigned blocks = detail::grid_for(count);
  auto element_partials = DeviceBuffer<ElementStats>::on_stream(blocks, stream);
  auto element_total = DeviceBuffer<ElementStats>::on_stream(1, stream);
  const ErrorScale scale{error_scale, tolerance.atol};
  if (error_scale != nullptr)
    element_kernel<Reference, true><<<blocks, detail::kBlockThreads, 0, stream>>>(output, reference, count, stats, rows, scale,
                                                                                  tolerance.rtol, kPoisonBits, element_partials.get());
  else
    element_kernel<Reference, false><<<blocks, detail::kBlockThreads, 0, stream>>>(output, reference, count, stats, rows, scale,
                                                                                   tolerance.rtol, kPoisonBits, element_partials.get());
  check_launch("element_kernel");
  element_finish_kernel<<<1, detail::kBlockThreads, 0, stream>>>(element_partials.get(), static_cast<int>(blocks), element_total.get());
  check_launch("element_finish_kernel");

  ReferenceStats ref_stats{};
  ElementStats totals{};
  check(cudaMemcpyAsync(&ref_stats, stats, sizeof ref_stats, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (comparison reference stats)");
  check(cudaMemcpyAsync(&totals, element_total.get(), sizeof totals, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (comparison totals)");
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
  if (error_scale != nullptr) {
    // Σ S² over finite values, summarised as a reference is (a scale is ≥ 0; no rows).
    auto partials = DeviceBuffer<double>::on_stream(blocks, stream);
    auto scale_stats = DeviceBuffer<ReferenceStats>::on_stream(1, stream);
    summarize_into(error_scale, count, 0, tolerance.atol, partials.get(), scale_stats.get(), nullptr, stream);
    ReferenceStats host_scale{};
    check(cudaMemcpyAsync(&host_scale, scale_stats.get(), sizeof host_scale, cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (error scale sum)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (error scale sum)");
    comparison.by_error_scale = true;
    comparison.sum_sq_scale = host_scale.sum_sq_ref;
  }
  return comparison;
}

template <class Reference>
DeviceComparison compare_with(const float* output, const Reference* reference, int64_t count, int64_t row_length,
                              const Tolerance& tolerance, cudaStream_t stream, const double* error_scale = nullptr) {
  require_row_length(count, row_length, "device comparison");
  if (count <= 0) return DeviceComparison{};
  auto reference_partials = DeviceBuffer<double>::on_stream(detail::grid_for(count), stream);
  auto reference_stats = DeviceBuffer<ReferenceStats>::on_stream(1, stream);
  auto row_allowances = DeviceBuffer<double>::on_stream(row_length > 0 ? static_cast<size_t>(count / row_length) : 0, stream);
  summarize_into(reference, count, row_length, tolerance.atol, reference_partials.get(), reference_stats.get(), row_allowances.get(), stream);
  return element_pass(output, reference, reference_stats.get(), row_allowances_of(row_allowances.get(), row_length), count, tolerance,
                      stream, error_scale);
}

// ---- trivial outputs -------------------------------------------------------------------------

// One pass's trivial outputs, passed by value to the kernel. Every field is indexed by the
// output's slot k (a constant where input[k] is null), so that with the loops over k unrolled
// the per-thread arrays stay in registers.
struct TrivialPass {
  int outputs = 0;
  float constant[kTrivialOutputsPerPass];
  const float* input[kTrivialOutputsPerPass];
  int64_t input_length[kTrivialOutputsPerPass];
  int64_t stride_mod[kTrivialOutputsPerPass];  // the grid stride mod input_length
};

// What every thread of a pass shares: which outputs have failed somewhere, and how many
// violations each has (counted only while the tolerance's outliers could still excuse them).
struct TrivialProgress {
  unsigned int failed;
  unsigned long long violations[kTrivialOutputsPerPass];
};

// Threads look at the shared failures every this many groups of kUnroll elements.
constexpr int kFailurePollGroups = 8;

// Whether trivial outputs pass, judged by compare_output()'s rule element by element, stopping
// as soon as each has failed somewhere (for a family that is not degenerate: within the first
// elements). An output fails on an unwritten element, a non-finite one where the reference is
// finite, a violation beyond kOutlierBoundFactor, or more violations than `outliers_allowed`;
// for one that never fails, Σ(out − ref)² over finite pairs is reduced per block (its rel_l2
// is judged on the host), over every element in a fixed order. for_each_element_while() calls
// load(i) once per element, in increasing i with the grid stride between calls, so the
// position inside each repeated input advances by stride mod length instead of a 64-bit
// division per element.
__global__ void __launch_bounds__(detail::kBlockThreads, 2)
    trivial_kernel(const double* reference, int64_t count, const ReferenceStats* stats, RowAllowances rows, double rtol,
                   uint32_t poison_bits, long long outliers_allowed, TrivialPass pass, TrivialProgress* progress, double* partials) {
  constexpr int kSlots = static_cast<int>(kTrivialOutputsPerPass);
  const double whole_allowance = stats->abs_allowance;
  const unsigned int everyone = (1u << pass.outputs) - 1u;
  unsigned int failed = 0;  // this thread's view of progress->failed
  double sum_sq[kSlots] = {};
  int64_t position[kSlots];
#pragma unroll
  for (int k = 0; k < kSlots; ++k) position[k] = pass.input[k] != nullptr ? detail::global_thread_index() % pass.input_length[k] : 0;
  auto fail = [&](int k) {
    failed |= 1u << k;
    atomicOr(&progress->failed, 1u << k);
  };
  int groups = 0;
  struct Loaded {
    double ref;
    float value[kSlots];
  };
  for_each_element_while(
      count,
      [&] {
        if (groups++ % kFailurePollGroups == 0) failed |= *static_cast<volatile unsigned int*>(&progress->failed);
        return failed != everyone;
      },
      [&](int64_t i) {
        Loaded loaded;
        loaded.ref = reference[i];
#pragma unroll
        for (int k = 0; k < kSlots; ++k) {
          if (k >= pass.outputs) continue;
          if (pass.input[k] == nullptr) {
            loaded.value[k] = pass.constant[k];
            continue;
          }
          if ((failed >> k & 1u) == 0) loaded.value[k] = pass.input[k][position[k]];
          position[k] += pass.stride_mod[k];
          if (position[k] >= pass.input_length[k]) position[k] -= pass.input_length[k];
        }
        return loaded;
      },
      [&](int64_t i, const Loaded& loaded) {
        const double abs_allowance = allowance_at(whole_allowance, rows, i);
#pragma unroll
        for (int k = 0; k < kSlots; ++k) {
          if (k >= pass.outputs || (failed >> k & 1u) != 0) continue;
          const ElementVerdict v = judge_element(loaded.value[k], loaded.ref, abs_allowance, rtol, poison_bits);
          if (v.unwritten || v.nonfinite_counted || (v.bad && v.finite_pair && ratio_of(v) > kOutlierBoundFactor)) {
            fail(k);
            continue;
          }
          if (v.bad && static_cast<long long>(atomicAdd(&progress->violations[k], 1ull)) >= outliers_allowed) {
            fail(k);
            continue;
          }
          if (v.finite_pair) sum_sq[k] += v.diff * v.diff;
        }
      });
  __shared__ double scratch[32];
#pragma unroll
  for (int k = 0; k < kSlots; ++k) {
    if (k >= pass.outputs) continue;  // the same for the whole block: block_reduce's barriers are safe
    const double total = block_reduce(sum_sq[k], detail::SumOp{}, scratch);
    if (threadIdx.x == 0) partials[static_cast<size_t>(k) * gridDim.x + blockIdx.x] = total;
  }
}

// Output k's block partials, summed in a fixed order by block k.
__global__ void trivial_finish_kernel(const double* partials, int blocks, double* totals) {
  __shared__ double scratch[32];
  const double* mine = partials + static_cast<size_t>(blockIdx.x) * blocks;
  double local = 0;
  for (int b = threadIdx.x; b < blocks; b += blockDim.x) local += mine[b];
  const double total = block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// The largest max_excess (one_read_kernel) that proves every finite pair within its allowance:
// d ≤ fl(A + r) for each, where d = |out − ref| and r = rtol·|ref| are the very doubles
// element_kernel computes and A its absolute allowance (a row's, where rows apply, is never
// below the whole output's). With e = fl(d − r): e ≤ 0 means d ≤ r ≤ fl(A + r). Otherwise
// d − r ≤ e/(1 − u) and fl(A + r) ≥ (A + r)(1 − u) (u = 2⁻⁵³), so e ≤ A − 2uA − u·r suffices;
// A − 2⁻⁴⁰·(A + R), R the largest r, is below that even after its own two roundings, while
// A·2⁻⁴⁰ stays a normal number (kSmallestMarginedAllowance); below it only e ≤ 0 proves a pass.
// The margin costs nothing in practice: an element 2⁻⁴⁰ short of its bound goes to the two-pass
// comparison, which decides it exactly.
constexpr double kOneReadMargin = 0x1p-40;
constexpr double kSmallestMarginedAllowance = DBL_MIN * 0x1p45;

double one_read_excess_bound(double abs_allowance, double max_relative_allowance) {
  if (!(abs_allowance >= kSmallestMarginedAllowance)) return 0.0;
  return std::max(0.0, abs_allowance - kOneReadMargin * (abs_allowance + max_relative_allowance));
}

}  // namespace

void ReferenceSummary::compute(const double* reference, int64_t count, int64_t row_length, double atol, cudaStream_t stream) {
  require_row_length(count, row_length, "device comparison");
  const size_t blocks = detail::grid_for(std::max<int64_t>(count, 1));
  if (partials_.size() < blocks) partials_ = DeviceBuffer<double>(blocks);
  if (stats_.size() == 0) stats_ = DeviceBuffer<ReferenceStats>(1);
  const size_t rows = row_length > 0 ? static_cast<size_t>(count / row_length) : 0;
  if (row_allowances_.size() < rows) row_allowances_ = DeviceBuffer<double>(rows);
  if (count > 0) {
    summarize_into(reference, count, row_length, atol, partials_.get(), stats_.get(), row_allowances_.get(), stream);
  } else {
    check(cudaMemsetAsync(stats_.get(), 0, sizeof(ReferenceStats), stream), "cudaMemsetAsync (empty reference summary)");
  }
  count_ = count;
  row_length_ = row_length;
  atol_ = atol;
}

ReferenceView ReferenceSummary::view(int64_t count, int64_t row_length, double atol) const {
  if (count_ != count || row_length_ != row_length || atol_ != atol)
    throw std::logic_error("a reference summary of " + std::to_string(count_) + " elements (rows of " + std::to_string(row_length_) +
                           ") at atol " + std::to_string(atol_) + " was used for " + std::to_string(count) + " elements (rows of " +
                           std::to_string(row_length) + ") at atol " + std::to_string(atol));
  return {stats_.get(), row_allowances_of(row_allowances_.get(), row_length)};
}

DeviceComparison compare_on_device(const float* output, const double* reference, int64_t count, int64_t row_length,
                                   const Tolerance& tolerance, cudaStream_t stream) {
  return compare_with(output, reference, count, row_length, tolerance, stream);
}

DeviceComparison compare_on_device(const float* output, const float* reference, int64_t count, int64_t row_length,
                                   const Tolerance& tolerance, cudaStream_t stream, const double* error_scale) {
  return compare_with(output, reference, count, row_length, tolerance, stream, error_scale);
}

DeviceComparison compare_on_device(const float* output, const double* reference, const ReferenceSummary& summary, int64_t count,
                                   int64_t row_length, const Tolerance& tolerance, cudaStream_t stream, const double* error_scale) {
  const ReferenceView view = summary.view(count, row_length, tolerance.atol);
  if (count <= 0) return DeviceComparison{};
  return element_pass(output, reference, view.stats, view.rows, count, tolerance, stream, error_scale);
}

namespace {

template <class Reference>
std::optional<DeviceComparison> one_read_pass(const float* output, const Reference* reference, int64_t count, const Tolerance& tolerance,
                                              cudaStream_t stream) {
  if (count <= 0) return std::nullopt;
  const unsigned blocks = detail::grid_for(count);
  auto partials = DeviceBuffer<OneReadStats>::on_stream(blocks, stream);
  auto total = DeviceBuffer<OneReadStats>::on_stream(1, stream);
  one_read_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(output, reference, count, tolerance.rtol, kPoisonBits, partials.get());
  check_launch("one_read_kernel");
  one_read_finish_kernel<<<1, detail::kBlockThreads, 0, stream>>>(partials.get(), static_cast<int>(blocks), count, tolerance.atol, total.get());
  check_launch("one_read_finish_kernel");
  OneReadStats stats{};
  check(cudaMemcpyAsync(&stats, total.get(), sizeof stats, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (one-read verdict)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (one-read verdict)");
  if (stats.element.unwritten != 0 || stats.element.nonfinite != 0 || stats.nonfinite_disagreements != 0) return std::nullopt;
  if (!(stats.max_excess <= one_read_excess_bound(stats.abs_allowance, stats.max_relative_allowance))) return std::nullopt;
  DeviceComparison comparison;
  comparison.elements = count;
  comparison.max_abs_error = stats.element.max_abs;
  comparison.max_rel_error = std::numeric_limits<double>::quiet_NaN();  // not measured: see the header
  comparison.sum_sq_error = stats.element.sum_sq_error;
  comparison.sum_sq_ref = stats.sum_sq_ref;
  comparison.ref_rms = stats.rms;
  comparison.output_sum = stats.element.output_sum;
  // The relative L2 error fails: the two-pass comparison gives every figure.
  if (!to_compare_result(comparison, tolerance).passed) return std::nullopt;
  return comparison;
}

}  // namespace

std::optional<DeviceComparison> pass_in_one_read(const float* output, const float* reference, int64_t count, const Tolerance& tolerance,
                                                 cudaStream_t stream) {
  return one_read_pass(output, reference, count, tolerance, stream);
}

std::optional<DeviceComparison> pass_in_one_read(const float* output, const double* reference, int64_t count, const Tolerance& tolerance,
                                                 cudaStream_t stream) {
  return one_read_pass(output, reference, count, tolerance, stream);
}

std::vector<bool> trivial_outputs_pass_on_device(const double* reference, const ReferenceSummary& summary, int64_t count,
                                                 int64_t row_length, const TrivialOutputs& trivial, const Tolerance& tolerance,
                                                 cudaStream_t stream) {
  const ReferenceView view = summary.view(count, row_length, tolerance.atol);
  const ReferenceStats* stats = view.stats;
  const size_t total = trivial.constants.size() + trivial.repeated_inputs.size();
  std::vector<bool> passed;
  if (count <= 0) return std::vector<bool>(total, true);  // nothing to get wrong (compare_output's verdict on 0 elements)
  ReferenceStats ref_stats{};
  check(cudaMemcpyAsync(&ref_stats, stats, sizeof ref_stats, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (reference summary)");
  const unsigned blocks = detail::grid_for(count);
  const int64_t stride = static_cast<int64_t>(blocks) * detail::kBlockThreads;
  // compare_output's outlier allowance for `count` elements (finish_comparison).
  CompareResult allowance;
  allowance.elements = count;
  finish_comparison(allowance, 0, 0, tolerance);
  for (size_t first = 0; first < total; first += kTrivialOutputsPerPass) {
    TrivialPass pass{};
    const size_t outputs = std::min(kTrivialOutputsPerPass, total - first);
    pass.outputs = static_cast<int>(outputs);
    for (size_t slot = 0; slot < outputs; ++slot) {
      const size_t k = first + slot;
      if (k < trivial.constants.size()) {
        pass.constant[slot] = trivial.constants[k];
        continue;
      }
      const auto& [input, length] = trivial.repeated_inputs[k - trivial.constants.size()];
      if (input == nullptr || length <= 0) throw std::invalid_argument("a repeated input of a trivial output is null or empty");
      pass.input[slot] = input;
      pass.input_length[slot] = length;
      pass.stride_mod[slot] = stride % length;
    }
    auto progress = DeviceBuffer<TrivialProgress>::on_stream(1, stream);
    auto partials = DeviceBuffer<double>::on_stream(static_cast<size_t>(blocks) * outputs, stream);
    auto sums = DeviceBuffer<double>::on_stream(outputs, stream);
    check(cudaMemsetAsync(progress.get(), 0, sizeof(TrivialProgress), stream), "cudaMemsetAsync (trivial output progress)");
    trivial_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(reference, count, stats, view.rows, tolerance.rtol, kPoisonBits,
                                                                 allowance.outliers_allowed, pass, progress.get(), partials.get());
    check_launch("trivial_kernel");
    trivial_finish_kernel<<<static_cast<unsigned>(outputs), detail::kBlockThreads, 0, stream>>>(partials.get(), static_cast<int>(blocks),
                                                                                                  sums.get());
    check_launch("trivial_finish_kernel");
    TrivialProgress host_progress{};
    std::vector<double> host_sums(outputs);
    check(cudaMemcpyAsync(&host_progress, progress.get(), sizeof host_progress, cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (trivial output progress)");
    check(cudaMemcpyAsync(host_sums.data(), sums.get(), outputs * sizeof(double), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (trivial output sums)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (trivial outputs)");
    for (size_t slot = 0; slot < outputs; ++slot) {
      if ((host_progress.failed >> slot & 1u) != 0) {
        passed.push_back(false);
        continue;
      }
      // Every element was judged: the violations (all excused as outliers, none beyond the
      // bound) and the squared error are complete.
      CompareResult result;
      result.elements = count;
      result.violations = static_cast<int64_t>(host_progress.violations[slot]);
      result.max_rel_error = result.violations > 0 ? kOutlierBoundFactor : 0;  // a bound the kernel checked, not a figure
      finish_comparison(result, host_sums[slot], ref_stats.sum_sq_ref, tolerance);
      passed.push_back(result.passed);
    }
  }
  return passed;
}

}  // namespace kbv::cuda
