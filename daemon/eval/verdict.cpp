// eval/verdict.cpp — names of verdicts and the JSON form of an evaluation.
#include "eval/verdict.hpp"

#include <array>
#include <cmath>

namespace kbv::eval {

std::string_view verdict_name(Verdict verdict) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "pass", "fail_correctness", "crash", "timeout", "abi_error", "load_error",
      "resource", "hack_suspected", "sandbox_violation", "bad_input"};
  return kNames.at(static_cast<size_t>(verdict));
}

namespace {
nlohmann::json finite_or_null(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }
}  // namespace

const std::vector<std::string>& hack_patterns() {
  static const std::vector<std::string> names = {"stream_injection", "thread_injection", "timer_tampering", "phase_detection",
                                                 "input_mutation",   "result_forgery",   "impossible_time"};
  return names;
}

const std::vector<std::string>& review_flags() {
  static const std::vector<std::string> names = {"bf16_operands",             "bitwise_nondeterministic",  "calls_library",
                                                 "faster_on_public_family",   "more_memory_than_baseline", "passes_public_inputs_only",
                                                 "speedup_over_10x_review"};
  return names;
}

nlohmann::json TimingStats::to_json() const {
  return {{"median_s", median_s}, {"iqr_s", iqr_s}, {"min_s", min_s}, {"max_s", max_s}, {"samples", samples}};
}

nlohmann::json EvalResult::to_json() const {
  using nlohmann::json;
  json families_json = json::array();
  for (const FamilyResult& family : families) {
    json entry = {{"family", family.family},       {"hidden", family.hidden},
                  {"gating", family.gating},       {"degenerate", family.degenerate},
                  {"baseline_passed", family.baseline_passed},
                  {"trials", family.trials},       {"trials_by_error_scale", family.trials_by_error_scale},
                  {"passed", family.passed},
                  {"max_abs_error", finite_or_null(family.max_abs_error)},
                  {"rel_l2_error", finite_or_null(family.rel_l2_error)},
                  {"bf16_distance_ratio", family.bf16_distance_ratio < 0 ? json(nullptr) : finite_or_null(family.bf16_distance_ratio)}};
    if (!family.detail.empty()) entry["detail"] = family.detail;
    if (family.degenerate) entry["degenerate_reason"] = family.degenerate_reason;
    if (!family.family_class.empty()) entry["class"] = family.family_class;
    families_json.push_back(entry);
  }
  json classes_json = json::array();
  json degenerate_classes = json::array();
  for (const ClassResult& family_class : classes) {
    json entry = {{"class", family_class.name},
                  {"gating_family", family_class.gating_family.empty() ? json(nullptr) : json(family_class.gating_family)},
                  {"degenerate", family_class.gating_family.empty()}};
    if (!family_class.reason.empty()) entry["not_gating"] = family_class.reason;
    classes_json.push_back(entry);
    if (family_class.gating_family.empty()) degenerate_classes.push_back(family_class.name);
  }
  auto timing_or_null = [](const std::optional<TimingStats>& stats) { return stats ? stats->to_json() : json(nullptr); };
  auto speedup = [&](const std::optional<TimingStats>& baseline) -> json {
    if (!baseline || !candidate_time || candidate_time->median_s <= 0) return nullptr;
    return baseline->median_s / candidate_time->median_s;
  };
  json result = {
      {"schema_version", kResultSchemaVersion},
      {"kbv_version", KBV_VERSION},
      {"verdict", verdict_name(verdict)},
      {"exit_status", exit_code()},
      {"detail", detail},
      {"hack_pattern", hack_pattern ? json(*hack_pattern) : json(nullptr)},
      {"failed_family", failed_family ? json(*failed_family) : json(nullptr)},
      {"flags", flags},
      {"candidate", {{"path", candidate_path}, {"sha256", candidate_sha256}, {"name", candidate_name},
                     {"problem", declared_problem}, {"device", candidate_device}, {"abi_version", abi_version},
                     {"build", candidate_build}}},
      {"problem", {{"name", problem}, {"level", level}, {"shape_set", shape_set}, {"flops", flops},
                   {"compulsory_bytes", compulsory_bytes}, {"physical_floor_s", physical_floor_s}}},
      {"epoch", epoch},
      {"families", families_json},
      {"classes", classes_json},
      {"degenerate_classes", degenerate_classes},
      {"timing", {{"candidate", timing_or_null(candidate_time)},
                  {"baseline_fp32", timing_or_null(baseline_fp32_time)},
                  {"baseline_tf32", timing_or_null(baseline_tf32_time)},
                  {"candidate_kernel_span", timing_or_null(candidate_kernel_span)}}},
      {"speedup", {{"vs_library_tf32", speedup(baseline_tf32_time)}, {"vs_library_fp32", speedup(baseline_fp32_time)}}},
      {"baselines", torch_baselines.to_json()},
      {"memory", memory ? *memory : json(nullptr)},
      {"environment", environment},
      {"wall_s", wall_seconds}};
  torch_baselines.add_speedups(result["speedup"]);
  if (!worker_stderr_tail.empty()) result["worker_stderr_tail"] = worker_stderr_tail;
  if (!worker_exit.is_null()) result["worker_exit"] = worker_exit;
  if (!timing_samples.is_null()) result["timing"]["samples"] = timing_samples;
  if (!timing_by_family.is_null()) result["timing"]["by_family"] = timing_by_family;
  if (!candidate_kernels.is_null()) result["timing"]["candidate_kernels"] = candidate_kernels;
  if (!noise_within_families.is_null()) result["timing"]["noise_within_families"] = noise_within_families;
  return result;
}

int EvalResult::exit_code() const {
  if (verdict == Verdict::pass) return 0;
  if (verdict == Verdict::bad_input || input_error) return 2;
  return 1;
}

}  // namespace kbv::eval
