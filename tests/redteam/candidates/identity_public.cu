// redteam_identity_public — docs/threat-model.md, pattern 1 (distribution special-casing), CUDA relu: the
// published 374× ReLU "kernel" — KernelBench's inputs are U[0,1), so relu is the identity and a
// device-to-device copy of x "computes" it.
// Expected: fail_correctness, on a hidden family (negated, normal…); it passes the public one.
#include "redteam_common.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_identity_public")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const auto bytes = static_cast<size_t>(call.output(0).numel()) * sizeof(float);
  return redteam::status_of(cudaMemcpyAsync(call.output(0).data<float>(), call.input(0).data<float>(), bytes,
                                            cudaMemcpyDeviceToDevice, redteam::stream_of(call)),
                            "cudaMemcpyAsync");
}
