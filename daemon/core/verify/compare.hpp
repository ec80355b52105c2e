// verify/compare.hpp — trusted comparison of a candidate's fp32 output with the fp64 reference,
// under a problem's Tolerance (semantics in spec/problem.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/problem.hpp"
#include "tensor/shape.hpp"

namespace kbv {

// The bit pattern written into every output element before each call: a signalling NaN that
// no arithmetic produces, so an element that still holds it was never written.
constexpr uint32_t kPoisonBits = 0x7fa00000u;

// Guards the rms-relative atol when the whole reference is (nearly) zero (host and device).
constexpr double kTinyReferenceRms = 1e-30;

struct CompareResult {
  bool passed = false;
  int64_t elements = 0;
  int64_t violations = 0;                 // elements outside atol·rms + rtol·|ref| (rms: below)
  int64_t nonfinite_where_ref_finite = 0; // NaN/Inf in the output where the reference is finite
  int64_t unwritten = 0;                  // elements still holding kPoisonBits
  int64_t first_violation_index = -1;
  double max_abs_error = 0;
  double max_rel_error = 0;               // max |out-ref| / (atol·rms + rtol·|ref|): > 1 fails
  double rel_l2_error = 0;                // ||out-ref||_2 / ||ref||_2 (by the error scale: / ||S||_2)
  double ref_rms = 0;
  // sqrt(Σ ref²) over the finite reference values: a bound on every |ref| that both devices have
  // without another pass (the family validation's fp32 overflow rule, evaluation_correctness.cpp).
  double ref_l2_norm = 0;
  // Judged with the products' error scale S (graph/error_scale_graph.hpp): each element's absolute
  // allowance atol·max(rms, row rms, S), and the relative L2 error against ||S|| within
  // rel_l2·kErrorScaleRelL2Share (error_scale_tolerance).
  bool by_error_scale = false;
  int64_t outliers_allowed = 0;           // violations tolerated (Tolerance::outlier_fraction)
  std::string summary() const;            // one line for verdict details
};

// An outlier (Tolerance::outlier_fraction) may miss the elementwise bound by at most this
// factor: a TF32 rounding tail, not a wrong value.
constexpr double kOutlierBoundFactor = 10.0;

// Rows (runs of the output's innermost axis) of at least this many elements are each judged
// against their own RMS where it exceeds the whole output's: the absolute allowance of an
// element is atol·max(rms(output), rms(its row)). Never stricter than the whole output's RMS
// alone; looser only in rows larger than the output's typical magnitude, where TF32's error is
// larger in proportion. Why: on per_row_scale (inputs and weights a row each at 10^±3), an
// honest TF32 GEMM's largest rows dwarf the output's RMS, and 1–2 of 4.2M outputs of L2 #59's
// wmma candidate missed the bound by up to 1.34× (H200, 2026-12-04); with the row's RMS its worst
// element sits at 0.3–0.4 of the bound (bench/tolerance/per_row_scale_gemm.py). 32: an RMS over
// fewer elements is too noisy to stand for a row's magnitude.
constexpr int64_t kMinLocalRmsRow = 32;

// The row length an output of `shape` is judged by (above): its innermost extent when that is at
// least kMinLocalRmsRow and the output has more than one row, else 0 (the whole output's RMS).
int64_t local_rms_row_length(const std::vector<int64_t>& shape);

// Throws std::invalid_argument (naming `who`) unless `row_length` is 0 or divides `count`: a
// caller's bug. The host comparison and the device one (data/device_compare.hpp) both check.
void require_row_length(int64_t count, int64_t row_length, const char* who);

// The relative L2 bound of the error-scale rule, as a share of the problem's: ||out − ref|| against
// ||S||. An honest TF32 product errs by ≈ 3–4e-4·||S|| whatever the family (its error comes from
// rounding the operands, in proportion to the products; on zero-mean families S ≈ |ref| and that
// is TF32's measured rel-L2), a bf16 one by ≈ 2.35e-3·||S||, and by 2.35e-3/√2 ≈ 1.7e-3 after a
// relu that zeroes half the outputs (the error goes with them, ||S|| does not). Against ||S|| the
// problem's 2e-3 would pass bf16 there; half of it, 1e-3, keeps 2.5–3× between honest TF32 and it,
// and 1.7× to bf16 after a relu.
constexpr double kErrorScaleRelL2Share = 0.5;

// The tolerance the error-scale rule applies: the problem's with rel_l2 × kErrorScaleRelL2Share.
Tolerance error_scale_tolerance(const Tolerance& tolerance);

// Compares `count` elements; `row_length` is local_rms_row_length(the output's shape), or 0 to
// judge by the whole output's RMS alone (a flat buffer with no rows); require_row_length holds.
// `error_scale`, when given, holds the output's error scale S, `count` values (by_error_scale).
CompareResult compare_output(const float* output, const double* reference, int64_t count, int64_t row_length,
                             const Tolerance& tolerance, const double* error_scale = nullptr);

// Completes a result whose element counts and maxima are filled in: the relative L2 error
// from the two sums (infinite when anything was unwritten or non-finite where the reference is
// finite) and the verdict. Shared by the host comparison and the device one. When judged by the
// error scale, `sum_sq_ref` is Σ S² and `tolerance` error_scale_tolerance(the problem's).
void finish_comparison(CompareResult& result, double sum_sq_error, double sum_sq_ref, const Tolerance& tolerance);

// One result for several outputs: passed only if all passed; counts summed; errors the worst.
CompareResult merge_results(const std::vector<CompareResult>& parts);

// Writes kPoisonBits into every element.
void poison(float* data, int64_t count);

}  // namespace kbv
