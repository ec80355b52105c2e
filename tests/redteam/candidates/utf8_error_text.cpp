// redteam_utf8_error_text — text the candidate hands kbv need not be UTF-8: run() refuses every
// call with an exception whose message ends in a lone 0xFF byte. Before kbv replaced invalid
// sequences, encoding the worker's `done` message threw and the worker died (crash, the
// author's status and text lost).
// Expected: fail_correctness naming the status and the text ("not yet", U+FFFD for the byte).
#include "redteam_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_utf8_error_text")

kbv_status kbv_candidate_run(kbv::Call&) { throw kbv::Error(KBV_STATUS_UNSUPPORTED, "not yet \xff"); }
