// data/device_compare_result.cpp — turns device comparison figures into the host's
// CompareResult, with compare_output()'s rules for the relative L2 error and the verdict
// (verify/compare.hpp's finish_comparison).
#include "data/device_compare.hpp"

#include <cmath>

namespace kbv::cuda {

CompareResult to_compare_result(const DeviceComparison& c, const Tolerance& tolerance) {
  CompareResult result;
  result.elements = c.elements;
  result.violations = c.violations;
  result.nonfinite_where_ref_finite = c.nonfinite_where_ref_finite;
  result.unwritten = c.unwritten;
  result.first_violation_index = c.first_violation_index;
  result.max_abs_error = c.max_abs_error;
  result.max_rel_error = c.max_rel_error;
  result.ref_rms = c.ref_rms;
  result.ref_l2_norm = std::sqrt(c.sum_sq_ref);
  result.by_error_scale = c.by_error_scale;
  if (c.by_error_scale) finish_comparison(result, c.sum_sq_error, c.sum_sq_scale, error_scale_tolerance(tolerance));
  else finish_comparison(result, c.sum_sq_error, c.sum_sq_ref, tolerance);
  return result;
}

}  // namespace kbv::cuda
