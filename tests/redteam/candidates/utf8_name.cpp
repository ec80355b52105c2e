// redteam_utf8_name — an honest relu whose name is not UTF-8 ("bad" then a lone 0xFF byte).
// Before kbv replaced invalid sequences, the worker could not encode its `ready` message and
// exited (crash).
// Expected: pass, the name reported with U+FFFD in place of the byte.
#include "redteam_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "bad\xff")

kbv_status kbv_candidate_run(kbv::Call& call) { return redteam::honest_relu(call); }
