// bench/cuda_timing/event_median.hpp — the median of a few CUDA-event-timed runs of one pass on
// one stream, after warm-up runs: what the single-purpose modes (--conv-passes, --gemm-padding,
// --linear-offers) print. Not kbv's timer (no stop rule, and no L2 flush unless the caller's
// `before` step enqueues one): passes here are 0.1–2 ms over hundreds of MB, far beyond L2, and
// compared only with each other.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "common/event.hpp"

namespace kbv::bench {

// `before(run)` is enqueued ahead of every run, warm-up ones included, outside the events (an L2
// flush: linear_offers.cpp); `run` counts from 0 over all of them.
template <typename Pass, typename Before>
double event_median_ms(Pass&& pass, cudaStream_t stream, int warmup_runs, int timed_runs, Before&& before) {
  std::vector<float> times;
  for (int run = 0; run < warmup_runs + timed_runs; ++run) {
    before(run);
    if (run < warmup_runs) {
      pass();
      continue;
    }
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

template <typename Pass>
double event_median_ms(Pass&& pass, cudaStream_t stream, int warmup_runs, int timed_runs) {
  return event_median_ms(pass, stream, warmup_runs, timed_runs, [](int) {});
}

}  // namespace kbv::bench
