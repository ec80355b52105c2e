// daemon/ops/smooth_l1_loss/reference.cu — smooth_l1_loss's CUDA fp64 reference: the mean of the
// per-element terms (ops/common/reference/sum_terms_f64.cuh).
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/sum_terms_f64.cuh"
#include "ops/smooth_l1_loss/smooth_l1_loss.hpp"

namespace kbv::ops::smooth_l1_loss {
namespace {

struct Term {
  const double* a;
  const double* b;
  double beta;
  __device__ double operator()(int64_t i) const { return Definition::term(a[i], b[i], beta); }
};

}  // namespace

void device_reference(const ReferenceCall& call) {
  const int64_t count = numel(call.shape(0));
  reference::sum_terms_f64(Term{call.input(0), call.input(1), call.real("beta")}, count,
                           static_cast<double>(count), call.output(), call.stream);
}

}  // namespace kbv::ops::smooth_l1_loss
