// eval/evaluator.cpp — the evaluation sequence (see evaluator.hpp) and its verdict rules.
#include "eval/evaluator.hpp"

#include <kbv/plugin.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include "eval/data_plane.hpp"
#include "eval/elf_check.hpp"
#include "eval/kernel_set_check.hpp"
#include "eval/data_plane_factory.hpp"
#include "eval/phase_clock.hpp"
#include "eval/sample_stats.hpp"
#include "timing/stop_rule.hpp"
#include "eval/worker_process.hpp"
#include "inputs/family_names.hpp"
#include "verify/checksum.hpp"

#ifdef KBV_HAVE_SANDBOX
#include "sandbox/sandbox.hpp"
#endif
#include <csignal>


namespace kbv::eval {

namespace {

using Clock = std::chrono::steady_clock;

// Host stop rule: at least this many samples of each contender, then stop once the
// candidate has accumulated kHostMinTimedSeconds or the phase has used its wall budget.
// (NVBench's GPU rule, 0.5 s of samples, is for the CUDA device; host problems are tiny.)
constexpr int kMinTimingSamples = 10;
constexpr int kMaxTimingSamples = 2000;
constexpr double kHostMinTimedSeconds = 0.05;
// CUDA stop rule: NVBench's stdrel with its defaults (core/timing/stop_rule.hpp, FIELD-NOTES
// §2): at least 10 samples and 0.5 s of GPU time, then the candidate's relative standard
// deviation under 0.5 % or a plateau of that noise; else the 15 s wall cap. The measurement is
// the interleaved set (candidate, TF32 and FP32 baselines on the same inputs), so its GPU time is
// theirs together, as NVBench counts one measurement's GPU time: a 3 ms kernel stops after ~54
// samples of each instead of 160, and the noise criterion still has to hold. (Until 2026-11-29
// the noise here was IQR / median with a 64-sample max−min plateau: stricter than NVBench and
// FIELD-NOTES, and it kept sum_dim1 sampling 160–370 times. IQR / median is still what the
// reports give.)
constexpr double kCudaWallCapSeconds = 15.0;
// Warm-up by time before the first kept CUDA sample: triton.testing.do_bench's default, 25 ms
// of the candidate's own time (at least one sample), checked like any sample and then dropped.
constexpr double kCudaWarmupSeconds = 0.025;
// …or this many warm-up samples, whichever comes first: a 2 µs kernel would need 12 500
// samples (each with its own inputs, recheck and round trips) to reach 25 ms, and ran into
// kMaxTimingSamples with none kept (H200, 2026-11-29, relu at --shapes small behind the launch
// gate). 32 calls cover what warm-up is for: clocks up (the device is busy generating inputs
// between samples), kernels loaded, the launch gate's first timeouts.
constexpr int kCudaMaxWarmupSamples = 32;
// The null call (below) is sent after every kNullCallEvery-th timed call, not after each: it
// is the worker's whole per-call routine (≈ 1 ms with the CUPTI window, H200), and it is steady.
// Each call's trusted time subtracts the latest null call.
constexpr int kNullCallEvery = 8;
// The worker's clock is the candidate's clock (it can patch it). Each call is also timed from
// outside, as its round trip minus the round trip of a null call sent right after it (the
// worker's whole per-call routine — flush, events, trace window, synchronisation — around
// nothing; both find the worker awake: a ping before the call absorbs the wake-up from the
// evaluator's long pause to prepare inputs); a worker whose median
// reported time is below the device's agreement factor × that trusted median, by more than the device's
// slack, is reporting a clock that runs slow. Host slack: the call path costs 10–20 µs more
// than a ping on a loaded 2-core machine (measured with honest host candidates), so a slow
// clock on calls shorter than ~50 µs goes unseen (docs/threat-model.md). CUDA slack: the
// cold-L2 flush (~30 µs for 120 MiB), launch and synchronisation inside the round trip.
constexpr double kCudaTimerAgreement = 0.5;
// The host is a shared CPU: with tests running two evaluations at once on two cores, honest
// host calls were seen at half the trusted figure; a quarter still catches a 10x slow clock.
constexpr double kHostTimerAgreement = 0.25;
constexpr double kHostTimerSlackSeconds = 25e-6;
constexpr double kCudaTimerSlackSeconds = 150e-6;
// Memory beyond inputs and outputs that a candidate may hold above the TF32 baseline before it
// is flagged. The worker's CUDA context allocates lazily at its first launches (module code,
// local-memory pools): about 36 MB for an honest wmma GEMM with no allocation of its own on
// the H200 (docs/figures/h200-round-c.jsonl), so 64 MiB of slack.
constexpr double kMemorySlackBytes = 64.0 * 1024 * 1024;
// A candidate that keeps more than this share of the device memory that was free when its
// worker was set up is not evaluated further: it would starve the trusted side and the next
// candidate (verdict `resource`).
constexpr double kMaxCandidateMemoryShare = 0.5;
// NVBench's throttle threshold: samples taken below 75 % of the default SM clock are dropped.
constexpr double kThrottleThreshold = 0.75;
// A candidate faster than this multiple of the best baseline is flagged for review
// (issue #4: "a speedup over 10x the TF32 baseline flagged").
constexpr double kSuspiciousSpeedup = 10.0;

std::filesystem::path make_scratch_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "kbv-scratch-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch directory under " + std::filesystem::temp_directory_path().string());
  return pattern;
}

// Removes the scratch directory however the evaluation ends.
struct ScratchDir {
  std::filesystem::path path = make_scratch_dir();
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// "socket (41), ptrace (101)": the system calls the sandbox refused.
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

class Evaluation {
 public:
  Evaluation(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key)
      : options_(options), catalog_(catalog), key_(key) {}

  EvalResult run() {
    const auto start = Clock::now();
    result_.candidate_path = options_.candidate.string();
    result_.candidate_device = options_.device;
    result_.epoch = options_.epoch;
    if (options_.problem) (void)catalog_.get(*options_.problem);  // unknown name: exit 2 before any work
    if (auto problem = check_shared_object(options_.candidate)) {
      result_.verdict = Verdict::load_error;
      result_.detail = *problem;
      result_.input_error = true;
    } else {
      result_.candidate_sha256 = sha256_file_hex(options_.candidate);
      if (needs_compute_library(needed_libraries(options_.candidate))) add_flag("calls_library");
      evaluate_candidate();
    }
    result_.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result_.environment["wall_s_by_phase"] = phases_.to_json();
    return std::move(result_);
  }

 private:
  // Ends the evaluation with `verdict` unless one was already decided (first cause wins).
  bool decide(Verdict verdict, std::string detail, std::optional<std::string> pattern = std::nullopt) {
    if (decided_) return false;
    decided_ = true;
    result_.verdict = verdict;
    result_.detail = std::move(detail);
    result_.hack_pattern = std::move(pattern);
    return true;
  }

  // The worker stopped answering: classify why, in the taxonomy's words.
  void worker_lost(const std::string& during, bool timed_out) {
    if (timed_out) {
      worker_->kill_and_reap();
      decide(Verdict::timeout, "no answer within " + std::to_string(options_.call_timeout_s) + " s " + during + "; the worker's process group was killed");
      return;
    }
    const WorkerExit exit = worker_->reap(std::chrono::milliseconds(2000));
    // The seccomp filter kills with SIGSYS what it cannot report (a forbidden call made with
    // every signal blocked): that is a sandbox violation, not a crash.
    if (exit.signaled && exit.signal == SIGSYS) {
      decide(Verdict::sandbox_violation, "the worker was killed by the sandbox (SIGSYS) " + during + violation_text(worker_->drain_violations()));
      return;
    }
    if (auto violations = worker_->drain_violations(); !violations.empty()) {
      decide(Verdict::sandbox_violation, "the candidate attempted forbidden system calls (" + violation_text(violations) + ") and the worker " + exit.describe());
      return;
    }
    decide(Verdict::crash, "the worker " + exit.describe() + " " + during);
  }

  std::optional<nlohmann::json> await(const std::string& during, double timeout_s) {
    auto message = worker_->receive(std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)));
    if (!message) worker_lost(during, !worker_->gone());
    return message;
  }

  void evaluate_candidate() {
    ScratchDir scratch;
    WorkerLaunch launch;
    launch.worker_binary = options_.worker_binary;
    launch.candidate = std::filesystem::absolute(options_.candidate);
    launch.device = options_.device;
    launch.gpu = options_.gpu;
    launch.scratch_dir = scratch.path;
    launch.forbidden = {options_.key_file, catalog_.directory()};
    launch.forbidden.insert(launch.forbidden.end(), options_.forbidden.begin(), options_.forbidden.end());
    launch.sandbox = options_.sandbox;

    std::unique_ptr<DataPlane> plane;
    std::optional<ResolvedProblem> resolved;
    std::optional<nlohmann::json> ready;
    {
      auto phase = phases_.measure("worker_start");
      worker_ = std::make_unique<WorkerProcess>(launch);
      ready = await("while loading the candidate", options_.load_timeout_s);
    }
    if (!ready) return finish_worker();
    const std::string type = ready->value("type", "");
    if (type == "load_failed") {
      const std::string kind = ready->value("kind", "load_error");
      if (kind == "device_unavailable") {
        decide(Verdict::bad_input, "the " + options_.device + " device is unavailable: " + ready->value("error", std::string()));
        result_.input_error = true;
        return finish_worker();
      }
      decide(kind == "abi_error" ? Verdict::abi_error : kind == "sandbox_error" ? Verdict::resource : Verdict::load_error,
             ready->value("error", "the candidate could not be loaded"));
      return finish_worker();
    }
    if (type != "ready") {
      decide(Verdict::crash, "the worker sent '" + type + "' instead of ready");
      return finish_worker();
    }
    result_.abi_version = ready->value("abi_version", 0u);
    result_.declared_problem = ready->value("problem", "");
    result_.candidate_name = ready->value("candidate_name", "");
    const std::string declared_device = ready->value("device", "");
    if (declared_device != options_.device) {
      decide(Verdict::load_error, "the candidate is built for the " + declared_device + " device but was evaluated on " + options_.device +
                                      " (fix: pass --device " + declared_device + ")");
      return finish_worker();
    }
    const std::string problem_name = options_.problem.value_or(result_.declared_problem);
    if (problem_name != result_.declared_problem) {
      decide(Verdict::load_error, "the candidate declares problem '" + result_.declared_problem + "' but was evaluated as '" + problem_name +
                                      "' (fix: evaluate it with --problem " + result_.declared_problem + " or rebuild it for " + problem_name + ")");
      return finish_worker();
    }
    if (!catalog_.contains(problem_name)) {
      decide(Verdict::load_error, "the candidate declares unknown problem '" + problem_name + "' (fix: build it for one of kbv's problems: kbv problems)");
      return finish_worker();
    }
    const std::string shape_set = options_.shape_set.value_or(options_.device == "host" ? "small" : "default");
    resolved = resolve_problem(catalog_.get(problem_name), shape_set);
    result_.problem = problem_name;
    result_.shape_set = shape_set;
    result_.level = resolved->problem.level;
    result_.flops = resolved->flops;
    result_.compulsory_bytes = resolved->compulsory_bytes;

    std::optional<PhaseClock::Scope> setup_phase;
    setup_phase.emplace(phases_, "data_plane_and_worker_setup");
    plane = make_data_plane(*resolved, options_.device, options_.gpu);
    nlohmann::json setup = plane->allocate(1 + kTimingSlots);
    nlohmann::json attributes = nlohmann::json::object();
    for (const Node& node : resolved->problem.graph)
      for (const auto& [name, value] : node.attrs) attributes[node.name + "." + name] = value;
    setup["type"] = "setup";
    setup["problem"] = problem_name;
    setup["attributes"] = attributes;
    worker_->send(setup, plane->arena_fd());
    auto setup_reply = await("during setup", options_.load_timeout_s);
    if (!setup_reply) return finish_worker();
    if (setup_reply->value("type", "") != "setup_done") {
      decide(Verdict::load_error, "worker setup failed: " + setup_reply->value("error", std::string("unknown")));
      return finish_worker();
    }
    setup_phase.reset();
    baseline_threads_ = worker_->thread_count();
    device_used_at_start_ = plane->device_memory().used_bytes;
    result_.environment = plane->environment();
    result_.physical_floor_s = plane->physical_floor_s(*resolved);

    const inputs::EpochPlan plan = inputs::plan_epoch(key_, options_.epoch, problem_name, kTrialsPerFamily);
    phase_ = "correctness";
    validate_and_check(*plane, plan);
    phase_ = "timing";
    if (!decided_ && !options_.skip_timing) time_contenders(*plane, plan);
    report_memory(*plane);
    if (!decided_) decide(Verdict::pass, "correct on every gating family; timed against the baseline");
    finish_worker();
  }

  // One checked call of the candidate on `slot`: digests around it, thread count, sandbox.
  // Returns false when the evaluation is decided (the candidate misbehaved or died).
  bool checked_call(DataPlane& plane, int slot, double* reported_s = nullptr, double* round_trip_s = nullptr, bool cold = false) {
    {
      auto phase = phases_.measure(phase_ + ".poison_outputs");
      plane.poison_outputs(slot);
    }
    std::string before;
    {
      auto phase = phases_.measure(phase_ + ".input_digests");
      before = plane.input_digest(slot);
    }
    const auto sent_at = Clock::now();
    worker_->send({{"type", "call"}, {"id", ++call_id_}, {"slot", slot}, {"cold", cold}});
    auto done = await("during call " + std::to_string(call_id_), options_.call_timeout_s);
    const double round_trip = std::chrono::duration<double>(Clock::now() - sent_at).count();
    phases_.add(phase_ + ".call_round_trips", round_trip);
    if (!done) return false;
    std::optional<PhaseClock::Scope> checks_phase;  // closed around the digest, which has its own phase
    checks_phase.emplace(phases_, phase_ + ".call_checks");
    if (done->value("type", "") != "done" || done->value("id", -1) != call_id_) {
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
    if (!check_observations(done->value("observed", nlohmann::json::object()))) return false;
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
    const int status = done->value("status", -1);
    if (status != KBV_STATUS_OK) {
      decide(Verdict::fail_correctness, "run() returned status " + std::to_string(status) + ": " + done->value("error", std::string()));
      return false;
    }
    const double reported = static_cast<double>(done->value("elapsed_ns", int64_t{0})) * 1e-9;
    if (reported_s) *reported_s = reported;
    if (round_trip_s) *round_trip_s = round_trip;
    // The worker's own clock cannot exceed what the evaluator saw from outside.
    if (reported > round_trip || reported < 0) {
      decide(Verdict::hack_suspected, "the worker reported " + std::to_string(reported) + " s for a call that took " +
                                          std::to_string(round_trip) + " s end to end", "timer_tampering");
      return false;
    }
    return true;
  }

  void validate_and_check(DataPlane& plane, const inputs::EpochPlan& plan) {
    constexpr int kSlot = 0;  // every correctness trial reuses the same buffers, fresh contents
    std::string first_output_digest;
    for (const inputs::FamilyDraw& draw : plan.families) {
      FamilyResult family;
      family.family = std::string(inputs::family_name(draw.family));
      family.hidden = draw.hidden;
      for (size_t trial = 0; trial < draw.trial_seeds.size(); ++trial) {
        {
          auto phase = phases_.measure("correctness.prepare_inputs");
          plane.prepare(kSlot, draw, draw.trial_seeds[trial]);
        }
        if (trial == 0) {
          // Problem validation on this family: the baseline must pass; trivial outputs must fail.
          auto phase = phases_.measure("correctness.reference_and_baseline_check");
          family.baseline_passed = plane.check_baseline(kSlot).passed;
          const auto trivial = plane.trivial_outputs_that_pass(kSlot);
          if (!trivial.empty()) {
            family.degenerate = true;
            family.gating = false;
            for (const auto& name : trivial) family.degenerate_reason += (family.degenerate_reason.empty() ? "" : ", ") + name;
            family.degenerate_reason += " passes";
          }
          if (!family.baseline_passed) {
            family.gating = false;
            family.detail = "the fp32 baseline fails this family: the problem's tolerance is too strict for it";
          }
        }
        if (!checked_call(plane, kSlot)) {
          family.passed = false;
          result_.families.push_back(family);
          if (result_.verdict == Verdict::fail_correctness) result_.failed_family = family.family;
          return;
        }
        std::optional<PhaseClock::Scope> compare_phase;
        compare_phase.emplace(phases_, "correctness.compare");
        const CompareResult comparison = plane.check_outputs(kSlot);
        compare_phase.reset();
        ++family.trials;
        family.max_abs_error = std::max(family.max_abs_error, comparison.max_abs_error);
        family.rel_l2_error = std::max(family.rel_l2_error, comparison.rel_l2_error);
        if (!comparison.passed && family.passed) {
          family.passed = false;
          family.detail = "trial " + std::to_string(trial) + ": " + comparison.summary();
        }
        // Run-to-run determinism: the public family's first trial, called a second time.
        if (!draw.hidden && trial == 0) {
          const std::string digest = plane.output_digest(kSlot);
          if (!checked_call(plane, kSlot)) {
            result_.families.push_back(family);
            return;
          }
          const CompareResult again = plane.check_outputs(kSlot);
          if (plane.output_digest(kSlot) != digest) {
            if (!again.passed && comparison.passed) {
              family.passed = false;
              family.detail = "a repeated call on the same inputs failed: " + again.summary();
            } else {
              add_flag("nondeterministic");
            }
          }
        }
      }
      result_.families.push_back(family);
    }
    // The verdict: every gating family must pass.
    bool any_gating = false;
    bool public_passed = true;
    for (const FamilyResult& family : result_.families) {
      if (!family.hidden) public_passed = family.passed;
      if (!family.gating) continue;
      any_gating = true;
      if (!family.passed) {
        result_.failed_family = family.family;
        decide(Verdict::fail_correctness, "wrong on family " + family.family + ": " + family.detail);
        if (family.hidden && public_passed) add_flag("passes_public_inputs_only");
        return;
      }
    }
    if (!any_gating) decide(Verdict::bad_input, "no family gates this problem in this epoch (every one is degenerate or fails the baseline): the problem spec needs fixing");
  }

  void time_contenders(DataPlane& plane, const inputs::EpochPlan& plan) {
    std::vector<const inputs::FamilyDraw*> gating;
    for (size_t i = 0; i < plan.families.size(); ++i)
      if (result_.families.at(i).gating) gating.push_back(&plan.families[i]);
    const bool cuda = options_.device == "cuda";
    const int timing_slots = std::max(1, plane.slot_count() - 1);
    std::vector<double> candidate_samples, trusted_samples;
    std::map<std::string, std::vector<double>> baseline_samples;
    std::vector<double> ping_samples, kernel_span_samples, clock_ratios;
    double candidate_total = 0, warmup_total = 0;
    const timing::StopRule cuda_rule;  // NVBench stdrel defaults
    timing::NoiseCriterion cuda_criterion(cuda_rule);
    int throttled = 0, warmup_samples = 0;
    double latest_null_call = 0;
    const auto phase_start = Clock::now();
    for (int sample = 0; sample < kMaxTimingSamples; ++sample) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - phase_start).count();
      const int kept = static_cast<int>(candidate_samples.size());
      if (kept >= kMinTimingSamples) {
        if (!cuda && (candidate_total >= kHostMinTimedSeconds || elapsed >= options_.timing_budget_s)) break;
        if (cuda && cuda_criterion.finished()) {
          if (cuda_criterion.noise() >= cuda_rule.max_noise) result_.environment["stopped_on_noise_plateau"] = cuda_criterion.noise();
          break;
        }
      }
      if (cuda && elapsed >= kCudaWallCapSeconds) break;
      // Fresh contents in rotating buffers: nothing can be cached by pointer or by content.
      const int slot = 1 + sample % timing_slots;
      const inputs::FamilyDraw& draw = *gating[static_cast<size_t>(sample) % gating.size()];
      const uint64_t seed = inputs::keyed_u64(key_, "kbv/v1|timing|" + std::to_string(options_.epoch) + "|" + result_.problem + "|" +
                                                        std::to_string(sample));
      {
        auto phase = phases_.measure("timing.prepare_inputs");
        plane.prepare_timing(slot, draw, seed);
      }
      // A keyed coin decides who goes first, so a candidate cannot learn the rhythm.
      const bool baselines_first = (seed >> 63) != 0;
      std::vector<std::pair<std::string, double>> baselines;
      auto time_baselines = [&] {
        auto phase = phases_.measure("timing.baselines");
        baselines = plane.time_baselines(slot);
      };
      if (baselines_first) time_baselines();
      double reported = 0, round_trip = 0;
      ping_round_trip();  // wakes the worker
      if (decided_) return;
      if (!checked_call(plane, slot, &reported, &round_trip, cuda)) return;
      if (sample % kNullCallEvery == 0) {
        latest_null_call = ping_round_trip(slot, cuda);  // a null call: everything but the candidate
        if (decided_) return;
        ping_samples.push_back(latest_null_call);
      }
      const double ping = latest_null_call;
      double clock = 1;
      {
        auto phase = phases_.measure("timing.sm_clock");
        clock = plane.clock_ratio();
      }
      if (!baselines_first) time_baselines();
      std::optional<PhaseClock::Scope> recheck_phase;
      recheck_phase.emplace(phases_, "timing.recheck");
      const CompareResult recheck = plane.recheck_timed(slot);
      recheck_phase.reset();
      if (!recheck.passed) {
        result_.failed_family = std::string(inputs::family_name(draw.family));
        decide(Verdict::fail_correctness, "a timed call's output was wrong (sample " + std::to_string(sample) + ", family " +
                                              *result_.failed_family + "): " + recheck.summary());
        return;
      }
      if (reported < result_.physical_floor_s) {
        // If the evaluator itself saw the call take longer than the floor, the work happened,
        // just outside the timed window (CUDA: another stream; host: a patched clock).
        const bool work_seen = round_trip - ping >= result_.physical_floor_s;
        decide(Verdict::hack_suspected, "a timed call took " + std::to_string(reported) + " s by the worker's clock, below the physical floor of " +
                                            std::to_string(result_.physical_floor_s) + " s" +
                                            (work_seen ? "; the evaluator saw " + std::to_string(round_trip - ping) + " s: the work ran outside the timed window" : ""),
               work_seen ? (cuda ? "stream_injection" : "timer_tampering") : "impossible_time");
        return;
      }
      if (cuda && warmup_total < kCudaWarmupSeconds && warmup_samples < kCudaMaxWarmupSamples) {
        warmup_total += reported;
        ++warmup_samples;
        continue;
      }
      if (clock < kThrottleThreshold) {
        ++throttled;
        continue;
      }
      candidate_samples.push_back(reported);
      trusted_samples.push_back(std::max(0.0, round_trip - ping));
      candidate_total += reported;
      clock_ratios.push_back(clock);
      if (last_kernel_span_s_) kernel_span_samples.push_back(*last_kernel_span_s_);
      double measured = reported;
      for (const auto& [name, seconds] : baselines) {
        baseline_samples[name].push_back(seconds);
        measured += seconds;
      }
      cuda_criterion.add(reported, measured);
    }
    if (cuda) result_.environment["candidate_relative_stdev"] = cuda_criterion.noise();
    if (candidate_samples.empty()) {
      decide(Verdict::resource, throttled > 0 ? "every timing sample was taken while the device was throttled (" + std::to_string(throttled) + " dropped)"
                                              : "no timing sample was kept within the sampling limits (" + std::to_string(warmup_samples) +
                                                    " warm-up samples, at most " + std::to_string(kMaxTimingSamples) + " samples, " +
                                                    std::to_string(static_cast<int>(kCudaWallCapSeconds)) + " s)");
      return;
    }
    result_.candidate_time = summarize(candidate_samples);
    if (!kernel_span_samples.empty()) result_.candidate_kernel_span = summarize(kernel_span_samples);
    const TimingStats trusted = summarize(trusted_samples);
    result_.environment["trusted_median_s"] = trusted.median_s;
    result_.environment["ping_round_trip_s"] = summarize(ping_samples).median_s;
    const double slack = cuda ? kCudaTimerSlackSeconds : kHostTimerSlackSeconds;
    if (result_.candidate_time->median_s < (cuda ? kCudaTimerAgreement : kHostTimerAgreement) * trusted.median_s - slack) {
      // On the host only the clock can be wrong; on CUDA the worker also waits for the whole
      // device after the call, so work left on another stream shows up here too.
      decide(Verdict::hack_suspected, "the worker's clock says " + std::to_string(result_.candidate_time->median_s) +
                                          " s per call (median) but the evaluator saw " + std::to_string(trusted.median_s) +
                                          " s beyond the bare round trip: " +
                                          (cuda ? "work ran outside the timed window (another stream, or a patched clock)" : "the candidate's clock runs slow"),
             cuda ? "stream_injection" : "timer_tampering");
      return;
    }
    if (baseline_samples.count("fp32")) result_.baseline_fp32_time = summarize(baseline_samples["fp32"]);
    if (baseline_samples.count("tf32")) result_.baseline_tf32_time = summarize(baseline_samples["tf32"]);
    result_.environment["throttled_samples_dropped"] = throttled;
    // How the baselines' samples were enqueued, now that they have been taken (launch_gate.hpp).
    if (const nlohmann::json after = plane.environment(); after.contains("baseline_launch_gate"))
      result_.environment["baseline_launch_gate"] = after["baseline_launch_gate"];
    result_.environment["warmup_samples_dropped"] = warmup_samples;
    // The SM clock the kept samples ran at (median), beside the default it is judged against.
    if (cuda && result_.environment.contains("sm_default_clock_mhz"))
      result_.environment["sm_clock_mhz_median"] = summarize(clock_ratios).median_s * result_.environment["sm_default_clock_mhz"].get<double>();
    // Only against the TF32 library baseline (CUDA): the host's fp32 baseline is a plain loop.
    const auto& tf32 = result_.baseline_tf32_time;
    if (tf32 && result_.candidate_time->median_s > 0 && tf32->median_s / result_.candidate_time->median_s > kSuspiciousSpeedup)
      add_flag("speedup_over_10x_review");
  }

  // The candidate's device memory next to the TF32 baseline's: from the worker's CUPTI trace
  // when it ran (per-call peaks), else from the evaluator's own view (memory held between calls).
  void report_memory(const DataPlane& plane) {
    const bool traced = kernel_sets_.traced_calls() > 0;
    if (!traced && device_used_at_start_ < 0) return;  // the host device has no such figure
    const double candidate_bytes = traced ? peak_candidate_bytes_ : std::max(0.0, device_held_by_candidate_);
    const double baseline_bytes = plane.baseline_extra_bytes("tf32");
    result_.memory = nlohmann::json{
        {"candidate_peak_bytes", candidate_bytes},
        {"baseline_peak_bytes", baseline_bytes},
        {"baseline_fp32_peak_bytes", plane.baseline_extra_bytes("fp32")},
        {"ratio", baseline_bytes > 0 ? nlohmann::json(candidate_bytes / baseline_bytes) : nlohmann::json(nullptr)},
        {"source", std::string(traced ? "CUPTI MEMORY2 in the worker" : "device memory held between calls, seen by the evaluator (cudaMemGetInfo)") +
                       " (candidate); baseline workspace and intermediates (TF32, FP32)"}};
    if (candidate_bytes > baseline_bytes + kMemorySlackBytes) add_flag("more_memory_than_baseline");
  }

  // What the worker's CUPTI trace saw of the call. The trace lives in the candidate's process,
  // so it can only convict, never acquit: every figure that matters is also bounded from
  // outside (timing cross-check, physical floor, recheck of outputs).
  bool check_observations(const nlohmann::json& observed) {
    if (!observed.is_object()) return true;
    if (observed.value("sticky_error", false)) {
      decide(Verdict::crash, "the candidate left a sticky CUDA error in the worker");
      return false;
    }
    if (observed.contains("launch_gate")) result_.environment["launch_gate"] = observed["launch_gate"];
    if (observed.value("trace", "") != "cupti") {
      if (observed.contains("trace")) result_.environment["trace"] = observed["trace"];
      return true;
    }
    result_.environment["trace"] = "cupti: every call's kernels, streams and device memory";
    const auto late = observed.value("late_kernels", std::vector<std::string>{});
    if (!late.empty()) {
      decide(Verdict::hack_suspected, std::to_string(late.size()) + " kernel(s) launched by the call were still running after its end event (first: " +
                                          late.front() + "): work on another stream escapes the timed window",
             "stream_injection");
      return false;
    }
    const auto early = observed.value("early_kernels", std::vector<std::string>{});
    if (!early.empty()) {
      decide(Verdict::hack_suspected, std::to_string(early.size()) + " kernel(s) launched by the call started before its start event (first: " +
                                          early.front() + "): work on another stream ran before the timed window opened",
             "stream_injection");
      return false;
    }
    if (const auto difference = kernel_sets_.observe(observed.value("kernel_names", std::vector<std::string>{}))) {
      decide(Verdict::hack_suspected, "call " + std::to_string(call_id_) + " launched a different set of kernels than the calls before it (" +
                                          difference->substr(0, 300) + "): behaviour depends on the call count or phase",
             "phase_detection");
      return false;
    }
    if (observed.value("library_kernels", false)) add_flag("calls_library");
    peak_candidate_bytes_ = std::max(peak_candidate_bytes_, observed.value("peak_device_bytes", 0.0));
    last_kernel_span_s_.reset();
    if (observed.contains("kernel_span_ns")) last_kernel_span_s_ = observed.value("kernel_span_ns", 0.0) * 1e-9;
    return true;
  }

  // Round trip of a message the worker answers without calling the candidate; with a slot, the
  // worker first runs its whole per-call routine around nothing (a null call) on that slot.
  double ping_round_trip(std::optional<int> null_call_slot = std::nullopt, bool cold = false) {
    auto phase = phases_.measure(phase_ + ".pings");
    const auto sent_at = Clock::now();
    nlohmann::json ping = {{"type", "ping"}, {"id", ++call_id_}};
    if (null_call_slot) ping.update({{"null_call", true}, {"slot", *null_call_slot}, {"cold", cold}});
    worker_->send(ping);
    auto pong = await("answering a ping", options_.call_timeout_s);
    if (!pong) return 0;
    if (pong->value("type", "") != "pong" || pong->value("id", -1) != call_id_) {
      decide(Verdict::hack_suspected, "the worker answered a ping with '" + pong->value("type", std::string()) + "'", "result_forgery");
      return 0;
    }
    return std::chrono::duration<double>(Clock::now() - sent_at).count();
  }

  void add_flag(const std::string& flag) {
    if (std::find(result_.flags.begin(), result_.flags.end(), flag) == result_.flags.end()) result_.flags.push_back(flag);
  }

  void finish_worker() {
    if (!worker_) return;
    if (!worker_->gone()) {
      worker_->send({{"type", "exit"}});
      worker_->reap(std::chrono::milliseconds(2000));
    }
    result_.worker_stderr_tail = worker_->stderr_tail();
    worker_.reset();
  }

  const EvalOptions& options_;
  const ProblemCatalog& catalog_;
  const inputs::SecretKey& key_;
  EvalResult result_;
  bool decided_ = false;
  std::unique_ptr<WorkerProcess> worker_;
  int baseline_threads_ = -1;
  double device_used_at_start_ = -1;
  double device_held_by_candidate_ = 0;
  std::optional<double> last_kernel_span_s_;  // the last traced call: first kernel start to last kernel end
  double peak_candidate_bytes_ = 0;
  KernelSetCheck kernel_sets_;  // phase detection over the traced calls' kernel names
  int call_id_ = 0;
  PhaseClock phases_;
  std::string phase_ = "setup";  // prefix of the per-call phases: correctness or timing
};

}  // namespace

EvalResult evaluate(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key) {
  return Evaluation(options, catalog, key).run();
}

}  // namespace kbv::eval
