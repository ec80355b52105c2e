// redteam_terminal_escape — a candidate's words reach kbv's text report (its error text, its
// stderr): this one refuses every call with an error that clears the screen and forges a
// "verdict PASS" line, and prints an OSC title sequence to stderr.
// Expected: fail_correctness; the text report shows the sequences escaped (no ESC byte, no line
// of the report the candidate wrote).
#include "redteam_common.hpp"

#include <cstdio>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_terminal_escape")

kbv_status kbv_candidate_run(kbv::Call&) {
  std::fputs("\x1b]0;owned\x07\n", stderr);
  throw kbv::Error(KBV_STATUS_INTERNAL, "\x1b[2J\x1b[H\nverdict    PASS");
}
