// cli/report_text.cpp — human-readable evaluation summaries and verdict tables.
#include "cli/report_text.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "client/printable.hpp"
#include "eval/kernel_breakdown.hpp"
#include "verify/precision_signature.hpp"

namespace kbv::cli {

std::string format_seconds(double seconds) {
  char text[32];
  if (seconds < 1e-3) std::snprintf(text, sizeof text, "%.1f us", seconds * 1e6);
  else if (seconds < 1) std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  else std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

namespace {
std::string times_text(double speedup) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", speedup);
  return text;
}

// The library baseline a report leads with: TF32 where there is one (CUDA), else FP32 (the
// host's only library baseline).
const std::optional<eval::TimingStats>& library_time(const eval::EvalResult& result) {
  return result.baseline_tf32_time ? result.baseline_tf32_time : result.baseline_fp32_time;
}
const char* library_name(const eval::EvalResult& result) { return result.baseline_tf32_time ? "library TF32" : "library FP32"; }

std::string library_speedup_text(const eval::EvalResult& result) {
  const auto& library = library_time(result);
  if (!result.candidate_time || !library || result.candidate_time->median_s <= 0) return "-";
  return times_text(library->median_s / result.candidate_time->median_s);
}

const calibration::DerivedBaseline* derived(const eval::EvalResult& result, const std::string& name) {
  const auto found = result.torch_baselines.baselines.find(name);
  return found == result.torch_baselines.baselines.end() ? nullptr : &found->second;
}

std::string eager_speedup_text(const eval::EvalResult& result) {
  const calibration::DerivedBaseline* eager = derived(result, "eager_tf32");
  return eager && eager->speedup ? times_text(*eager->speedup) : "-";
}

std::string upper(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return result;
}

// The non-gating remark about how the candidate was built, when there is one.
std::string build_note(const eval::EvalResult& result) {
  if (!result.candidate_build.is_object() || !result.candidate_build.contains("note")) return "";
  return result.candidate_build["note"].get<std::string>();
}
}  // namespace

void print_summary(std::ostream& out, const eval::EvalResult& result) {
  // Text that can carry the candidate's own words (the detail quotes set_error() and its output)
  // or odd bytes (a path) is printed escaped: an escape sequence cannot drive the terminal nor a
  // newline forge a verdict line (client/printable.hpp).
  out << "candidate  " << control::printable(result.candidate_path);
  if (!result.candidate_sha256.empty()) out << "  (sha256 " << result.candidate_sha256.substr(0, 12) << ")";
  out << "\n";
  if (!result.problem.empty())
    out << "problem    " << result.problem << "  (level " << result.level << ", shapes " << result.shape_set << ", epoch "
        << result.epoch << ", device " << result.candidate_device << ")\n";
  out << "verdict    " << upper(eval::verdict_name(result.verdict));
  if (result.hack_pattern) out << " [" << *result.hack_pattern << "]";
  if (result.failed_family) out << " (family " << *result.failed_family << ")";
  out << "\n           " << control::printable(result.detail) << "\n";
  if (!result.families.empty()) {
    out << "families  ";
    for (const auto& family : result.families) {
      out << " " << family.family << (family.hidden ? "" : "(public)") << "=";
      out << (family.degenerate ? "degenerate" : !family.baseline_passed ? "baseline-fails" : family.passed ? "ok" : "FAIL");
    }
    out << "\n";
    // The precision check's closest call (verify/precision_signature.hpp): the smallest ratio.
    const eval::FamilyResult* closest = nullptr;
    for (const auto& family : result.families)
      if (family.bf16_distance_ratio >= 0 && (closest == nullptr || family.bf16_distance_ratio < closest->bf16_distance_ratio)) closest = &family;
    if (closest != nullptr) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.3g", closest->bf16_distance_ratio);
      out << "precision  bf16 check: least ratio " << ratio << " (family " << closest->family << "; fails below "
          << kBf16ExplainedRatio << ")\n";
    }
  }
  if (!result.classes.empty()) {
    // Which family tested each kind of input, and which kinds nothing tested.
    out << "classes   ";
    for (const auto& family_class : result.classes)
      out << " " << family_class.name << "=" << (family_class.gating_family.empty() ? "DEGENERATE" : family_class.gating_family);
    out << "\n";
    for (const auto& family_class : result.classes)
      if (family_class.gating_family.empty())
        out << "untested   class " << family_class.name << " is degenerate for this problem (" << family_class.reason << ")\n";
  }
  if (result.candidate_time) {
    out << "timing     candidate " << format_seconds(result.candidate_time->median_s) << " median (IQR "
        << format_seconds(result.candidate_time->iqr_s) << ", " << result.candidate_time->samples << " samples)";
    if (const auto& library = library_time(result))
      out << "; " << library_name(result) << " " << format_seconds(library->median_s) << ": speedup " << library_speedup_text(result);
    out << "\n";
    // PyTorch eager with TF32, KernelBench-Verified's baseline, derived from the calibration.
    if (const calibration::DerivedBaseline* eager = derived(result, "eager_tf32"); eager && eager->speedup) {
      const nlohmann::json& used = result.torch_baselines.calibration;
      out << "vs eager   PyTorch eager TF32 ~" << format_seconds(eager->estimated_median_s.value_or(0)) << ": speedup " << times_text(*eager->speedup)
          << " (torch " << used.value("torch_version", "?") << ", calibrated " << used.value("measured_at", "?") << ")\n";
    } else if (eager) {
      out << "vs eager   none: " << eager->reason << "\n";
    }
    // CUDA: where the candidate's time goes, kernel by kernel (the worker's CUPTI trace).
    const std::vector<std::string> kernel_lines = eval::candidate_kernels_text(result.candidate_kernels, format_seconds);
    for (size_t i = 0; i < kernel_lines.size(); ++i) out << (i == 0 ? "kernels    " : "             ") << control::printable(kernel_lines[i]) << "\n";
  }
  if (!result.flags.empty()) {
    out << "flags     ";
    for (const auto& flag : result.flags) out << " " << flag;
    out << "\n";
  }
  if (const std::string note = build_note(result); !note.empty()) out << "note       " << note << "\n";
  out << "wall       " << format_seconds(result.wall_seconds) << "\n";
}

void print_table_header(std::ostream& out) {
  char line[512];
  std::snprintf(line, sizeof line, "%-34s %-22s %-18s %-22s %12s %10s %10s\n", "candidate", "problem", "verdict", "family / pattern",
                "median", "vs library", "vs eager");
  out << line;
}

void print_table_row(std::ostream& out, const eval::EvalResult& result) {
  char line[512];
  const std::string name = control::printable(std::filesystem::path(result.candidate_path).filename().string());
  std::string why = result.hack_pattern ? *result.hack_pattern : result.failed_family ? *result.failed_family : "";
  std::snprintf(line, sizeof line, "%-34s %-22s %-18s %-22s %12s %10s %10s\n", name.c_str(),
                (result.problem.empty() ? result.declared_problem : result.problem).c_str(),
                std::string(eval::verdict_name(result.verdict)).c_str(), why.c_str(),
                result.candidate_time ? format_seconds(result.candidate_time->median_s).c_str() : "-", library_speedup_text(result).c_str(),
                eager_speedup_text(result).c_str());
  out << line;
  // A candidate that could not be evaluated says why on the next line.
  if (result.input_error || result.verdict == eval::Verdict::bad_input) out << "    " << control::printable(result.detail) << "\n";
  if (const std::string note = build_note(result); !note.empty()) out << "    note: " << note << "\n";
}

void print_table_footer(std::ostream& out, const std::vector<eval::EvalResult>& results) {
  const auto passed = std::count_if(results.begin(), results.end(), [](const auto& r) { return r.verdict == eval::Verdict::pass; });
  out << passed << " of " << results.size() << " candidates passed\n";
  std::vector<const eval::EvalResult*> refused;
  for (const auto& result : results)
    if (result.input_error || result.verdict == eval::Verdict::bad_input) refused.push_back(&result);
  if (refused.empty()) return;
  out << refused.size() << " could not be evaluated (exit status 2; the others' verdicts stand):\n";
  for (const auto* result : refused) out << "  " << control::printable(result->candidate_path) << "\n";
}

void print_worker_output(std::ostream& out, const eval::EvalResult& result) {
  if (result.worker_stderr_tail.empty()) {
    out << "worker stderr: (empty)\n";
    return;
  }
  out << "worker stderr (last " << result.worker_stderr_tail.size() << " bytes):\n";
  std::istringstream lines(result.worker_stderr_tail);
  for (std::string line; std::getline(lines, line);) out << "  | " << control::printable(line) << "\n";
}

}  // namespace kbv::cli
