// host cross_entropy — per row the max, Σ exp(x − max) in double and lse − x[target], then the
// mean of the rows in double. Reads the int64 targets as the ABI passes them (data<int64_t>()).
#include "host_common.hpp"

#include <cmath>
#include <limits>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "cross_entropy_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!expect(call.num_inputs() == 2 && call.num_outputs() == 1, "expected predictions, targets and one output"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor logits = call.input("predictions");
  const kbv::Tensor targets = call.input("targets");
  if (!expect(logits.rank() == 2 && targets.rank() == 1 && targets.dim(0) == logits.dim(0) && call.output(0).numel() == 1,
              "expected predictions [N, C], targets [N] and a one-element loss"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t rows = logits.dim(0), classes = logits.dim(1);
  const float* x = logits.data<float>();
  const int64_t* target = targets.data<int64_t>();  // throws (INVALID_ARGUMENT) unless int64
  double total = 0.0;
  for (int64_t n = 0; n < rows; ++n) {
    const float* row = x + n * classes;
    if (!expect(target[n] >= 0 && target[n] < classes, "target out of range")) return KBV_STATUS_INVALID_ARGUMENT;
    float peak = -std::numeric_limits<float>::infinity();
    for (int64_t c = 0; c < classes; ++c) peak = std::fmax(peak, row[c]);
    double sum = 0.0;
    for (int64_t c = 0; c < classes; ++c) sum += std::exp(static_cast<double>(row[c] - peak));
    total += static_cast<double>(peak) + std::log(sum) - static_cast<double>(row[target[n]]);
  }
  call.output(0).data<float>()[0] = static_cast<float>(total / static_cast<double>(rows));
  return KBV_STATUS_OK;
}
