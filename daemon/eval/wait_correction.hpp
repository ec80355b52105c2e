// eval/wait_correction.hpp — the host's trusted call time without the scheduler's waits. On a
// loaded CPU the evaluator's and the worker's threads sit runnable on a run queue (waking for a
// message, preempted mid-call), and a round trip grows by those waits while the worker's clock
// only partly sees them: an honest candidate then looks like a slow clock. The kernel counts each
// thread's wait (run_delay, eval/thread_schedstat.hpp); the trusted time takes it back out:
//   trusted = (round trip − credited waits) − shortest (null call round trip − its credited waits)
// Pure arithmetic; evaluation_calls.cpp measures the waits, evaluation_timing.cpp applies them.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "eval/thread_schedstat.hpp"

namespace kbv::eval {

// The share of the worker's run queue wait that is credited. The worker is the candidate's
// process: it can lengthen its own threads' waits (helper threads pinned beside the timed one,
// sched_yield loops), so never all of it. Half still takes out most of what a loaded machine adds
// to an honest call (4 CPU spinners on 2 cores: tests/redteam/timer_under_load_test.cpp), while a
// 10× slow clock stays caught even if the candidate makes its waits as long as the whole call:
// trusted ≥ round trip / 2, and the host's agreement factor (0.6 less 40 µs, eval/sample_checks.cpp)
// then still asks the worker's clock for 0.3 of the round trip less 40 µs, above a tenth on calls
// over ~200 µs (shorter ones: the CPU time floor, CpuTimeFloor).
inline constexpr double kWorkerWaitCredit = 0.5;

// Run queue waits over one exchange with the worker (a call or a null call), in seconds.
struct ExchangeWaits {
  double evaluator_s = 0;  // the evaluating thread's own run_delay after its send: trusted, fully credited
  double worker_s = 0;     // the largest run_delay gained by any one worker thread
  // The worker's CPU time over the exchange, all its threads' summed, ended ones included
  // (empty where not read): what the call cost in CPU time, which no wait lengthens
  // (evaluation_timing.cpp bounds the trusted time by it).
  std::optional<double> worker_on_cpu_s = std::nullopt;
  // The largest CPU time gained by any one worker thread present in both readings (empty where
  // not read): the wall time that thread's work took at the least (CpuTimeFloor).
  std::optional<double> worker_longest_thread_on_cpu_s = std::nullopt;
};

// The largest wait of any one thread present in both readings that counts: its run_delay gain,
// up to its CPU time gained over the same span. Not their sum: threads that wait side by side
// add wall time once, and a candidate cannot multiply the credit by spawning threads; one thread
// cannot wait longer than the exchange took. Threads seen only once (begun or ended during the
// exchange) count nothing. Up to its CPU time: a thread that waits without working lost the call
// nothing (a main thread looping on sched_yield while a short-lived thread did the work gained
// a round trip's run_delay and had half of it credited; red-team yield_waiter), while an honest
// thread preempted mid-call waits at most about as long as it works (a longer wait on a tiny
// call is left to the CPU-time bound from above, evaluation_timing.cpp).
double longest_thread_wait_s(const ProcessSchedstats& before, const ProcessSchedstats& after);

// The largest CPU time gained by any one thread present in both readings, by the same rule.
double longest_thread_on_cpu_s(const ProcessSchedstats& before, const ProcessSchedstats& after);

// The waits between two readings (evaluator: the calling thread; worker: every worker thread).
// Empty when either evaluator reading is missing (no schedstat on this kernel).
std::optional<ExchangeWaits> waits_between(std::optional<std::uint64_t> evaluator_before_ns, std::optional<std::uint64_t> evaluator_after_ns,
                                           const ProcessSchedstats& worker_before, const ProcessSchedstats& worker_after);

// The wait taken off a round trip: the evaluator's own wait, capped at the round trip, plus
// kWorkerWaitCredit of the worker's, never more than the round trip in all.
double credited_wait_s(double round_trip_s, const ExchangeWaits& waits);

// Null calls the worker made before the candidate was loaded: only kbv's code ran in them, so
// they are the trusted measure of a call's routine. The null calls after the load run in the
// candidate's process, which can lengthen them (a hook on the worker's send burning a
// millisecond in every pong made the floor subtracted from each call as long as the call, and a
// 50× slow clock passed at 48×: red-team null_call_inflation); they count up to a bound only:
// factor × the same measure before the load + slack.
struct PreloadBound {
  double factor = 1;
  double slack_seconds = 0;
};
// CUDA: the null calls before the load are cold and traced like the later ones; factor and slack
// leave an honest worker's load-time growth (mapped arena, warmer or colder caches: a few µs) far
// inside.
inline constexpr PreloadBound kCudaPreloadBound{.factor = 1.5, .slack_seconds = 30e-6};
// Host: the null calls before the load follow one another with nothing between, while the later
// ones follow a call's preparation (Evaluation::prepare_like_a_call) and cost the worker more CPU
// time by an amount that does not grow with the routine: on this 2-vCPU VM (2026-12-07, 168
// honest host relu evaluations, batches of 3 and single) 66–95 µs more on average in every band
// of the least before the load (15–90 µs), at most 170 (bench/eval_host/clock_agreement.py prints
// this growth: its "null growth" column). At 1.5× + 30 µs the bound cut the honest
// routine by up to 120 µs, which its trusted time gained: 3 of 84 were judged timer_tampering,
// and one in CI's `ctest -j2` (bench_eval_host). Hence a slack, not a factor: 200 µs covers the
// largest growth seen, and a clipped routine flags an honest 25 µs relu only past ~65 µs more.
// What an attacker gains within it is up to about 200 µs of hidden work per call: a 10× slow
// clock on host work under ~0.3 ms could pass (the clock check's 40 µs slack alone lets one under
// ~70 µs through); the red-team corpus's slow clocks hide 0.27–0.4 ms calls and stay caught
// (trusted 0.23–0.44 ms against the ~0.13 ms that flags them, 0.17–0.26 under 2 spinners).
inline constexpr PreloadBound kHostPreloadBound{.factor = 1.0, .slack_seconds = 200e-6};

struct PreloadNullCalls {
  std::optional<double> shortest_round_trip_s;  // raw: before any wait correction (a looser bound)
  std::optional<double> least_on_cpu_s;         // the worker's CPU time in its cheapest null call
  std::optional<double> least_longest_thread_on_cpu_s;  // the least largest one-thread CPU time of a null call
  PreloadBound bound = kCudaPreloadBound;

  // From the null calls' readings, one entry per null call in each (a CPU time series shorter
  // than the round trips, some readings missing, stays empty). The least of each, not the
  // median: a fixed routine's CPU time never reads below what it costs, while a loaded machine
  // (a vCPU stolen by the hypervisor, caches another test thrashed) inflates some readings, and
  // the bound is loosest where the routine reads slowest: the red-team null_call_inflation,
  // whose pongs burn 1.5 ms, passed once in a full `ctest -j2` with the median of 8 inflated.
  static PreloadNullCalls from(const std::vector<double>& round_trips_s, const std::vector<double>& on_cpu_s,
                               const std::vector<double>& longest_thread_on_cpu_s, PreloadBound bound);

  // `later_s` (a floor or a CPU time measured after the load) bounded by the same measure before it.
  double bound_round_trip(double later_s) const { return bounded(later_s, shortest_round_trip_s); }
  double bound_on_cpu(double later_s) const { return bounded(later_s, least_on_cpu_s); }
  double bound_longest_thread_on_cpu(double later_s) const { return bounded(later_s, least_longest_thread_on_cpu_s); }

 private:
  double bounded(double later_s, const std::optional<double>& before_s) const {
    if (!before_s) return later_s;
    return std::min(later_s, bound.factor * *before_s + bound.slack_seconds);
  }
};

// A lower bound on a call's wall time from the CPU time it cost, which no run queue wait
// lengthens and no candidate can shrink: one thread's CPU time is never more than the wall time
// it took, and all threads' together never more than the wall time on every online CPU. Each
// less the same measure of the worker's routine (its null calls'). The credited waits can only
// lower the trusted time, down to half a round trip (kWorkerWaitCredit); a candidate that
// lengthens its own waits on a loaded CPU (busy_between_calls: spinning while the evaluator,
// waiting for a CPU of its own, was slow to stop it) got there, and a 10× slow clock on a 310 µs
// relu passed 2 runs in 8 under 4 spinners on 2 cores. The work's own CPU time keeps the trusted
// time at the work however long the waits. The worker is stopped while both readings are taken,
// so its threads' clocks are current (a running thread's lags up to a scheduler tick).
struct CpuTimeFloor {
  double routine_longest_thread_s = 0;  // the null call's largest one-thread CPU time
  double routine_all_threads_s = 0;     // the null call's CPU time, all threads
  unsigned online_cpus = 1;

  double of(double longest_thread_s, double all_threads_s) const;
};

// The shortest corrected null call so far: the worker's per-call routine around nothing with the
// least scheduling noise left in it (a single late null call, waits and all, would be subtracted
// from every call after it).
class NullCallFloor {
 public:
  void add(double corrected_round_trip_s);
  bool empty() const { return corrected_s_.empty(); }
  double shortest_s() const;  // 0 when empty
  const std::vector<double>& all() const { return corrected_s_; }

 private:
  std::vector<double> corrected_s_;
};

// A call as the evaluator saw it, beyond the worker's routine: never negative.
double trusted_call_s(double round_trip_s, double credited_wait_s, double null_call_s);

}  // namespace kbv::eval
