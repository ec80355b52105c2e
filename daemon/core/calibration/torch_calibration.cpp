// daemon/core/calibration/torch_calibration.cpp — the PyTorch calibration file: JSON in and out,
// checked field by field, merged run by run.
#include "calibration/torch_calibration.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "inputs/secret_key.hpp"

namespace kbv::calibration {

const std::vector<TorchBaseline>& torch_baselines() {
  static const std::vector<TorchBaseline> baselines = {
      {"eager_tf32", "tf32", "PyTorch eager, TF32 allowed for matmul and cuDNN (KernelBench-Verified's baseline)"},
      {"eager_fp32", "fp32", "PyTorch eager, strict FP32 (TF32 off for matmul and cuDNN)"},
      {"compiled_tf32", "tf32", "torch.compile, mode max-autotune-no-cudagraphs, TF32 allowed"}};
  return baselines;
}

const CalibrationEntry* Calibration::find(const std::string& problem, const std::string& shape_set) const {
  for (const CalibrationEntry& entry : entries)
    if (entry.problem == problem && entry.shape_set == shape_set) return &entry;
  return nullptr;
}

std::filesystem::path default_torch_calibration_path() {
  if (const char* path = std::getenv("KBV_TORCH_CALIBRATION"); path != nullptr && *path != '\0') return path;
  return inputs::state_directory() / "torch-baselines.json";
}

namespace {

constexpr const char* kFix = "rerun kbv calibrate --torch";

// Reads one file's JSON, naming the file and the field in every error.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw CalibrationFileError(file_ + ": field '" + field + "': " + problem + " (fix: " + kFix + ")");
  }

  const nlohmann::json& member(const nlohmann::json& object, const std::string& key, const std::string& field) const {
    if (!object.is_object() || !object.contains(key)) fail(field, "missing");
    return object.at(key);
  }

  std::string text(const nlohmann::json& object, const std::string& key, const std::string& path) const {
    const nlohmann::json& value = member(object, key, path + key);
    if (!value.is_string() || value.get<std::string>().empty()) fail(path + key, "expected a non-empty string");
    return value.get<std::string>();
  }

  std::string optional_text(const nlohmann::json& object, const std::string& key) const {
    return object.contains(key) && object.at(key).is_string() ? object.at(key).get<std::string>() : std::string();
  }

  double positive(const nlohmann::json& value, const std::string& field) const {
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0) fail(field, "expected a positive number");
    return value.get<double>();
  }

  CalibrationEntry entry(const nlohmann::json& json, const std::string& path) const {
    if (!json.is_object()) fail(path, "expected an object");
    CalibrationEntry entry;
    entry.problem = text(json, "problem", path);
    entry.shape_set = text(json, "shape_set", path);
    entry.spec_sha256 = text(json, "spec_sha256", path);
    if (json.contains("library_sources_sha256")) entry.library_sources_sha256 = text(json, "library_sources_sha256", path);
    entry.measured_at = text(json, "measured_at", path);
    if (json.contains("max_duty")) {
      entry.max_duty = positive(json["max_duty"], path + "max_duty");
      if (*entry.max_duty > 1) fail(path + "max_duty", "expected a share of the wall in (0, 1]");
    }
    entry.forward = text(json, "forward", path);
    const nlohmann::json& library = member(json, "library", path + "library");
    if (!library.is_object() || library.empty()) fail(path + "library", "expected an object of math modes");
    for (const auto& [mode, figures] : library.items()) {
      const std::string field = path + "library." + mode + ".";
      entry.library[mode] = {positive(member(figures, "median_s", field + "median_s"), field + "median_s"), text(figures, "describe", field)};
    }
    const nlohmann::json& ratios = member(json, "ratios", path + "ratios");
    if (!ratios.is_object()) fail(path + "ratios", "expected an object");
    for (const auto& [name, value] : ratios.items()) {
      const auto known = std::find_if(torch_baselines().begin(), torch_baselines().end(), [&](const TorchBaseline& b) { return b.name == name; });
      if (known == torch_baselines().end()) fail(path + "ratios." + name, "not a PyTorch baseline kbv knows (eager_tf32, eager_fp32, compiled_tf32)");
      if (!entry.library.count(std::string(known->library_mode)))
        fail(path + "library." + std::string(known->library_mode), "missing: ratio " + name + " is relative to it");
      entry.ratios[name] = positive(value, path + "ratios." + name);
    }
    if (json.contains("errors")) {
      if (!json["errors"].is_object()) fail(path + "errors", "expected an object");
      for (const auto& [name, why] : json["errors"].items()) {
        if (!why.is_string()) fail(path + "errors." + name, "expected a string");
        entry.errors[name] = why.get<std::string>();
      }
    }
    if (json.contains("evidence")) entry.evidence = json["evidence"];
    return entry;
  }

  Calibration calibration(const nlohmann::json& json, const std::string& path) const {
    if (!json.is_object()) fail(path, "expected an object");
    Calibration c;
    c.device_name = text(json, "device_name", path);
    c.driver = text(json, "driver", path);
    c.torch_version = text(json, "torch_version", path);
    c.measured_at = text(json, "measured_at", path);
    c.torch_cuda = optional_text(json, "torch_cuda");
    c.triton_version = optional_text(json, "triton_version");
    c.python = optional_text(json, "python");
    c.kbv_version = optional_text(json, "kbv_version");
    const nlohmann::json& entries = member(json, "entries", path + "entries");
    if (!entries.is_array()) fail(path + "entries", "expected a list");
    for (size_t i = 0; i < entries.size(); ++i) c.entries.push_back(entry(entries[i], path + "entries[" + std::to_string(i) + "]."));
    return c;
  }

 private:
  std::string file_;
};

nlohmann::json entry_json(const CalibrationEntry& entry) {
  nlohmann::json library = nlohmann::json::object();
  for (const auto& [mode, time] : entry.library) library[mode] = {{"median_s", time.median_s}, {"describe", time.describe}};
  nlohmann::json out = {{"problem", entry.problem},     {"shape_set", entry.shape_set}, {"spec_sha256", entry.spec_sha256},
                        {"measured_at", entry.measured_at}, {"forward", entry.forward},     {"library", library},
                        {"ratios", entry.ratios}};
  if (!entry.library_sources_sha256.empty()) out["library_sources_sha256"] = entry.library_sources_sha256;
  if (entry.max_duty) out["max_duty"] = *entry.max_duty;
  out["errors"] = entry.errors.empty() ? nlohmann::json::object() : nlohmann::json(entry.errors);
  out["evidence"] = entry.evidence;
  return out;
}

}  // namespace

CalibrationFile calibration_from_json(const nlohmann::json& json, const std::string& file) {
  const Reader reader(file);
  if (!json.is_object()) reader.fail("(top level)", "expected a JSON object");
  if (reader.text(json, "format", "") != kCalibrationFormat)
    reader.fail("format", "expected \"" + std::string(kCalibrationFormat) + "\": not a kbv PyTorch calibration");
  const nlohmann::json& version = reader.member(json, "version", "version");
  if (!version.is_number_integer() || version.get<int>() != kCalibrationVersion)
    reader.fail("version", "this kbv reads version " + std::to_string(kCalibrationVersion) + ", the file says " + version.dump());
  const nlohmann::json& calibrations = reader.member(json, "calibrations", "calibrations");
  if (!calibrations.is_array()) reader.fail("calibrations", "expected a list");
  CalibrationFile out;
  for (size_t i = 0; i < calibrations.size(); ++i)
    out.calibrations.push_back(reader.calibration(calibrations[i], "calibrations[" + std::to_string(i) + "]."));
  return out;
}

CalibrationFile load_calibration_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw CalibrationFileError(path.string() + ": cannot open (fix: run kbv calibrate --torch, or point KBV_TORCH_CALIBRATION at the file)");
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) throw CalibrationFileError(path.string() + ": not valid JSON (fix: " + kFix + ")");
  return calibration_from_json(json, path.string());
}

nlohmann::json to_json(const CalibrationFile& file) {
  nlohmann::json calibrations = nlohmann::json::array();
  for (const Calibration& c : file.calibrations) {
    nlohmann::json entries = nlohmann::json::array();
    for (const CalibrationEntry& entry : c.entries) entries.push_back(entry_json(entry));
    calibrations.push_back({{"device_name", c.device_name},
                            {"driver", c.driver},
                            {"torch_version", c.torch_version},
                            {"torch_cuda", c.torch_cuda},
                            {"triton_version", c.triton_version},
                            {"python", c.python},
                            {"kbv_version", c.kbv_version},
                            {"measured_at", c.measured_at},
                            {"entries", entries}});
  }
  return {{"format", kCalibrationFormat}, {"version", kCalibrationVersion}, {"calibrations", calibrations}};
}

void save_calibration_file(const CalibrationFile& file, const std::filesystem::path& path) {
  const std::filesystem::path temporary = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw std::runtime_error(temporary.string() + ": cannot write (fix: check the directory exists and is writable)");
    out << to_json(file).dump(2) << "\n";
    if (!out.flush()) throw std::runtime_error(temporary.string() + ": write failed");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw std::runtime_error(path.string() + ": cannot replace: " + error.message());
  }
}

void merge_calibration(CalibrationFile& file, Calibration run) {
  const auto same = std::find_if(file.calibrations.begin(), file.calibrations.end(), [&](const Calibration& c) {
    return c.device_name == run.device_name && c.driver == run.driver && c.torch_version == run.torch_version;
  });
  if (same == file.calibrations.end()) {
    file.calibrations.push_back(std::move(run));
    return;
  }
  for (CalibrationEntry& entry : run.entries) {
    const auto old = std::find_if(same->entries.begin(), same->entries.end(),
                                  [&](const CalibrationEntry& e) { return e.problem == entry.problem && e.shape_set == entry.shape_set; });
    if (old != same->entries.end()) {
      *old = std::move(entry);
    } else {
      same->entries.push_back(std::move(entry));
    }
  }
  same->torch_cuda = run.torch_cuda;
  same->triton_version = run.triton_version;
  same->python = run.python;
  same->kbv_version = run.kbv_version;
  same->measured_at = std::max(same->measured_at, run.measured_at);  // ISO 8601 UTC sorts as text
}

}  // namespace kbv::calibration
