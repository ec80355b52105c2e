// tests/sdk/candidates/targets_as_float.cpp — cross_entropy that reads its int64 targets with
// data<float>(): the helper checks the dtype and fails the call naming the tensor and the type to
// use (KBV_STATUS_INVALID_ARGUMENT), instead of reading 8-byte integers as floats.
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "targets_as_float")
kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* targets = call.input("targets").data<float>();  // throws: the targets are int64
  call.output(0).data<float>()[0] = targets[0];
  return KBV_STATUS_OK;
}
