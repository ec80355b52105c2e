// hostile_loss_sum — smooth_l1_loss summed but never divided by the element count: the rank-0
// output of the test problem smooth_l1_mean (tests/eval/rank0_eval_test.cpp) is off by that
// factor. Expected verdict: fail_correctness on the public family.
#include <kbv/plugin.hpp>

#include <cmath>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "loss_sum")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  double sum = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double d = std::fabs(static_cast<double>(x[i]) - y[i]);
    sum += d < 1 ? 0.5 * d * d : d - 0.5;
  }
  call.output(0).data<float>()[0] = static_cast<float>(sum);
  return KBV_STATUS_OK;
}
