// redteam_stderr_split_utf8 — an honest relu that prints 3000 two-byte characters (é) to stderr
// on its first call. kbv keeps the last 4096 bytes of the worker's stderr, which cuts a character
// in two; before kbv replaced invalid sequences, `kbv eval --json` could not encode the result
// and printed bad_input instead of the verdict (and kbvd recorded that).
// Expected: pass.
#include "redteam_common.hpp"

#include <cstdio>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_stderr_split_utf8")

kbv_status kbv_candidate_run(kbv::Call& call) {
  static bool printed = false;
  if (!printed) {
    printed = true;
    for (int i = 0; i < 3000; ++i) std::fputs("\xc3\xa9", stderr);
    std::fputs("xy\n", stderr);
  }
  return redteam::honest_relu(call);
}
