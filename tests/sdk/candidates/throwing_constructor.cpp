// tests/sdk/candidates/throwing_constructor.cpp — a state class whose constructor fails with a chosen status: create()
// must return it with the message, and destroy() must never see a half-built state.
#include <kbv/plugin.hpp>

class NoWorkspace {
 public:
  NoWorkspace() { throw kbv::Error(KBV_STATUS_DEVICE_ERROR, "no workspace: the allocation failed"); }
  kbv_status run(kbv::Call&) { return KBV_STATUS_OK; }
};

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_HOST, "throwing_constructor", NoWorkspace)
