// daemon/core/calibration/derived_speedups.cpp — pick the calibration that fits, check it is not
// stale, and scale the interleaved library speedup by its ratios.
#include "calibration/derived_speedups.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>

#include "calibration/library_sources.hpp"
#include "calibration/problem_fingerprint.hpp"
#include "calibration/torch_calibration.hpp"

namespace kbv::calibration {
namespace {

std::string joined(const std::set<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string share_text(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", share);
  return text;
}

std::string recalibrate(const DerivationInputs& in) {
  return "kbv calibrate --torch --problem " + in.problem + " --shapes " + in.shape_set;
}

// Whether the evidence says `baseline`'s forward returned an output that is not dense (the layout
// kbv_torch/server.py records, one object per output or one for a single output): its time then
// lacks the copy kbv's dense output contract costs every candidate and the library, so its
// ratio would flatter PyTorch. torch.compile's padded GEMM returned such a view (matmul_irregular,
// strides [5924, 1] for [8205, 5921], r83 on an H100) until the calibration compiled under the
// dense contract (forward.py, Forward.compiled). Calibrations made before the layout was recorded
// say nothing either way and are used as they are.
std::optional<std::string> strided_output(const CalibrationEntry& entry, const std::string& baseline) {
  if (!entry.evidence.is_object() || !entry.evidence.contains("torch") || !entry.evidence["torch"].is_object()) return std::nullopt;
  const nlohmann::json& figures = entry.evidence["torch"];
  if (!figures.contains(baseline) || !figures[baseline].is_object() || !figures[baseline].contains("output")) return std::nullopt;
  const nlohmann::json& output = figures[baseline]["output"];
  const nlohmann::json outputs = output.is_array() ? output : nlohmann::json::array({output});
  for (const nlohmann::json& one : outputs)
    if (one.is_object() && one.contains("contiguous") && one["contiguous"] == false)
      return "PyTorch's " + baseline + " forward returned a strided view (shape " + one.value("shape", nlohmann::json()).dump() + ", strides " +
             one.value("strides", nlohmann::json()).dump() + "), not the dense output kbv asks of every candidate, so its time lacks that copy";
  return std::nullopt;
}

}  // namespace

std::string library_identity(const std::string& describe) {
  static const std::string kProvenance = " chosen by ";
  static const std::string kNextPart = " + ";
  std::string out;
  size_t at = 0;
  while (at < describe.size()) {
    const size_t line_end = std::min(describe.find('\n', at), describe.size());
    std::string line = describe.substr(at, line_end - at);
    if (const size_t from = line.find(kProvenance); from != std::string::npos) {
      const size_t to = line.find(kNextPart, from + kProvenance.size());
      line.erase(from, to == std::string::npos ? std::string::npos : to - from);
    }
    out += line;
    if (line_end < describe.size()) out += '\n';
    at = line_end + 1;
  }
  return out;
}

DerivedSpeedups derive_speedups(const DerivationInputs& in, const std::filesystem::path& file) {
  if (in.device != "cuda")
    return DerivedSpeedups::none("PyTorch baselines are calibrated on CUDA GPUs; on the " + in.device + " device only kbv's library baseline is timed");
  std::error_code missing;
  const bool exists = std::filesystem::exists(file, missing);
  if (missing)  // not "no such file": a folder on the way that cannot be searched, say
    return DerivedSpeedups::none("cannot look for a PyTorch calibration at " + file.string() + ": " + missing.message() +
                                 " (fix: make the path readable, or point KBV_TORCH_CALIBRATION at a readable file)");
  if (!exists)
    return DerivedSpeedups::none("no PyTorch calibration at " + file.string() +
                    " (fix: run kbv calibrate --torch on this machine, where a Python with torch and CUDA is; or point KBV_TORCH_CALIBRATION at one)");
  CalibrationFile loaded;
  try {
    loaded = load_calibration_file(file);
  } catch (const std::exception& error) {
    return DerivedSpeedups::none(error.what());
  }
  std::vector<const Calibration*> fitting;
  std::set<std::string> other_devices, other_drivers, other_torches, other_libraries;
  for (const Calibration& c : loaded.calibrations) {
    if (c.device_name != in.device_name) {
      other_devices.insert(c.device_name);
    } else if (c.driver != in.driver) {
      other_drivers.insert(c.driver);
    } else if (in.torch_version && c.torch_version != *in.torch_version) {
      other_torches.insert(c.torch_version);
    } else if (!c.libraries.empty() && !in.library_versions.empty() && c.libraries != in.library_versions) {
      // cuBLAS or cuDNN upgraded under the same driver: other kernels than the ratio describes.
      other_libraries.insert(c.libraries);
    } else {
      fitting.push_back(&c);
    }
  }
  if (fitting.empty()) {
    std::string reason = file.string() + " holds no calibration for this " + in.device_name + " under driver " + in.driver;
    if (in.torch_version) reason += " with torch " + *in.torch_version + " ($KBV_TORCH_VERSION)";
    if (!other_torches.empty()) reason += "; torch versions calibrated here: " + joined(other_torches);
    if (!other_drivers.empty()) reason += "; it was calibrated on this GPU under driver " + joined(other_drivers) + ", not this one";
    if (!other_libraries.empty())
      reason += "; it was calibrated on this GPU and driver with other CUDA libraries (" + joined(other_libraries) + "; this evaluation runs " +
                in.library_versions + ")";
    if (!other_devices.empty()) reason += "; GPUs it holds: " + joined(other_devices);
    return DerivedSpeedups::none(reason + " (fix: run kbv calibrate --torch on this machine)");
  }
  // The newest calibration that fits decides the torch version (ISO 8601 UTC times sort as text);
  // the entry is the newest of that version's fitting calibrations that has one. A partial
  // recalibration (`kbv calibrate --torch --problem P`) on newer CUDA libraries writes a
  // calibration of its own, and the problems it did not measure keep their entries in the earlier
  // one (review: the newest alone was searched, so recalibrating 5 problems left the other 10 with
  // no entry).
  std::sort(fitting.begin(), fitting.end(), [](const Calibration* a, const Calibration* b) { return a->measured_at > b->measured_at; });
  const std::string& torch_version = fitting.front()->torch_version;
  const Calibration* found_in = nullptr;
  const CalibrationEntry* entry = nullptr;
  for (const Calibration* c : fitting) {
    if (c->torch_version != torch_version) continue;
    if ((entry = c->find(in.problem, in.shape_set)) != nullptr) {
      found_in = c;
      break;
    }
  }
  if (!entry)
    return DerivedSpeedups::none("the calibration of torch " + torch_version + " in " + file.string() + " has no entry for problem " + in.problem +
                    " at shapes " + in.shape_set + " (fix: " + recalibrate(in) + ")");
  const Calibration& chosen = *found_in;

  DerivedSpeedups out;
  out.calibration = {{"file", file.string()},
                     {"device_name", chosen.device_name},
                     {"driver", chosen.driver},
                     {"torch_version", chosen.torch_version},
                     {"libraries", chosen.libraries.empty() ? nlohmann::json("not recorded: calibrated before kbv recorded its CUDA libraries")
                                                             : nlohmann::json(chosen.libraries)},
                     {"torch_cuda", chosen.torch_cuda},
                     {"triton_version", chosen.triton_version},
                     {"measured_at", entry->measured_at},
                     {"forward", entry->forward}};
  std::string stale;
  if (entry->spec_sha256 != in.spec_sha256) {
    stale = "problem " + in.problem + "'s graph or shapes changed since it was calibrated (spec hash " + entry->spec_sha256.substr(0, 12) +
            " then, " + in.spec_sha256.substr(0, 12) + " now; fix: " + recalibrate(in) + ")";
  } else if (!entry->library_sources_sha256.empty() && entry->library_sources_sha256 != in.library_sources_sha256) {
    stale = "kbv's library baseline code for " + in.problem + " changed since it was calibrated (sources " +
            entry->library_sources_sha256.substr(0, 12) + " then, " + in.library_sources_sha256.substr(0, 12) + " now; fix: " + recalibrate(in) + ")";
  }
  // An entry from before kbv recorded its library's sources: identified by the description alone.
  out.calibration["library_sources"] = entry->library_sources_sha256.empty() ? "not recorded: the library is identified by its description only"
                                       : entry->library_sources_sha256 == in.library_sources_sha256 ? "match"
                                                                                                    : "changed";
  // Whether both timers ran the GPU at one duty (timing/duty_pace.hpp): before they did, a
  // power-limited GEMM's library time was taken at a lower clock than PyTorch's.
  out.calibration["max_duty"] = entry->max_duty ? nlohmann::json(*entry->max_duty) : nlohmann::json(nullptr);
  out.calibration["pacing"] = entry->max_duty && *entry->max_duty >= 1
                                  ? "none: timed unpaced (--max-duty 1); a power-limited GEMM's ratio may compare two clocks (see each "
                                    "baseline's clocks_mhz)"
                              : entry->max_duty ? "both timers paced to a GPU duty of at most " + share_text(*entry->max_duty)
                                              : std::string("none: calibrated before kbv paced its timers to one GPU duty; a power-limited "
                                                            "GEMM's ratio may compare two clocks (see each baseline's clocks_mhz; fix: ") +
                                                    recalibrate(in) + ")";
  for (const TorchBaseline& baseline : torch_baselines()) {
    DerivedBaseline& derived = out.baselines[std::string(baseline.name)];
    const std::string name(baseline.name), mode(baseline.library_mode);
    derived.clocks = compare_clocks(*entry, baseline);
    if (!stale.empty()) {
      derived.reason = stale;
      continue;
    }
    const auto library = entry->library.find(mode);
    const auto now = in.library_describe.find(mode);
    if (library != entry->library.end() && now != in.library_describe.end() && library_identity(library->second.describe) != library_identity(now->second)) {
      derived.reason = "kbv's library " + mode + " baseline for " + in.problem + " is not the one calibrated (then: " + library->second.describe +
                       "; now: " + now->second + "; fix: " + recalibrate(in) + ")";
      continue;
    }
    const auto ratio = entry->ratios.find(name);
    if (ratio == entry->ratios.end()) {
      const auto why = entry->errors.find(name);
      derived.reason = "the calibration has no " + name + " figure for " + in.problem + " at shapes " + in.shape_set + ": " +
                       (why != entry->errors.end() ? why->second : "not measured");
      continue;
    }
    if (const auto strided = strided_output(*entry, name)) {
      derived.reason = *strided + " (fix: " + recalibrate(in) + ", which compiles under the dense output contract)";
      continue;
    }
    derived.ratio = ratio->second;
    const auto median = in.library_median_s.find(mode);
    if (median == in.library_median_s.end() || !in.candidate_median_s || *in.candidate_median_s <= 0) {
      derived.reason = "no interleaved timing of the candidate and the library " + mode + " baseline in this evaluation";
      continue;
    }
    // A ratio a rerun kept from an earlier run (torch_calibration.cpp, keep_unmeasured_ratios)
    // was measured then, not at the entry's measured_at.
    derived.measured_at = entry->measured_at;
    if (entry->evidence.is_object() && entry->evidence.contains("kept_from_earlier_run") && entry->evidence["kept_from_earlier_run"].is_object() &&
        entry->evidence["kept_from_earlier_run"].contains(name)) {
      const nlohmann::json& kept = entry->evidence["kept_from_earlier_run"][name];
      if (kept.is_object() && kept.contains("measured_at") && kept["measured_at"].is_string()) derived.measured_at = kept["measured_at"].get<std::string>();
      derived.kept_from_earlier_run = true;
    }
    const double speedup = median->second / *in.candidate_median_s * ratio->second;
    if (!std::isfinite(speedup)) {
      derived.reason = "the derived speedup is not a finite number (library " + std::to_string(median->second) + " s, candidate " +
                       std::to_string(*in.candidate_median_s) + " s, ratio " + std::to_string(ratio->second) + ")";
      continue;
    }
    derived.estimated_median_s = median->second * ratio->second;
    derived.speedup = speedup;
  }
  return out;
}

void identify_problem(DerivationInputs& in, const ResolvedProblem& problem) {
  in.problem = problem.problem.name;
  in.shape_set = problem.shape_set;
  in.spec_sha256 = problem_fingerprint(problem);
  try {
    in.library_sources_sha256 = library_sources_sha256(problem.problem);
  } catch (const std::exception&) {
    in.library_sources_sha256.clear();
  }
}

DerivedSpeedups DerivedSpeedups::none(const std::string& reason) {
  DerivedSpeedups out;
  out.calibration = nullptr;
  for (const TorchBaseline& baseline : torch_baselines()) out.baselines[std::string(baseline.name)].reason = reason;
  return out;
}

nlohmann::json DerivedSpeedups::to_json() const {
  nlohmann::json out = {{"calibration", calibration}};
  for (const TorchBaseline& baseline : torch_baselines()) {
    const auto found = baselines.find(std::string(baseline.name));
    DerivedBaseline derived;
    derived.reason = "not derived";
    if (found != baselines.end()) derived = found->second;
    auto number = [](const std::optional<double>& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); };
    out[std::string(baseline.name)] = {{"speedup", number(derived.speedup)},
                                       {"ratio_to_library", number(derived.ratio)},
                                       {"library", baseline.library_mode},
                                       {"estimated_median_s", number(derived.estimated_median_s)},
                                       {"ratio_measured_at", derived.measured_at.empty() ? nlohmann::json(nullptr) : nlohmann::json(derived.measured_at)},
                                       {"ratio_kept_from_earlier_run", derived.kept_from_earlier_run},
                                       {"clocks_mhz", derived.clocks ? nlohmann::json{{"library", derived.clocks->library_mhz},
                                                                                      {"torch", derived.clocks->torch_mhz},
                                                                                      {"agree", derived.clocks->agree}}
                                                                     : nlohmann::json(nullptr)},
                                       {"reason", derived.reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(derived.reason)}};
  }
  return out;
}

void DerivedSpeedups::add_speedups(nlohmann::json& speedup) const {
  for (const TorchBaseline& baseline : torch_baselines()) {
    const auto found = baselines.find(std::string(baseline.name));
    speedup["vs_" + std::string(baseline.name)] =
        found != baselines.end() && found->second.speedup ? nlohmann::json(*found->second.speedup) : nlohmann::json(nullptr);
  }
}

}  // namespace kbv::calibration
