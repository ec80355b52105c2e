// redteam_write_outside_cuda — sandbox escape on the CUDA device (no writable shared
// filesystem, docs/threat-model.md, pattern 11's defense): creates /tmp/kbv_escape_cuda_<pid> from inside a
// CUDA worker, logs the outcome, then computes relu honestly on the call's stream.
// Expected: pass or sandbox_violation, and no /tmp/kbv_escape_cuda_* file on the host
// afterwards (Landlock confines the CUDA worker's writes to its scratch directory).
#include "escape_write.hpp"
#include "redteam_common.cuh"

namespace {
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_write_outside_cuda")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    redteam::log(redteam::try_write_outside("/tmp/kbv_escape_cuda_", "written by redteam_write_outside_cuda\n"));
  }
  return redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel(), redteam::stream_of(call));
}
