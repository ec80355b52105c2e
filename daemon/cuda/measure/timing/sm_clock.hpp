// timing/sm_clock.hpp — the SM clock, sampled after every timing sample so throttled samples
// can be discarded. Source: NVML's current SM clock when libnvidia-ml.so.1 can be loaded at
// run time (dlopen: the build needs no NVML), else a one-thread probe kernel that counts
// clock64() cycles over a globaltimer interval on the timing stream.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

namespace kbv::cuda {

class SmClock {
 public:
  // For the current device.
  SmClock();
  ~SmClock();
  SmClock(const SmClock&) = delete;
  SmClock& operator=(const SmClock&) = delete;

  // The SM clock the throttle threshold is relative to: cudaDevAttrClockRate, the clock
  // NVBench calls the default (get_sm_default_clock_rate); NVML's maximum SM clock when the
  // attribute is 0; 0 when neither says (then nothing counts as throttled).
  double default_mhz() const { return default_mhz_; }

  // The current SM clock in MHz; 0 when it cannot be read. The probe path enqueues a short
  // kernel on `stream` and waits for it.
  double sample_mhz(cudaStream_t stream);

  // "nvml" or "probe kernel (clock64 over globaltimer)".
  std::string source() const;

 private:
  struct Nvml;
  std::unique_ptr<Nvml> nvml_;
  double default_mhz_ = 0;
  struct Probe;
  std::unique_ptr<Probe> probe_;
};

// The probe itself (sm_clock_probe.cu): cycles and nanoseconds one thread observed while
// spinning for at least `spin_ns` of globaltimer time; written to out[0] (cycles), out[1] (ns).
void launch_clock_probe(unsigned long long spin_ns, unsigned long long* out,
                        cudaStream_t stream);

}  // namespace kbv::cuda
