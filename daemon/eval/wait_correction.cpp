// eval/wait_correction.cpp — the arithmetic of the host's wait correction.
#include "eval/wait_correction.hpp"

#include <algorithm>

namespace kbv::eval {

namespace {

// A clock's gain between two readings of one thread; 0 where it went back (a reused id).
std::uint64_t gained(std::uint64_t was, std::uint64_t now) { return now >= was ? now - was : 0; }

// The largest `gain(before, after)` over the threads present in both readings, in seconds.
template <typename Gain>
double longest_over_threads(const ProcessSchedstats& before, const ProcessSchedstats& after, Gain gain) {
  std::uint64_t longest_ns = 0;
  for (const auto& [tid, now] : after)
    if (const auto was = before.find(tid); was != before.end()) longest_ns = std::max(longest_ns, gain(was->second, now));
  return static_cast<double>(longest_ns) * 1e-9;
}

}  // namespace

double longest_thread_wait_s(const ProcessSchedstats& before, const ProcessSchedstats& after) {
  return longest_over_threads(before, after, [](const ThreadSchedstat& was, const ThreadSchedstat& now) {
    return std::min(gained(was.run_delay_ns, now.run_delay_ns), gained(was.on_cpu_ns, now.on_cpu_ns));
  });
}

double longest_thread_on_cpu_s(const ProcessSchedstats& before, const ProcessSchedstats& after) {
  return longest_over_threads(before, after,
                              [](const ThreadSchedstat& was, const ThreadSchedstat& now) { return gained(was.on_cpu_ns, now.on_cpu_ns); });
}

std::optional<ExchangeWaits> waits_between(std::optional<std::uint64_t> evaluator_before_ns, std::optional<std::uint64_t> evaluator_after_ns,
                                           const ProcessSchedstats& worker_before, const ProcessSchedstats& worker_after) {
  if (!evaluator_before_ns || !evaluator_after_ns) return std::nullopt;
  ExchangeWaits waits;
  if (*evaluator_after_ns > *evaluator_before_ns) waits.evaluator_s = static_cast<double>(*evaluator_after_ns - *evaluator_before_ns) * 1e-9;
  waits.worker_s = longest_thread_wait_s(worker_before, worker_after);
  if (!worker_after.empty()) waits.worker_longest_thread_on_cpu_s = longest_thread_on_cpu_s(worker_before, worker_after);
  return waits;
}

double credited_wait_s(double round_trip_s, const ExchangeWaits& waits) {
  if (round_trip_s <= 0) return 0;
  const double own = std::clamp(waits.evaluator_s, 0.0, round_trip_s);
  // The worker's wait is read after it stopped, so it can include waits after its answer (a
  // candidate spinning there on a loaded CPU): no more of it than the round trip counts, so half
  // the round trip stays trusted whatever the candidate does (busy_between_calls under load).
  const double worker = kWorkerWaitCredit * std::clamp(waits.worker_s, 0.0, round_trip_s);
  return std::min(round_trip_s, own + worker);
}

PreloadNullCalls PreloadNullCalls::from(const std::vector<double>& round_trips_s, const std::vector<double>& on_cpu_s,
                                        const std::vector<double>& longest_thread_on_cpu_s, PreloadBound bound) {
  PreloadNullCalls calls;
  calls.bound = bound;
  if (round_trips_s.empty()) return calls;
  const auto least_of_every = [&](const std::vector<double>& values) -> std::optional<double> {
    if (values.size() != round_trips_s.size()) return std::nullopt;
    return *std::min_element(values.begin(), values.end());
  };
  calls.shortest_round_trip_s = least_of_every(round_trips_s);
  calls.least_on_cpu_s = least_of_every(on_cpu_s);
  calls.least_longest_thread_on_cpu_s = least_of_every(longest_thread_on_cpu_s);
  return calls;
}

double CpuTimeFloor::of(double longest_thread_s, double all_threads_s) const {
  const double one_thread = longest_thread_s - routine_longest_thread_s;
  const double all_threads = (all_threads_s - routine_all_threads_s) / std::max(1u, online_cpus);
  return std::max({0.0, one_thread, all_threads});
}

void NullCallFloor::add(double corrected_round_trip_s) { corrected_s_.push_back(std::max(0.0, corrected_round_trip_s)); }

double NullCallFloor::shortest_s() const { return corrected_s_.empty() ? 0.0 : *std::min_element(corrected_s_.begin(), corrected_s_.end()); }

double trusted_call_s(double round_trip_s, double credited_wait_s, double null_call_s) {
  return std::max(0.0, round_trip_s - credited_wait_s - null_call_s);
}

}  // namespace kbv::eval
