// data/device_compare.hpp — trusted comparison of a candidate's fp32 device output with the fp64
// device reference, with exactly the rule of the host's verify/compare.hpp (compare_output).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "common/device_buffer.hpp"
#include "spec/problem.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda {


// Raw figures of one comparison. An element passes when |out − ref| ≤ atol·rms(ref) + rtol·|ref|
// (rms over the finite reference values, divided by all `elements`; with a row length, the
// larger of that and the element's row's rms: verify/compare.hpp, kMinLocalRmsRow); a non-finite output
// passes only where the reference holds the same non-finite value (NaN/NaN or the same
// infinity); a finite output where the reference is non-finite fails.
struct DeviceComparison {
  int64_t elements = 0;
  int64_t violations = 0;                  // elements that fail the rule above
  int64_t nonfinite_where_ref_finite = 0;  // NaN/Inf in the output where the reference is finite
  int64_t unwritten = 0;                   // elements still holding kPoisonBits
  int64_t first_violation_index = -1;      // smallest failing index, −1 when none
  double max_abs_error = 0;    // over finite pairs; +inf once a non-finite output fails
  double max_rel_error = 0;    // max |out−ref| / (atol·rms + rtol·|ref|) over finite pairs: > 1 fails
  double sum_sq_error = 0;     // Σ (out−ref)² over finite pairs
  double sum_sq_ref = 0;       // Σ ref² over finite reference values
  double ref_rms = 0;          // sqrt(sum_sq_ref / elements)
  double output_sum = 0;       // Σ out over every element (NaN/Inf included): a cheap fingerprint
  bool by_error_scale = false; // judged with an error scale S (verify/compare.hpp)…
  double sum_sq_scale = 0;     // …whose Σ S² over finite values this is
};

// Compares `count` elements on `stream` and waits for the result (synchronises the stream).
// Two passes over the reference (its RMS first, then each row's when `row_length` is not 0),
// each reduced per block and then in a fixed order, so the figures are deterministic. `output`
// and `reference` are device pointers; `row_length` is local_rms_row_length(the output's shape)
// or 0 (verify/compare.hpp) and must divide `count`.
DeviceComparison compare_on_device(const float* output, const double* reference, int64_t count, int64_t row_length,
                                   const Tolerance& tolerance, cudaStream_t stream);
// The same rule against an fp32 reference (widened exactly, element by element): how a timed
// output is rechecked against the TF32 baseline's output without a widened fp64 copy of it; with
// an `error_scale` as the summarised overload below takes it.
DeviceComparison compare_on_device(const float* output, const float* reference, int64_t count, int64_t row_length,
                                   const Tolerance& tolerance, cudaStream_t stream, const double* error_scale = nullptr);

// The figures compare_on_device gives an output against its reference (fp32 or fp64; row_length
// 0 or any: rows only widen allowances), when one read of both proves the verdict a pass: no
// unwritten or non-finite disagreement, every finite element within its allowance by a margin
// rounding cannot cross (device_compare.cu, kOneReadMargin), the relative L2 error within
// tolerance. The reference's RMS, which the two-pass comparison reads it once more for (and a
// ReferenceSummary reads it for beforehand), comes from the same read. std::nullopt otherwise:
// then compare_on_device decides, so every verdict is the one it gives. An honest output is far
// inside its tolerance: a timed output's recheck against the TF32 baseline (relu: 8 bytes an
// element read instead of 12) and a correctness trial against the fp64 reference (12 instead of
// 20). Every figure is compare_on_device's bit for bit but max_rel_error, which is NaN: not
// measured (no ratio is needed to prove a pass; CompareResult::summary shows it only with
// violations, and no report carries it). Synchronises `stream`.
std::optional<DeviceComparison> pass_in_one_read(const float* output, const float* reference, int64_t count, const Tolerance& tolerance,
                                                 cudaStream_t stream);
std::optional<DeviceComparison> pass_in_one_read(const float* output, const double* reference, int64_t count, const Tolerance& tolerance,
                                                 cudaStream_t stream);

// The reference's half of every comparison against it: Σ ref² over its finite values, its RMS
// and the absolute allowance atol·max(rms, kTinyReferenceRms). It stays on the device, where
// the element pass reads it, so that every comparison against one reference (baselines, trivial
// outputs, the candidate, its repeat) reads the reference once instead of twice: a conv2d
// output's fp64 reference is 17 GB.
struct ReferenceStats {
  double sum_sq_ref = 0;
  double rms = 0;
  double abs_allowance = 0;
};

// Each row's absolute allowance atol·max(rms, row rms, kTinyReferenceRms), on the device; `values`
// is null when the output is judged by its whole RMS alone (row length 0).
struct RowAllowances {
  const double* values = nullptr;
  int64_t length = 0;
  double inverse_length = 0;  // 1 / length, to find an element's row without a 64-bit division
};

// A summary's device data for one comparison.
struct ReferenceView {
  const ReferenceStats* stats = nullptr;
  RowAllowances rows;
};

class ReferenceSummary {
 public:
  // One pass over `reference` on `stream` (asynchronous; two with a row length), for a
  // tolerance whose atol is `atol`. Reuses this summary's device memory where it is large
  // enough: recomputing for the next reference of the same size allocates nothing.
  void compute(const double* reference, int64_t count, int64_t row_length, double atol, cudaStream_t stream);
  // Throws std::logic_error unless compute() ran for this `count`, `row_length` and `atol`: a
  // summary of another reference or tolerance would give wrong verdicts silently.
  ReferenceView view(int64_t count, int64_t row_length, double atol) const;

 private:
  DeviceBuffer<double> partials_;
  DeviceBuffer<ReferenceStats> stats_;
  DeviceBuffer<double> row_allowances_;
  int64_t count_ = -1;
  int64_t row_length_ = 0;
  double atol_ = 0;
};

// compare_on_device against a reference summarised beforehand (same reference contents, same
// tolerance.atol): one pass over output and reference, the same figures bit for bit. With an
// `error_scale` (device, `count` values: graph/error_scale_graph.hpp) each element's absolute
// allowance is atol·max(its row's, S) and Σ S² is summed too: compare_output's rule with a scale.
DeviceComparison compare_on_device(const float* output, const double* reference, const ReferenceSummary& summary, int64_t count,
                                   int64_t row_length, const Tolerance& tolerance, cudaStream_t stream,
                                   const double* error_scale = nullptr);

// Outputs that need no work to produce, judged against a reference without being written:
// each constant fills the output (zeros: 0.0f); each repeated input fills it in order and
// again from its start (element i = input[i mod length], the host's rule for "copy of input").
struct TrivialOutputs {
  std::vector<float> constants;
  std::vector<std::pair<const float*, int64_t>> repeated_inputs;  // device pointer, length
};
// At most this many trivial outputs share one pass (zeros, the mean and a copy of each input of
// the bundled problems, which have at most 4); more take further passes. The per-output
// counters live in registers: 6 keep two blocks per SM resident.
constexpr size_t kTrivialOutputsPerPass = 6;

// Whether each trivial output (constants first, then repeated inputs, in order) passes against
// the reference: the verdict compare_on_device + to_compare_result would give it written out.
// One pass over the reference for up to kTrivialOutputsPerPass of them, which stops as soon as
// every one has failed somewhere: for a family that is not degenerate, a few microseconds
// instead of a full comparison each (conv2d: 4 of them, ~13 ms apiece). Synchronises `stream`.
std::vector<bool> trivial_outputs_pass_on_device(const double* reference, const ReferenceSummary& summary, int64_t count,
                                                 int64_t row_length, const TrivialOutputs& trivial, const Tolerance& tolerance,
                                                 cudaStream_t stream);

// The verdict-ready form, as compare_output() would return for the same buffers:
// rel_l2_error = sqrt(sum_sq_error / sum_sq_ref) (sqrt(sum_sq_error) when sum_sq_ref is 0),
// +inf when any output is non-finite where the reference is finite or left unwritten;
// passed = no violation, nothing unwritten, rel_l2_error ≤ tolerance.rel_l2.
CompareResult to_compare_result(const DeviceComparison& comparison, const Tolerance& tolerance);

}  // namespace kbv::cuda
