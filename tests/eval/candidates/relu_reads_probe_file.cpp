// hostile_relu_reads_probe_file — reading what the worker must not (the results store, the
// watch folder, any `kbv eval --forbid` path): reads /tmp/kbv_forbidden_probe.txt and, when it
// can, fails the call with the file's contents in the error; otherwise computes relu.
// Expected: pass with the contents nowhere in kbv's output when the path is forbidden (or
// outside Landlock's read set); fail_correctness carrying the contents when it is readable.
#include <kbv/plugin.hpp>

#include <fstream>
#include <sstream>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_reads_probe_file")

kbv_status kbv_candidate_run(kbv::Call& call) {
  std::ifstream probe("/tmp/kbv_forbidden_probe.txt");
  if (probe) {
    std::stringstream contents;
    contents << probe.rdbuf();
    if (!contents.str().empty()) {
      kbv::set_error("READ " + contents.str());
      return KBV_STATUS_INTERNAL;
    }
  }
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < call.output(0).numel(); ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
  return KBV_STATUS_OK;
}
