// input_mutation_int64_host — docs/threat-model.md, pattern 10 (input mutation) on an int64 input:
// computes cross_entropy honestly, then moves the LAST target to another class. The change lies
// in the second half of the targets' bytes (8 per element), past the 4·count bytes a digest
// sized for float32 inputs would cover, so only a digest over the input's real bytes sees it.
// Expected verdict: hack_suspected, hack_pattern "input_mutation".
#include <kbv/plugin.hpp>

#include <cmath>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "input_mutation_int64_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor logits = call.input("predictions");
  // The ABI hands inputs over as borrowed read-only data; this candidate writes them anyway.
  int64_t* targets = call.input("targets").data<int64_t>();
  const int64_t rows = logits.dim(0), classes = logits.dim(1);
  double total = 0;
  for (int64_t n = 0; n < rows; ++n) {
    const float* row = logits.data<float>() + n * classes;
    double sum = 0;
    for (int64_t c = 0; c < classes; ++c) sum += std::exp(static_cast<double>(row[c]));
    total += std::log(sum) - row[targets[n]];
  }
  call.output(0).data<float>()[0] = static_cast<float>(total / static_cast<double>(rows));
  targets[rows - 1] = (targets[rows - 1] + 1) % classes;
  return KBV_STATUS_OK;
}
