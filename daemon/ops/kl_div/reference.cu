// daemon/ops/kl_div/reference.cu — kl_div's CUDA fp64 reference: the sum of the per-element terms
// over input.shape[0] (ops/common/reference/sum_terms_f64.cuh).
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/sum_terms_f64.cuh"
#include "ops/kl_div/kl_div.hpp"

namespace kbv::ops::kl_div {
namespace {

struct Term {
  const double* input;
  const double* target;
  bool log_target;
  __device__ double operator()(int64_t i) const { return Definition::term(input[i], target[i], log_target); }
};

}  // namespace

void device_reference(const ReferenceCall& call) {
  const bool log_target = call.integer("log_target", 0) != 0;
  reference::sum_terms_f64(Term{call.input(0), call.input(1), log_target}, numel(call.shape(0)),
                           static_cast<double>(call.shape(0)[0]), call.output(), call.stream);
}

}  // namespace kbv::ops::kl_div
