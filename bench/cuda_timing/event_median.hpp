// bench/cuda_timing/event_median.hpp — the median of a few CUDA-event-timed runs of one pass on
// one stream, after warm-up runs: what the single-purpose modes (--conv-passes, --gemm-padding)
// print. Not kbv's timer (no L2 flush, no stop rule): passes here are 0.1–2 ms over hundreds of
// MB, far beyond L2, and compared only with each other.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "common/event.hpp"

namespace kbv::bench {

template <typename Pass>
double event_median_ms(Pass&& pass, cudaStream_t stream, int warmup_runs, int timed_runs) {
  for (int i = 0; i < warmup_runs; ++i) pass();
  std::vector<float> times;
  for (int i = 0; i < timed_runs; ++i) {
    const cuda::Event start, stop;
    start.record(stream);
    pass();
    stop.record(stream);
    stop.synchronize();
    times.push_back(stop.elapsed_ms_since(start));
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace kbv::bench
