// data/device_compare.hpp — trusted comparison of a candidate's fp32 device output with the fp64
// device reference, with exactly the rule of the host's verify/compare.hpp (compare_output).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "spec/problem.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda {


// Raw figures of one comparison. An element passes when |out − ref| ≤ atol·rms(ref) + rtol·|ref|
// (rms over the finite reference values, divided by all `elements`); a non-finite output
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
};

// Compares `count` elements on `stream` and waits for the result (synchronises the stream).
// Two passes over the reference (its RMS first), each reduced per block and then in a fixed
// order, so the figures are deterministic. `output` and `reference` are device pointers.
DeviceComparison compare_on_device(const float* output, const double* reference, int64_t count,
                                   const Tolerance& tolerance, cudaStream_t stream);
// The same rule against an fp32 reference (widened exactly, element by element): how a timed
// output is rechecked against the TF32 baseline's output without a widened fp64 copy of it.
DeviceComparison compare_on_device(const float* output, const float* reference, int64_t count,
                                   const Tolerance& tolerance, cudaStream_t stream);

// The verdict-ready form, as compare_output() would return for the same buffers:
// rel_l2_error = sqrt(sum_sq_error / sum_sq_ref) (sqrt(sum_sq_error) when sum_sq_ref is 0),
// +inf when any output is non-finite where the reference is finite or left unwritten;
// passed = no violation, nothing unwritten, rel_l2_error ≤ tolerance.rel_l2.
CompareResult to_compare_result(const DeviceComparison& comparison, const Tolerance& tolerance);

}  // namespace kbv::cuda
