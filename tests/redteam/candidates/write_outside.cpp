// redteam_write_outside — sandbox escape (no writable shared filesystem, docs/threat-model.md, pattern 11's
// defense), host relu: creates /tmp/kbv_escape_<pid> (a file a later candidate could read a
// cache from), logs the outcome, then computes relu honestly.
// Expected: sandbox_violation (no writable path outside the worker's scratch dir); afterwards
// no /tmp/kbv_escape_* file exists on the host.
#include "escape_write.hpp"
#include "redteam_common.hpp"

namespace {
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_write_outside")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    redteam::log(redteam::try_write_outside("/tmp/kbv_escape_", "written by redteam_write_outside\n"));
  }
  return redteam::honest_relu(call);
}
