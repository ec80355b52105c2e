// eval/evaluation_timing.cpp — candidate and baselines timed interleaved on fresh inputs
// (warm-up, throttle discards, NVBench's stop rule, rechecks of timed outputs, the evaluator's
// own clock and the physical floor against the worker's), and the memory report.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/evaluation.hpp"
#include "eval/sample_stats.hpp"
#include "inputs/family_names.hpp"
#include "timing/stop_rule.hpp"

namespace kbv::eval::detail {
namespace {

// Host stop rule: at least this many samples of each contender, then stop once the
// candidate has accumulated kHostMinTimedSeconds or the phase has used its wall budget.
// (NVBench's GPU rule, 0.5 s of samples, is for the CUDA device; host problems are tiny.)
constexpr int kMinTimingSamples = 10;
constexpr int kMaxTimingSamples = 2000;
constexpr double kHostMinTimedSeconds = 0.05;
// CUDA stop rule: NVBench's stdrel with its defaults (core/timing/stop_rule.hpp, FIELD-NOTES
// §2): at least 10 samples and 0.5 s of GPU time, then the candidate's relative standard
// deviation within input families (each family's samples around their own mean: a kernel's time
// may depend on its inputs' values) under 0.5 % or a plateau of that noise; else the 15 s wall
// cap. The measurement is
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
// NVBench's throttle threshold: samples taken below 75 % of the default SM clock are dropped.
constexpr double kThrottleThreshold = 0.75;
// A candidate faster than this multiple of the best baseline is flagged for review
// (issue #4: "a speedup over 10x the TF32 baseline flagged").
constexpr double kSuspiciousSpeedup = 10.0;
// A candidate whose speedup over the TF32 baseline on the public family is more than this
// multiple of its median speedup on the hidden ones is flagged `faster_on_public_family` for
// review (CUDA): a fast path for the distribution everyone can see. Honest kernels' per-family
// speedups spread by ~5 % on the H200 (round x: the TF32 GEMM baseline 0.337–0.352 ms across
// families against flat wmma and cuBLAS candidates; round y: every honest example's ratio in
// 0.969–1.001), so 1.25 is 5× that spread. Only where the public family gates, and so is timed:
// for relu, uniform01 inputs make the identity a correct output, and the family is degenerate.
constexpr double kPublicSpeedupFactor = 1.25;

// Memory beyond inputs and outputs that a candidate may hold above the TF32 baseline before it
// is flagged. The worker's CUDA context allocates lazily at its first launches (module code,
// local-memory pools): about 36 MB for an honest wmma GEMM with no allocation of its own on
// the H200 (docs/figures/h200-round-c.jsonl), so 64 MiB of slack.
constexpr double kMemorySlackBytes = 64.0 * 1024 * 1024;

}  // namespace

void Evaluation::time_contenders(DataPlane& plane, const inputs::EpochPlan& plan) {
  std::vector<const inputs::FamilyDraw*> gating;
  for (size_t i = 0; i < plan.families.size(); ++i)
    if (result_.families.at(i).gating) gating.push_back(&plan.families[i]);
  const bool cuda = options_.device == "cuda";
  const int timing_slots = std::max(1, plane.slot_count() - 1);
  std::vector<double> candidate_samples, trusted_samples;
  std::map<std::string, std::vector<double>> baseline_samples;
  std::vector<double> ping_samples, kernel_span_samples, clock_ratios;
  std::vector<bool> baselines_went_first;     // per kept sample, for timing.samples
  std::vector<std::string> sample_families;
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
    family_ = std::string(inputs::family_name(draw.family));
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
             work_seen ? slow_clock_pattern() : "impossible_time");
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
    baselines_went_first.push_back(baselines_first);
    sample_families.push_back(family_);
    if (last_kernel_span_s_) kernel_span_samples.push_back(*last_kernel_span_s_);
    double measured = reported;
    for (const auto& [name, seconds] : baselines) {
      baseline_samples[name].push_back(seconds);
      measured += seconds;
    }
    cuda_criterion.add(reported, measured, family_);  // noise within families (stop_rule.hpp)
  }
  if (cuda) result_.environment["candidate_relative_stdev_within_families"] = cuda_criterion.noise();
  if (candidate_samples.empty()) {
    decide(Verdict::resource, throttled > 0 ? "every timing sample was taken while the device was throttled (" + std::to_string(throttled) + " dropped)"
                                            : "no timing sample was kept within the sampling limits (" + std::to_string(warmup_samples) +
                                                  " warm-up samples, at most " + std::to_string(kMaxTimingSamples) + " samples, " +
                                                  std::to_string(static_cast<int>(kCudaWallCapSeconds)) + " s)");
    return;
  }
  result_.candidate_time = summarize(candidate_samples);
  if (options_.keep_samples) {
    result_.timing_samples = {{"candidate_s", candidate_samples}, {"sm_clock_ratio", clock_ratios},
                              {"baselines_first", baselines_went_first}, {"family", sample_families}};
    for (const auto& [name, seconds] : baseline_samples) result_.timing_samples["baseline_" + name + "_s"] = seconds;
    if (kernel_span_samples.size() == candidate_samples.size()) result_.timing_samples["candidate_kernel_span_s"] = kernel_span_samples;
  }
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
           slow_clock_pattern());
    return;
  }
  if (baseline_samples.count("fp32")) result_.baseline_fp32_time = summarize(baseline_samples["fp32"]);
  if (baseline_samples.count("tf32")) result_.baseline_tf32_time = summarize(baseline_samples["tf32"]);
  result_.environment["throttled_samples_dropped"] = throttled;
  // How the baselines' samples were enqueued, now that they have been taken (launch_gate.hpp).
  if (const nlohmann::json after = plane.environment(); after.contains("baseline_launch_gate"))
    result_.environment["baseline_launch_gate"] = after["baseline_launch_gate"];
  result_.environment["warmup_samples_dropped"] = warmup_samples;
  report_by_family(candidate_samples, baseline_samples, sample_families);
  // The SM clock the kept samples ran at (median), beside the default it is judged against.
  if (cuda && result_.environment.contains("sm_default_clock_mhz"))
    result_.environment["sm_clock_mhz_median"] = summarize(clock_ratios).median_s * result_.environment["sm_default_clock_mhz"].get<double>();
  // Only against the TF32 library baseline (CUDA): the host's fp32 baseline is a plain loop.
  const auto& tf32 = result_.baseline_tf32_time;
  if (tf32 && result_.candidate_time->median_s > 0 && tf32->median_s / result_.candidate_time->median_s > kSuspiciousSpeedup)
    add_flag("speedup_over_10x_review");
}

// A kernel's time can depend on its inputs' values: cuBLAS's TF32 4096³ GEMM, at the H200's
// power limit, takes 0.335 ms on uniform01 inputs and 0.350 ms on per_row_scale ones, each within
// 0.3–0.8 % (round w), so its pooled IQR (2.7 %) is mostly that difference, not noise. Each
// family's figures, and the noise within families, keep the two apart.
void Evaluation::report_by_family(const std::vector<double>& candidate, const std::map<std::string, std::vector<double>>& baselines,
                                  const std::vector<std::string>& families) {
  std::map<std::string, const std::vector<double>*> contenders{{"candidate", &candidate}};
  for (const auto& [name, seconds] : baselines) contenders["baseline_" + name] = &seconds;
  nlohmann::json by_family = nlohmann::json::object(), within = nlohmann::json::object();
  std::map<std::string, std::map<std::string, TimingStats>> stats;  // contender -> family -> figures
  for (const auto& [contender, samples] : contenders) {
    if (samples->size() != families.size()) continue;
    stats[contender] = summarize_by_group(*samples, families);
    for (const auto& [family, figures] : stats[contender]) by_family[family][contender] = figures.to_json();
    within[contender] = relative_noise_within_groups(*samples, families, stats[contender]);
  }
  std::optional<double> public_speedup;
  std::vector<double> hidden_speedups;
  for (const auto& [family, candidate_figures] : stats["candidate"]) {
    const auto tf32 = stats["baseline_tf32"].find(family);
    if (tf32 == stats["baseline_tf32"].end() || candidate_figures.median_s <= 0) continue;
    const double speedup = tf32->second.median_s / candidate_figures.median_s;
    by_family[family]["speedup_vs_tf32"] = speedup;
    const auto result = std::find_if(result_.families.begin(), result_.families.end(), [&](const FamilyResult& f) { return f.family == family; });
    if (result == result_.families.end()) continue;
    if (result->hidden) {
      hidden_speedups.push_back(speedup);
    } else {
      public_speedup = speedup;
    }
  }
  result_.timing_by_family = std::move(by_family);
  result_.noise_within_families = std::move(within);
  if (public_speedup && !hidden_speedups.empty()) {
    const double ratio = *public_speedup / summarize(hidden_speedups).median_s;
    result_.environment["public_vs_hidden_speedup"] = ratio;
    if (options_.device == "cuda" && ratio > kPublicSpeedupFactor) add_flag("faster_on_public_family");
  }
}

void Evaluation::report_memory(const DataPlane& plane) {
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

}  // namespace kbv::eval::detail
