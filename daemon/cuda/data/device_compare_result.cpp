// data/device_compare_result.cpp — turns device comparison figures into the host's
// CompareResult, with compare_output()'s rules for the relative L2 error and the verdict.
#include <cmath>
#include <limits>

#include "data/device_compare.hpp"

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
  result.rel_l2_error =
      c.sum_sq_ref > 0 ? std::sqrt(c.sum_sq_error / c.sum_sq_ref) : std::sqrt(c.sum_sq_error);
  if (c.nonfinite_where_ref_finite != 0 || c.unwritten != 0)
    result.rel_l2_error = std::numeric_limits<double>::infinity();
  result.passed = result.violations == 0 && result.unwritten == 0 &&
                  result.rel_l2_error <= tolerance.rel_l2;
  return result;
}

}  // namespace kbv::cuda
