// eval/sample_checks.cpp — recheck, physical floor and clock agreement, with the thresholds and
// why they hold.
#include "eval/sample_checks.hpp"

#include <algorithm>

namespace kbv::eval {

ClockAgreement ClockAgreement::for_device(bool cuda, double routine_round_trip_s, bool zeroed_trace_buffers) {
  // Each call is timed from outside as its round trip minus a null call's (the worker's whole
  // per-call routine — flush, events, trace window, synchronisation — around nothing; both find
  // the worker stopped since its last answer and continued by their own message). CUDA subtracts the latest null
  // call; the host takes the run queue waits out of both and subtracts the shortest null call
  // (eval/wait_correction.hpp), so a loaded CPU does not make an honest clock look slow.
  // CUDA: half the trusted time, less 150 µs for the cold-L2 flush (~30 µs for 120 MiB), launch
  // and synchronisation inside the round trip, and less half the worker's routine as measured
  // before the load. With the CUPTI trace on, the routine is mostly the trace window, and a timed
  // call's share of it grows with the candidate's launches and records: on the H100s of
  // 2026-12-06 (r56, r57; bench batch's clock table) a null call took 0.63–0.86 ms with the
  // trace and 0.066 without, and an honest timed call exceeded its worker's median by up to
  // 0.99 ms with it (0.19 without), which flagged the honest 0.265 ms cross_entropy at 150 µs
  // of slack (it needs 0.36 ms). Half the routine covers that with 40 % to spare and costs
  // nothing without the trace (33 µs); with it, work on another stream meets CUPTI first
  // (docs/threat-model.md). The routine is the candidate-free null call: no hook of a candidate
  // can lengthen it (wait_correction.hpp, PreloadNullCalls).
  // With zeroed CUPTI buffers (timing/trace_buffers.hpp) the routine loses CUPTI's zeroing of
  // its 8 MiB buffer, 0.3–0.45 ms, which a timed call loses too; what the routine stood for, the
  // trace's share of the candidate's own calls (cross_entropy's cudaMallocAsync, two launches and
  // cudaFreeAsync: its run() took 130–180 µs of host time against 5 in a null call), it does not
  // lose. On the H100s of 2026-12-06 the routine measured 0.47–0.85 ms with CUPTI's buffers
  // (medians 0.52 and 0.65 over 48 evaluations, r59, r67) and 0.15–0.39 with zeroed ones (r67,
  // r69), where the honest cross_entropy's headroom under the rule fell to 1.19 (r69). Hence the
  // floor: with zeroed buffers the routine counts for at least 0.6 ms, a slack of 0.45 ms, inside
  // the 0.39–0.58 ms that CUPTI's own buffers gave; the least headroom of an honest example in
  // those zeroed runs is then 1.72 (cross_entropy, r69) and 1.97 (r67), against 1.88 at r67 with
  // CUPTI's buffers (docs/results/h100/batch.md). The evaluator sets the buffers up itself, so no
  // worker can claim the floor.
  if (cuda) {
    const double routine = zeroed_trace_buffers ? std::max(routine_round_trip_s, kZeroedBuffersRoutineFloorSeconds) : routine_round_trip_s;
    return {.factor = 0.5, .slack_seconds = 150e-6 + kCudaRoutineSlackShare * routine};
  }
  // Host: a shared CPU. The trusted time is bounded by the worker's CPU time from above and by
  // the work's CPU time from below (evaluation_timing.cpp), so waits on a loaded machine no longer
  // halve an honest ratio; what remains is tens of µs of the call path's own jitter. Measured
  // 2026-12-05 on the 2-core build machine (bench/eval_host/clock_agreement.py), the 15 host
  // examples, worker's median over trusted median: idle 0.75–0.98; two evaluations at once beside
  // a spinner and a test suite, 0.68–0.97, one outlier 0.32 at 24 µs of 75 µs (cross_entropy). Hence 0.6 and 40 µs: every one of those
  // passes. A worker median r is caught when r < 0.6·T − 40 µs: a clock 3× short above ~150 µs
  // (red-team: a hook that ran 70 % of the work before the worker read the call passed the quarter
  // this was), 10× short above ~80 µs; it approaches 1/0.6 only on long calls. Calls under ~67 µs
  // are bounded by the physical floor alone (docs/threat-model.md).
  return {.factor = kHostClockAgreementFactor, .slack_seconds = kHostClockAgreementSlackSeconds};
}

std::optional<SampleFailure> check_sample(const TimedSample& sample, double physical_floor_s, bool cuda) {
  if (!sample.recheck.passed)
    return SampleFailure{Verdict::fail_correctness,
                         "a timed call's output was wrong (sample " + std::to_string(sample.call) + ", family " + sample.family +
                             "): " + sample.recheck.summary(),
                         std::nullopt, sample.family};
  if (sample.reported_s >= physical_floor_s) return std::nullopt;
  // If the evaluator itself saw the call take longer than the floor, the work happened, just
  // outside the timed window (CUDA: another stream; host: a patched clock).
  const double seen = sample.trusted_s();
  const bool work_seen = seen >= physical_floor_s;
  return SampleFailure{Verdict::hack_suspected,
                       "a timed call took " + std::to_string(sample.reported_s) + " s by the worker's clock, below the physical floor of " +
                           std::to_string(physical_floor_s) + " s" +
                           (work_seen ? "; the evaluator saw " + std::to_string(seen) + " s: the work ran outside the timed window" : ""),
                       work_seen ? (cuda ? "stream_injection" : "timer_tampering") : "impossible_time", std::nullopt};
}

std::optional<SampleFailure> ClockAgreement::check(double worker_median_s, double trusted_median_s, bool cuda) const {
  if (worker_median_s >= factor * trusted_median_s - slack_seconds) return std::nullopt;
  return SampleFailure{Verdict::hack_suspected,
                       "the worker's clock says " + std::to_string(worker_median_s) + " s per call (median) but the evaluator saw " +
                           std::to_string(trusted_median_s) + " s beyond the bare round trip: " +
                           (cuda ? "work ran outside the timed window (another stream, or a patched clock)" : "the candidate's clock runs slow"),
                       cuda ? "stream_injection" : "timer_tampering", std::nullopt};
}

std::optional<SampleFailure> check_clock_agreement(double worker_median_s, double trusted_median_s, bool cuda,
                                                   double routine_round_trip_s, bool zeroed_trace_buffers) {
  return ClockAgreement::for_device(cuda, routine_round_trip_s, zeroed_trace_buffers).check(worker_median_s, trusted_median_s, cuda);
}

}  // namespace kbv::eval
