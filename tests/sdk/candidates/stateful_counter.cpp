// tests/sdk/candidates/stateful_counter.cpp — an honest relu built with KBV_CANDIDATE_CLASS whose state counts its
// calls and logs its construction and destruction, so tests can see create(), run() and
// destroy() happen in order (and `kbv eval --verbose` can show the log).
#include <kbv/plugin.hpp>

#include <string>

class CountingRelu {
 public:
  CountingRelu() { kbv::log(1, "stateful_counter: created"); }
  ~CountingRelu() { kbv::log(1, "stateful_counter: destroyed after " + std::to_string(calls_) + " calls"); }
  kbv_status run(kbv::Call& call) {
    const float* x = call.input("x").data<float>();
    float* y = call.output("y").data<float>();
    for (int64_t i = 0; i < call.output("y").numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
    ++calls_;
    return KBV_STATUS_OK;
  }

 private:
  long calls_ = 0;
};

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_HOST, "stateful_counter", CountingRelu)
