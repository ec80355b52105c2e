// tests/unit/wait_correction_test.cpp — the host's wait correction: schedstat text parsed
// (eval/thread_schedstat.hpp) and the arithmetic that takes run queue waits out of the trusted
// time (eval/wait_correction.hpp), including the bounds a candidate cannot talk its way past.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <initializer_list>
#include <thread>
#include <utility>
#include <vector>

#include "eval/sample_checks.hpp"
#include "eval/thread_schedstat.hpp"
#include "eval/wait_correction.hpp"

namespace kbv::eval {
namespace {

TEST(Schedstat, ReadsTheFirstFieldAsCpuTimeAndTheSecondAsRunDelay) {
  const auto stat = parse_schedstat("143841799 311487812 59\n");
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->on_cpu_ns, 143841799u);
  EXPECT_EQ(stat->run_delay_ns, 311487812u);
  EXPECT_EQ(parse_schedstat("0 53987 1")->run_delay_ns, 53987u);
  EXPECT_EQ(parse_schedstat("18446744073709551615 18446744073709551614 3\n")->run_delay_ns, 18446744073709551614u);
  EXPECT_EQ(parse_schedstat("18446744073709551615 18446744073709551614 3\n")->on_cpu_ns, 18446744073709551615u);
}

TEST(Schedstat, RefusesAnythingButThreeNumbers) {
  EXPECT_FALSE(parse_schedstat(""));
  EXPECT_FALSE(parse_schedstat("\n"));
  EXPECT_FALSE(parse_schedstat("12 34"));
  EXPECT_FALSE(parse_schedstat("12 -34 5"));
  EXPECT_FALSE(parse_schedstat("12 34 5 6"));
  EXPECT_FALSE(parse_schedstat("12 abc 5"));
  EXPECT_FALSE(parse_schedstat("99999999999999999999 1 1"));  // beyond 64 bits
}

TEST(Schedstat, ReadsThisThreadAndThisProcess) {
  const auto own = own_thread_run_delay_ns();
  if (!own) GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel";
  const ProcessSchedstats threads = process_thread_schedstats(::getpid());
  ASSERT_FALSE(threads.empty());
  ASSERT_TRUE(threads.count(::gettid()));
  EXPECT_GE(threads.at(::gettid()).run_delay_ns, *own);  // run_delay never goes back
  EXPECT_GT(threads.at(::gettid()).on_cpu_ns, 0u);
  EXPECT_FALSE(read_schedstat("/proc/self/no_such_file"));
  EXPECT_TRUE(process_thread_schedstats(-1).empty());
  EXPECT_GE(online_cpu_count(), 1u);
}

// A thread's CPU time grows by the work it does, which the floor on the trusted time reads.
TEST(Schedstat, AThreadsCpuTimeGrowsByItsWork) {
  if (!own_thread_run_delay_ns()) GTEST_SKIP() << "no /proc/thread-self/schedstat on this kernel";
  const ProcessSchedstats before = process_thread_schedstats(::getpid());
  volatile double sink = 0;
  for (int i = 0; i < 20'000'000; ++i) sink = sink + i * 1e-9;
  const ProcessSchedstats after = process_thread_schedstats(::getpid());
  EXPECT_GT(longest_thread_on_cpu_s(before, after), 1e-3) << "20 M additions take well over 1 ms of this thread's CPU";
}

// The process CPU clock counts every thread's CPU time, a thread that has ended included: the
// bound on the host's trusted time (evaluation_timing.cpp) must see work handed to such threads.
TEST(Schedstat, TheProcessCpuClockKeepsAnEndedThreadsWork) {
  const auto before = process_cpu_time_ns(::getpid());
  if (!before) GTEST_SKIP() << "no process CPU clock readable here";
  std::thread worker([] {
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i) sink = sink + i * 1e-9;
  });
  worker.join();
  const auto after = process_cpu_time_ns(::getpid());
  ASSERT_TRUE(after);
  EXPECT_GT(*after, *before + 1'000'000u) << "20 M additions on a thread that has ended take well over 1 ms of CPU";
  EXPECT_FALSE(process_cpu_time_ns(-1));
}

// Readings of threads that each waited (run_delay) these many nanoseconds, and ran as long (so
// that no wait is capped at the CPU time), or only ran.
ProcessSchedstats waited(std::initializer_list<std::pair<const pid_t, std::uint64_t>> run_delays) {
  ProcessSchedstats threads;
  for (const auto& [tid, ns] : run_delays) threads[tid] = {.on_cpu_ns = ns, .run_delay_ns = ns};
  return threads;
}
ProcessSchedstats ran(std::initializer_list<std::pair<const pid_t, std::uint64_t>> on_cpu) {
  ProcessSchedstats threads;
  for (const auto& [tid, ns] : on_cpu) threads[tid] = {.on_cpu_ns = ns, .run_delay_ns = 0};
  return threads;
}

TEST(WaitCorrection, TheWorkerCountsItsLongestWaitingThreadNotTheSum) {
  const ProcessSchedstats before = waited({{10, 1'000'000}, {11, 5'000'000}, {12, 0}});
  const ProcessSchedstats after = waited({{10, 3'000'000}, {11, 6'000'000}, {12, 1'500'000}, {13, 9'000'000}});
  // 2 ms, 1 ms, 1.5 ms gained; thread 13 began during the exchange and counts nothing.
  EXPECT_DOUBLE_EQ(longest_thread_wait_s(before, after), 2e-3);
  EXPECT_DOUBLE_EQ(longest_thread_wait_s(after, before), 0.0);  // a reused id that went back
  EXPECT_DOUBLE_EQ(longest_thread_wait_s({}, after), 0.0);
}

// A thread's wait counts up to the CPU time it ran meanwhile: a main thread looping on
// sched_yield (runnable, working little) while a thread that ends before the readings does the
// work gains a round trip of run_delay, and none of it is credited.
TEST(WaitCorrection, AWaitCountsUpToTheThreadsOwnWork) {
  const ProcessSchedstats before{{10, {.on_cpu_ns = 1'000'000, .run_delay_ns = 1'000'000}}};
  const ProcessSchedstats yielding{{10, {.on_cpu_ns = 1'008'000, .run_delay_ns = 1'300'000}}};
  EXPECT_DOUBLE_EQ(longest_thread_wait_s(before, yielding), 8e-6);
  const ProcessSchedstats preempted{{10, {.on_cpu_ns = 1'310'000, .run_delay_ns = 1'200'000}}};
  EXPECT_DOUBLE_EQ(longest_thread_wait_s(before, preempted), 200e-6);  // an honest call's wait, in full
}

TEST(WaitCorrection, TheLongestRunningThreadByTheSameRule) {
  const ProcessSchedstats before = ran({{10, 1'000'000}, {11, 5'000'000}});
  const ProcessSchedstats after = ran({{10, 1'300'000}, {11, 5'100'000}, {13, 9'000'000}});
  EXPECT_DOUBLE_EQ(longest_thread_on_cpu_s(before, after), 300e-6);
  EXPECT_DOUBLE_EQ(longest_thread_on_cpu_s(after, before), 0.0);
  EXPECT_DOUBLE_EQ(longest_thread_wait_s(before, after), 0.0);  // work is not a wait
  const auto waits = waits_between(0, 0, before, after);
  ASSERT_TRUE(waits);
  ASSERT_TRUE(waits->worker_longest_thread_on_cpu_s);
  EXPECT_DOUBLE_EQ(*waits->worker_longest_thread_on_cpu_s, 300e-6);
  EXPECT_FALSE(waits_between(0, 0, before, {})->worker_longest_thread_on_cpu_s);  // not read
}

TEST(WaitCorrection, TheCpuTimeFloorIsTheLongestThreadOrAllThreadsOverTheCpus) {
  const CpuTimeFloor floor{.routine_longest_thread_s = 10e-6, .routine_all_threads_s = 12e-6, .online_cpus = 2};
  // One thread did the work: its CPU time is the floor, less the routine's.
  EXPECT_DOUBLE_EQ(floor.of(310e-6, 312e-6), 300e-6);
  // Eight threads of 50 µs each on two CPUs took 200 µs at the least.
  EXPECT_DOUBLE_EQ(floor.of(60e-6, 412e-6), 200e-6);
  EXPECT_DOUBLE_EQ(floor.of(0, 0), 0.0);  // never negative
  EXPECT_DOUBLE_EQ(CpuTimeFloor{.online_cpus = 0}.of(0, 4e-3), 4e-3);  // no CPUs counts as one
}

// The attack the floor closes: a candidate that makes its own waits as long as the round trip
// gets half of it credited; the work's CPU time keeps the trusted time at the work.
TEST(WaitCorrection, ACandidateLengtheningItsWaitsCannotTakeTheTrustedTimeUnderItsWork) {
  constexpr double round_trip = 150e-6, work = 100e-6;
  const double credited = credited_wait_s(round_trip, {.evaluator_s = 0, .worker_s = round_trip});
  const double by_round_trip = trusted_call_s(round_trip, credited, 20e-6);
  const double slow_clock = work / 10;
  const ClockAgreement host = ClockAgreement::for_device(false);
  EXPECT_GE(slow_clock, host.factor * by_round_trip - host.slack_seconds) << "the round trip alone lets a 10x clock on this call pass";
  const double trusted = std::max(by_round_trip, CpuTimeFloor{.routine_longest_thread_s = 5e-6, .online_cpus = 2}.of(work + 5e-6, work + 5e-6));
  EXPECT_LT(slow_clock, host.factor * trusted - host.slack_seconds);
}

TEST(WaitCorrection, WaitsNeedBothEvaluatorReadings) {
  EXPECT_FALSE(waits_between(std::nullopt, 5, {}, {}));
  EXPECT_FALSE(waits_between(5, std::nullopt, {}, {}));
  const auto waits = waits_between(1'000, 401'000, waited({{7, 0}}), waited({{7, 2'000'000}}));
  ASSERT_TRUE(waits);
  EXPECT_DOUBLE_EQ(waits->evaluator_s, 400e-6);
  EXPECT_DOUBLE_EQ(waits->worker_s, 2e-3);
}

TEST(WaitCorrection, CreditsTheEvaluatorFullyAndTheWorkerInPart) {
  EXPECT_DOUBLE_EQ(credited_wait_s(5e-3, {.evaluator_s = 1e-3, .worker_s = 2e-3}), 1e-3 + kWorkerWaitCredit * 2e-3);
  EXPECT_DOUBLE_EQ(credited_wait_s(5e-3, {.evaluator_s = 0, .worker_s = 0}), 0.0);
  EXPECT_DOUBLE_EQ(credited_wait_s(0, {.evaluator_s = 1e-3, .worker_s = 1e-3}), 0.0);
}

TEST(WaitCorrection, NeverCreditsMoreThanTheRoundTrip) {
  // The evaluator's own wait is capped at the round trip, and so is the whole credit.
  EXPECT_DOUBLE_EQ(credited_wait_s(1e-3, {.evaluator_s = 7e-3, .worker_s = 0}), 1e-3);
  EXPECT_DOUBLE_EQ(credited_wait_s(1e-3, {.evaluator_s = 0.8e-3, .worker_s = 10e-3}), 1e-3);
  // The worker's wait, read after it stopped, may include waits after its answer: at most the
  // round trip of it counts, so half the round trip stays trusted (busy_between_calls under load).
  EXPECT_DOUBLE_EQ(credited_wait_s(1e-3, {.evaluator_s = 0, .worker_s = 10e-3}), kWorkerWaitCredit * 1e-3);
  EXPECT_DOUBLE_EQ(credited_wait_s(1e-3, {.evaluator_s = -1, .worker_s = -1}), 0.0);
}

TEST(WaitCorrection, ACandidateThatWaitsTheWholeCallKeepsHalfOfItTrusted) {
  // The worst a candidate can make of its own waits: one thread runnable but waiting for the
  // whole round trip. Half of it stays trusted, and a 10× slow clock stays below the agreement
  // factor's share of that.
  constexpr double round_trip = 10e-3;
  const double trusted = trusted_call_s(round_trip, credited_wait_s(round_trip, {.evaluator_s = 0, .worker_s = round_trip}), 0);
  EXPECT_DOUBLE_EQ(trusted, (1 - kWorkerWaitCredit) * round_trip);
  EXPECT_LT(round_trip / 10, ClockAgreement::for_device(false).factor * trusted - ClockAgreement::for_device(false).slack_seconds);
}

TEST(WaitCorrection, TheNullCallFloorIsTheShortestCorrectedNullCall) {
  NullCallFloor floor;
  EXPECT_TRUE(floor.empty());
  EXPECT_DOUBLE_EQ(floor.shortest_s(), 0.0);
  floor.add(80e-6);
  floor.add(3e-3);  // a null call that sat on a run queue
  floor.add(60e-6);
  floor.add(-1e-6);  // waits over-credited: counts as nothing, not as a negative routine
  EXPECT_DOUBLE_EQ(floor.shortest_s(), 0.0);
  EXPECT_EQ(floor.all().size(), 4u);
}

TEST(WaitCorrection, TrustedTimeIsRoundTripLessWaitsLessTheNullCall) {
  EXPECT_DOUBLE_EQ(trusted_call_s(3e-3, 1e-3, 0.5e-3), 1.5e-3);
  EXPECT_DOUBLE_EQ(trusted_call_s(1e-3, 1e-3, 0.5e-3), 0.0);
}

// The null calls before the load bound the later ones by their least readings: a loaded machine
// that inflates half of them (a stolen vCPU) must not loosen the bound a candidate burning 1.5 ms
// in every pong meets (red-team null_call_inflation passed once when the median was inflated).
TEST(PreloadNullCalls, BoundByTheLeastReadingsSoInflatedOnesLoosenNothing) {
  const std::vector<double> round_trips = {40e-6, 35e-6, 900e-6, 900e-6, 900e-6, 900e-6, 900e-6, 38e-6};
  const std::vector<double> on_cpu = {20e-6, 22e-6, 400e-6, 400e-6, 400e-6, 400e-6, 400e-6, 21e-6};
  for (const PreloadBound given : {kCudaPreloadBound, kHostPreloadBound}) {
    const auto calls = PreloadNullCalls::from(round_trips, on_cpu, on_cpu, given);
    ASSERT_TRUE(calls.least_on_cpu_s && calls.least_longest_thread_on_cpu_s && calls.shortest_round_trip_s);
    const double inflated_pong = 1.5e-3 + 20e-6;
    const double bound = given.factor * 20e-6 + given.slack_seconds;
    EXPECT_DOUBLE_EQ(calls.bound_on_cpu(inflated_pong), bound);
    EXPECT_DOUBLE_EQ(calls.bound_longest_thread_on_cpu(inflated_pong), bound);
    EXPECT_DOUBLE_EQ(calls.bound_round_trip(inflated_pong), given.factor * 35e-6 + given.slack_seconds);
    // An honest later null call, as cheap as before the load, is left as it is.
    EXPECT_DOUBLE_EQ(calls.bound_on_cpu(25e-6), 25e-6);
  }
}

// The host's later null calls follow a call's preparation and cost the worker more than its
// back-to-back ones before the load: the largest growth measured (an honest relu's null calls at
// 205 µs against a least of 37 before) stays inside the host's bound, and the red-team
// null_call_inflation's 1.5 ms pongs do not.
TEST(PreloadNullCalls, TheHostBoundHoldsAnHonestRoutineThatFollowsACallsPreparation) {
  const auto calls = PreloadNullCalls::from({53e-6}, {37e-6}, {37e-6}, kHostPreloadBound);
  EXPECT_DOUBLE_EQ(calls.bound_on_cpu(205e-6), 205e-6);
  EXPECT_LT(calls.bound_on_cpu(1.5e-3), 0.3e-3);
  // CUDA's bound is the tighter: its null calls before the load are like its later ones.
  EXPECT_LT(PreloadNullCalls::from({53e-6}, {37e-6}, {37e-6}, kCudaPreloadBound).bound_on_cpu(205e-6), 205e-6);
}

TEST(PreloadNullCalls, AMissingReadingLeavesThatMeasureUnbounded) {
  const auto calls = PreloadNullCalls::from({40e-6, 35e-6}, {20e-6}, {}, kHostPreloadBound);
  EXPECT_TRUE(calls.shortest_round_trip_s);
  EXPECT_FALSE(calls.least_on_cpu_s);
  EXPECT_FALSE(calls.least_longest_thread_on_cpu_s);
  EXPECT_DOUBLE_EQ(calls.bound_on_cpu(1.5e-3), 1.5e-3);
  EXPECT_FALSE(PreloadNullCalls::from({}, {}, {}, kHostPreloadBound).shortest_round_trip_s);
}

}  // namespace
}  // namespace kbv::eval
