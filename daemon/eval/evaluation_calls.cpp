// eval/evaluation_calls.cpp — one checked call of the candidate (poisoned outputs, input
// digests, sandbox reports, thread count, device memory, the worker's clock against the
// evaluator's), what the worker's CUPTI trace observed, and the null call.
#include <kbv/plugin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <string>

#include <fmt/format.h>

#include "eval/evaluation.hpp"
#include "eval/failure_text.hpp"
#include "eval/message_fields.hpp"
#include "eval/review_thresholds.hpp"
#include "eval/report_stats.hpp"

#ifdef KBV_HAVE_SANDBOX
#include "sandbox/sandbox.hpp"
#endif

namespace kbv::eval::detail {
namespace {

// A traced call's kernels all run between its start and stop events (the marker kernels on
// both sides prove it), so the events cannot measure less than the kernels' span. Events
// resolve about 0.5 µs (cudaEventElapsedTime's documentation) and CUPTI's timestamps are
// converted to the host's time base: 10 % and 20 µs cover both with room; an event timer that
// reports a tenth of the truth, or a constant, is far outside.
constexpr double kSpanOverEventsFactor = 1.1;
constexpr double kSpanOverEventsSlackSeconds = 20e-6;
// Null calls timed before the load (time_null_calls_before_load): the shortest of this many is
// the reference; a few hundred µs in all on the host, a few ms on CUDA (each a CUPTI window).
constexpr int kPreloadNullCalls = 8;

std::int64_t realtime_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// One exchange with the worker, timed from just before the send. It ends at the answer's arrival
// on the socket (the kernel's stamp) rather than at this process reading it: a candidate that
// burns CPU right after answering, on a CPU this process waits for, cannot lengthen it
// (busy_between_calls passed under load when the wait after the answer was credited). Without a
// stamp, or when the real-time clock stepped (a stamp outside [send, read]), it ends at the read.
struct RoundTrip {
  Clock::time_point sent_at = Clock::now();
  std::int64_t sent_realtime_ns = realtime_ns();
  double read_s = 0;                // up to this process reading the answer
  std::optional<double> arrival_s;  // up to the answer's arrival, when stamped

  void end(const WorkerProcess& worker) {
    read_s = std::chrono::duration<double>(Clock::now() - sent_at).count();
    arrival_s.reset();
    const std::int64_t arrival_ns = worker.last_arrival_realtime_ns();
    if (arrival_ns <= 0 || arrival_ns < sent_realtime_ns) return;
    const double stamped_s = static_cast<double>(arrival_ns - sent_realtime_ns) * 1e-9;
    if (stamped_s <= read_s) arrival_s = stamped_s;
  }
  double seconds() const { return arrival_s.value_or(read_s); }
};

}  // namespace

std::string violation_text(const std::vector<int>& numbers) {
  std::string text;
  for (int number : numbers) {
#ifdef KBV_HAVE_SANDBOX
    const std::string name = sandbox::syscall_name(number);
#else
    const std::string name = "syscall";
#endif
    const std::string item = name + " (" + std::to_string(number) + ")";
    if (text.find(item) == std::string::npos) text += (text.empty() ? "" : ", ") + item;
  }
  return text;
}

std::string Evaluation::poison_and_digest(DataPlane& plane, int slot) {
  {
    auto phase = phases_.measure(phase_ + ".poison_outputs");
    plane.poison_outputs(slot);
  }
  auto phase = phases_.measure(phase_ + ".input_digests");
  return plane.input_digest(slot);
}

bool Evaluation::checked_call(DataPlane& plane, int slot, double* reported_s, double* round_trip_s, bool cold) {
  const std::string before = poison_and_digest(plane, slot);
  const RunDelayReading waits_before = read_run_delays();
  RoundTrip trip;
  worker_->send({{"type", "call"}, {"id", ++call_id_}, {"slot", slot}, {"cold", cold}});
  const std::optional<std::uint64_t> evaluator_sent_ns = wait_correction_ ? own_thread_run_delay_ns() : std::nullopt;
  auto done = await("during call " + std::to_string(call_id_), options_.call_timeout_s);
  trip.end(*worker_);
  const double round_trip = trip.seconds();
  last_waits_ = waits_since(waits_before, evaluator_sent_ns, trip.arrival_s.has_value());
  phases_.add(phase_ + ".call_round_trips", trip.read_s);
  if (!done) return false;
  std::optional<PhaseClock::Scope> checks_phase;  // closed around the digest, which has its own phase
  checks_phase.emplace(phases_, phase_ + ".call_checks");
  if (!answers(*done, "done", call_id_)) {
    decide(Verdict::hack_suspected, "the worker sent a message that does not answer the call", "result_forgery");
    return false;
  }
  if (auto violations = worker_->drain_violations(); !violations.empty()) {
    decide(Verdict::sandbox_violation, "the candidate attempted forbidden system calls: " + violation_text(violations));
    return false;
  }
  const int threads = worker_->thread_count();
  if (baseline_threads_ > 0 && threads > baseline_threads_) {
    decide(Verdict::hack_suspected, "the worker had " + std::to_string(baseline_threads_) + " threads before the calls and " +
                                        std::to_string(threads) + " after call " + std::to_string(call_id_) +
                                        ": work may continue after the call returns",
           "thread_injection");
    return false;
  }
  bool inputs_changed = false;
  checks_phase.reset();
  {
    auto phase = phases_.measure(phase_ + ".input_digests");
    inputs_changed = plane.input_digest(slot) != before;
  }
  checks_phase.emplace(phases_, phase_ + ".call_checks");
  if (inputs_changed) {
    decide(Verdict::hack_suspected, "the candidate modified its inputs during call " + std::to_string(call_id_), "input_mutation");
    return false;
  }
  call_cuda_error_ = text_field(*done, "cuda_error");
  const nlohmann::json observed = object_field(*done, "observed");
  worker_steps_.add(phase_ + "_calls", observed);
  if (!check_observations(observed)) return false;
  if (device_used_at_start_ >= 0) {
    // Trusted: device-wide memory seen from the evaluator, beyond what was in use when the
    // worker was set up. It sees what the candidate keeps between calls (not transient peaks).
    const DataPlane::DeviceMemory now = plane.device_memory();
    const double held = now.used_bytes - device_used_at_start_;
    device_held_by_candidate_ = std::max(device_held_by_candidate_, held);
    const double free_at_start = now.total_bytes - device_used_at_start_;
    if (free_at_start > 0 && held > kMaxCandidateMemoryShare * free_at_start) {
      decide(Verdict::resource, "the candidate holds " + std::to_string(held / 1e9) + " GB of device memory after call " +
                                    std::to_string(call_id_) + ", more than " + std::to_string(static_cast<int>(kMaxCandidateMemoryShare * 100)) +
                                    " % of the device memory free when its worker started");
      return false;
    }
  }
  const int status = static_cast<int>(number_field(*done, "status", -1));
  if (status != KBV_STATUS_OK) {
    // The candidate produced no outputs for this call, by its own word: it does not compute
    // the problem on these inputs. That is a correctness failure (the taxonomy's "could not be
    // trusted to produce the outputs"), with the status named so the author sees why; crashes
    // and sticky CUDA errors were decided above.
    const RefusedCall refused{status, text_field(*done, "error"), bool_field(*done, "exception"), call_cuda_error_};
    decide(Verdict::fail_correctness, "call " + std::to_string(call_id_) + " (" + phase_ + ", family " + family_ + "): " + refused_call_text(refused));
    return false;
  }
  const double reported = number_field(*done, "elapsed_ns") * 1e-9;
  if (reported_s) *reported_s = reported;
  if (round_trip_s) *round_trip_s = round_trip;
  // The worker's own clock cannot exceed what the evaluator saw from outside.
  if (reported > round_trip || reported < 0) {
    decide(Verdict::hack_suspected, "the worker reported " + std::to_string(reported) + " s for a call that took " +
                                        std::to_string(round_trip) + " s end to end", "timer_tampering");
    return false;
  }
  // The kernels CUPTI saw inside the window bound the events' measure from below.
  if (last_kernel_span_s_ && *last_kernel_span_s_ > reported * kSpanOverEventsFactor + kSpanOverEventsSlackSeconds) {
    decide(Verdict::hack_suspected, "call " + std::to_string(call_id_) + "'s kernels ran for " + std::to_string(*last_kernel_span_s_) +
                                        " s by CUPTI's clock, all between its start and stop events, but the events measured " +
                                        std::to_string(reported) + " s: the worker's event timer was tampered with",
           "timer_tampering");
    return false;
  }
  return true;
}

std::string Evaluation::slow_clock_pattern() const {
  if (options_.device != "cuda") return "timer_tampering";
  return traced_calls_ && !traced_off_stream_ ? "timer_tampering" : "stream_injection";
}

bool Evaluation::check_observations(const nlohmann::json& observed) {
  if (!observed.is_object()) return true;
  if (bool_field(observed, "sticky_error")) {
    decide(Verdict::crash, "the candidate left a sticky CUDA error in the worker during call " + std::to_string(call_id_) +
                               (call_cuda_error_.empty() ? std::string() : ": " + call_cuda_error_) +
                               " (an illegal address or a trap in one of its kernels poisons the CUDA context for the rest of the process)");
    return false;
  }
  if (observed.contains("launch_gate")) result_.environment["launch_gate"] = observed["launch_gate"];
  // The worker's context settings (worker/cuda_device.cpp, context_settings()): known keys, numbers only.
  if (const nlohmann::json settings = object_field(observed, "context_settings"); !settings.empty()) {
    nlohmann::json copied = nlohmann::json::object();
    for (const char* key : {"cache_config", "max_l2_fetch_granularity_bytes", "persisting_l2_cache_bytes", "stack_bytes"})
      if (settings.contains(key) && settings[key].is_number_integer()) copied[key] = settings[key];
    result_.environment["worker_context"] = std::move(copied);
  }
  if (text_field(observed, "trace") != "cupti") {
    if (observed.contains("trace")) result_.environment["trace"] = observed["trace"];
    return true;
  }
  result_.environment["trace"] = "cupti: every call's kernels, streams and device memory";
  // Summed over the calls: records CUPTI dropped for want of buffer space (those calls' checks saw
  // only part of them), and records it delivered after their window had closed (dropped there;
  // none expected with the forced flush that closes each window). Diagnostics of completeness.
  for (const auto& [key, total] : {std::pair{"dropped_records", "trace_dropped_records"},
                                   std::pair{"records_delivered_late", "trace_records_delivered_late"}})
    if (const double count = number_field(observed, key); count > 0) result_.environment[total] = result_.environment.value(total, 0.0) + count;
  if (!check_escapes(observed)) return false;
  const auto kernel_names = text_list_field(observed, "kernel_names");
  if (phase_ == "correctness") {
    kernel_sets_.learn(family_, kernel_names);
  } else if (const auto difference = kernel_sets_.check(family_, kernel_names)) {
    decide(Verdict::hack_suspected, "timed call " + std::to_string(call_id_) + " on family " + family_ +
                                        " launched a set of kernels no correctness call on that family launched (" + difference->substr(0, 300) +
                                        "): the candidate runs unchecked code when it is timed",
           "phase_detection");
    return false;
  }
  if (bool_field(observed, "library_kernels")) add_flag("calls_library");
  traced_calls_ = true;
  traced_off_stream_ |= number_field(observed, "off_stream_kernels") > 0;
  // The call's peak is relative to its window's start: on top of what the candidate already
  // held (create()'s allocations, a workspace kept from an earlier call).
  peak_candidate_bytes_ = std::max(peak_candidate_bytes_, held_candidate_bytes_ + number_field(observed, "peak_device_bytes"));
  held_candidate_bytes_ = std::max(0.0, held_candidate_bytes_ + number_field(observed, "net_device_bytes"));
  peak_pool_bytes_ = std::max(peak_pool_bytes_, number_field(observed, "peak_pool_bytes"));
  last_kernel_span_s_.reset();
  if (observed.contains("kernel_span_ns")) last_kernel_span_s_ = number_field(observed, "kernel_span_ns") * 1e-9;
  last_kernels_ = traced_kernels(observed, kernel_names);
  return true;
}

bool Evaluation::check_escapes(const nlohmann::json& observed) {
  if (!observed.is_object() || text_field(observed, "trace") != "cupti") return true;
  struct Escape {
    const char* key;
    const char* what;
    const char* when;
    const char* meaning;
    const char* pattern;
    bool timing_only;  // copies: a library's lazy set-up copies outside the window once, in the first calls
  };
  const Escape escapes[] = {
      {"work_between_calls", "kernel(s) or copies", "ran on the device between calls, outside every call's window",
       "work launched after a call's synchronisation or between calls (a hook on the worker) is never timed", "stream_injection", false},
      {"impostor_kernels", "kernel(s) named as kbv's own timing kernels", "ran beyond the markers and gate kbv launched",
       "a candidate that imitates the harness's markers can move the timed window's bounds", "timer_tampering", false},
      {"late_kernels", "kernel(s) launched by the call", "were still running after its end event", "work on another stream escapes the timed window",
       "stream_injection", false},
      {"early_kernels", "kernel(s) launched by the call", "started before its start event", "work on another stream ran before the timed window opened",
       "stream_injection", false},
      {"late_copies", "copies or memsets of the call", "were still running after its end event", "work on another stream escapes the timed window",
       "stream_injection", true},
      {"early_copies", "copies or memsets of the call", "started before its start event", "work on another stream ran before the timed window opened",
       "stream_injection", true}};
  for (const Escape& escape : escapes) {
    if (escape.timing_only && phase_ != "timing") continue;
    const auto names = text_list_field(observed, escape.key);
    if (names.empty()) continue;
    decide(Verdict::hack_suspected,
           std::to_string(names.size()) + " " + escape.what + " " + escape.when + " (first: " + names.front() + "): " + escape.meaning, escape.pattern);
    return false;
  }
  return true;
}

double Evaluation::ping_round_trip(std::optional<int> null_call_slot, bool cold) {
  auto phase = phases_.measure(phase_ + ".pings");
  const RunDelayReading waits_before = read_run_delays();
  RoundTrip trip;
  nlohmann::json ping = {{"type", "ping"}, {"id", ++call_id_}};
  if (null_call_slot) ping.update({{"null_call", true}, {"slot", *null_call_slot}, {"cold", cold}});
  worker_->send(ping);
  const std::optional<std::uint64_t> evaluator_sent_ns = wait_correction_ ? own_thread_run_delay_ns() : std::nullopt;
  auto pong = await("answering a ping", options_.call_timeout_s);
  if (!pong) return 0;
  if (!answers(*pong, "pong", call_id_)) {
    decide(Verdict::hack_suspected, "the worker answered a ping with '" + message_type(*pong) + "'", "result_forgery");
    return 0;
  }
  trip.end(*worker_);
  // A null call's trace: what the candidate ran on the device since the last call shows there.
  if (null_call_slot) {
    const nlohmann::json observed = object_field(*pong, "observed");
    worker_steps_.add("null_calls", observed);
    if (!check_escapes(observed)) return 0;
  }
  last_waits_ = waits_since(waits_before, evaluator_sent_ns, trip.arrival_s.has_value());
  return trip.seconds();
}

bool Evaluation::time_null_calls_before_load() {
  auto phase = phases_.measure("worker_start.null_calls_before_load");
  std::vector<double> round_trips, on_cpu, longest_thread_on_cpu;
  // Negative ids: the calls the report numbers ("call 1") stay the candidate's.
  for (int i = 0; i < kPreloadNullCalls; ++i) {
    const int id = -1 - i;
    const std::optional<std::uint64_t> cpu_before = process_cpu_time_ns(worker_->pid());
    const ProcessSchedstats threads_before = process_thread_schedstats(worker_->pid());
    RoundTrip trip;
    if (!worker_->send({{"type", "ping"}, {"id", id}, {"null_call", true}, {"cold", options_.device == "cuda"}})) break;
    (void)own_thread_run_delay_ns();  // as ping_round_trip() reads it inside its round trips: like for like
    const auto pong = await("answering a null call before the candidate was loaded", options_.load_timeout_s);
    if (!pong) return false;
    trip.end(*worker_);
    round_trips.push_back(trip.seconds());
    if (!answers(*pong, "pong", id)) {
      decide(Verdict::crash, "the worker answered a null call before the candidate was loaded with '" + message_type(*pong) + "'");
      return false;
    }
    const std::optional<std::uint64_t> cpu_after = process_cpu_time_ns(worker_->pid());
    if (cpu_before && cpu_after && *cpu_after >= *cpu_before) on_cpu.push_back(static_cast<double>(*cpu_after - *cpu_before) * 1e-9);
    if (const ProcessSchedstats threads_after = process_thread_schedstats(worker_->pid()); !threads_after.empty())
      longest_thread_on_cpu.push_back(longest_thread_on_cpu_s(threads_before, threads_after));
  }
  if (round_trips.empty()) return true;  // the worker is gone: the load says so
  preload_null_calls_ = PreloadNullCalls::from(round_trips, on_cpu, longest_thread_on_cpu,
                                               options_.device == "cuda" ? kCudaPreloadBound : kHostPreloadBound);
  result_.environment["null_calls_before_load"] = {
      {"count", round_trips.size()},
      {"shortest_round_trip_s", *preload_null_calls_.shortest_round_trip_s},
      {"least_on_cpu_s", preload_null_calls_.least_on_cpu_s ? nlohmann::json(*preload_null_calls_.least_on_cpu_s) : nlohmann::json(nullptr)},
      {"least_longest_thread_on_cpu_s", preload_null_calls_.least_longest_thread_on_cpu_s
                                            ? nlohmann::json(*preload_null_calls_.least_longest_thread_on_cpu_s)
                                            : nlohmann::json(nullptr)},
      {"median_on_cpu_s", on_cpu.empty() ? nlohmann::json(nullptr) : nlohmann::json(summarize(on_cpu).median_s)},
      {"bounds_later_null_calls", fmt::format("at {:g}x + {:g} us", preload_null_calls_.bound.factor, preload_null_calls_.bound.slack_seconds * 1e6)}};
  return true;
}

Evaluation::RunDelayReading Evaluation::read_run_delays(bool own_first) const {
  if (!wait_correction_ || !worker_) return {};
  // The evaluator's own reading next to its clock: before the worker's going in, after it coming out.
  RunDelayReading reading;
  if (own_first) reading.evaluator_ns = own_thread_run_delay_ns();
  reading.worker = process_thread_schedstats(worker_->pid());
  reading.worker_cpu_ns = process_cpu_time_ns(worker_->pid());
  if (!own_first) reading.evaluator_ns = own_thread_run_delay_ns();
  return reading;
}

std::optional<ExchangeWaits> Evaluation::waits_since(const RunDelayReading& before, std::optional<std::uint64_t> evaluator_sent_ns,
                                                     bool ended_at_arrival) const {
  if (!before.evaluator_ns) return std::nullopt;
  const RunDelayReading after = read_run_delays(true);
  // The evaluator's wait up to the end of its send does not count: the worker, woken by the
  // message, often preempts the evaluator on its CPU and runs the call while the evaluator sits
  // runnable (it would only have gone to sleep in poll). Only its wait after the send — woken
  // by the answer, waiting for a CPU — lengthens the round trip.
  std::optional<ExchangeWaits> waits =
      waits_between(evaluator_sent_ns ? evaluator_sent_ns : before.evaluator_ns, after.evaluator_ns, before.worker, after.worker);
  // A round trip that ended at the answer's arrival was not lengthened by this process's own
  // waits: none of them is credited.
  if (waits && ended_at_arrival) waits->evaluator_s = 0;
  if (waits && before.worker_cpu_ns && after.worker_cpu_ns && *after.worker_cpu_ns >= *before.worker_cpu_ns)
    waits->worker_on_cpu_s = static_cast<double>(*after.worker_cpu_ns - *before.worker_cpu_ns) * 1e-9;
  return waits;
}

}  // namespace kbv::eval::detail
