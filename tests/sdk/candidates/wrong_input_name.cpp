// tests/sdk/candidates/wrong_input_name.cpp — asks for an input the problem does not have ("X" where relu has "x"):
// the helper's error must name it and list the problem's inputs.
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "wrong_input_name")
kbv_status kbv_candidate_run(kbv::Call& call) {
  (void)call.input("X");
  return KBV_STATUS_OK;
}
