// redteam_long_name — an honest relu whose name is 1 MiB long. Before kbv bounded names, the
// worker's `ready` message outgrew the control socket, was never sent, and the load waited out
// its 60 s limit (timeout, with the call limit named instead of the load limit).
// Expected: pass, quickly, the name cut at 256 bytes.
#include "redteam_common.hpp"

#include <string>

namespace {
const std::string& long_name() {
  static const std::string name(std::size_t{1} << 20, 'A');
  return name;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, long_name().c_str())

kbv_status kbv_candidate_run(kbv::Call& call) { return redteam::honest_relu(call); }
