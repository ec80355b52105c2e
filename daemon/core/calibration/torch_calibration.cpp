// daemon/core/calibration/torch_calibration.cpp — the PyTorch calibration file: JSON in and out,
// checked field by field, merged run by run.
#include "calibration/torch_calibration.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "inputs/secret_key.hpp"
#include "io/whole_file.hpp"

namespace kbv::calibration {

const std::vector<TorchBaseline>& torch_baselines() {
  static const std::vector<TorchBaseline> baselines = {
      {"eager_tf32", "tf32", "PyTorch eager, TF32 allowed for matmul and cuDNN (KernelBench-Verified's baseline)"},
      {"eager_fp32", "fp32", "PyTorch eager, strict FP32 (TF32 off for matmul and cuDNN)"},
      {"compiled_tf32", "tf32", "torch.compile, mode max-autotune-no-cudagraphs, TF32 allowed"}};
  return baselines;
}

const TorchBaseline* find_torch_baseline(std::string_view name) {
  for (const TorchBaseline& baseline : torch_baselines())
    if (baseline.name == name) return &baseline;
  return nullptr;
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

// PyTorch's time over kbv's library's, both timing one problem: measured ratios run from ~0.4
// (torch.compile's fused rmsnorm) to ~33 (eager layernorm), issue #13's table. A ratio outside
// 1/1000 … 1000 would scale derived speedups by that much: refused as the file's damage (review:
// 1e308 gave an infinite speedup, written as null with no reason).
constexpr double kLeastRatio = 1e-3;
constexpr double kMostRatio = 1e3;

// A file kbv cannot read is also one `kbv calibrate --torch` will not merge into (it reads the file
// first), so the fix moves it out of the way rather than sending the user round in a loop.
std::string file_fix(const std::string& file) {
  return "move " + file + " aside (or point KBV_TORCH_CALIBRATION, and kbv calibrate --torch's --out, at another file), then rerun kbv calibrate --torch";
}

// Reads one file's JSON, naming the file and the field in every error.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const { fail(field, problem, file_fix(file_)); }
  [[noreturn]] void fail(const std::string& field, const std::string& problem, const std::string& fix) const {
    throw CalibrationFileError(file_ + ": field '" + field + "': " + problem + " (fix: " + fix + ")");
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
      const TorchBaseline* known = find_torch_baseline(name);
      if (known == nullptr) fail(path + "ratios." + name, "not a PyTorch baseline kbv knows (eager_tf32, eager_fp32, compiled_tf32)");
      if (!entry.library.count(std::string(known->library_mode)))
        fail(path + "library." + std::string(known->library_mode), "missing: ratio " + name + " is relative to it");
      entry.ratios[name] = positive(value, path + "ratios." + name);
      if (entry.ratios[name] < kLeastRatio || entry.ratios[name] > kMostRatio)
        fail(path + "ratios." + name, "expected a ratio of PyTorch's time to the library's from " + nlohmann::json(kLeastRatio).dump() + " to " +
                                          nlohmann::json(kMostRatio).dump() + " (a hand edit or a broken measurement)");
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
    c.libraries = optional_text(json, "libraries");
    const nlohmann::json& entries = member(json, "entries", path + "entries");
    if (!entries.is_array()) fail(path + "entries", "expected a list");
    std::map<std::pair<std::string, std::string>, size_t> seen;  // (problem, shape set) -> index
    for (size_t i = 0; i < entries.size(); ++i) {
      c.entries.push_back(entry(entries[i], path + "entries[" + std::to_string(i) + "]."));
      const CalibrationEntry& added = c.entries.back();
      // Two entries for one problem and shape set: find() and the merge would take the first,
      // whichever is older, and the other would be kept and never used.
      if (const auto [at, fresh] = seen.emplace(std::make_pair(added.problem, added.shape_set), i); !fresh)
        fail(path + "entries[" + std::to_string(i) + "]",
             "duplicates entries[" + std::to_string(at->second) + "] (" + added.problem + " at " + added.shape_set + ")",
             "delete one of the two from " + file_);
    }
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
  for (size_t i = 0; i < calibrations.size(); ++i) {
    out.calibrations.push_back(reader.calibration(calibrations[i], "calibrations[" + std::to_string(i) + "]."));
    const Calibration& added = out.calibrations.back();
    // One calibration per GPU model, driver and torch version (merge_calibration keeps it so): a
    // second would be chosen or ignored by its measured_at alone.
    for (size_t k = 0; k + 1 < out.calibrations.size(); ++k) {
      const Calibration& earlier = out.calibrations[k];
      if (earlier.device_name == added.device_name && earlier.driver == added.driver && earlier.torch_version == added.torch_version &&
          earlier.libraries == added.libraries)
        reader.fail("calibrations[" + std::to_string(i) + "]",
                    "duplicates calibrations[" + std::to_string(k) + "] (" + added.device_name + ", driver " + added.driver + ", torch " +
                        added.torch_version + ")",
                    "merge the two lists of entries into one calibration, or delete one, in " + file);
    }
  }
  return out;
}

CalibrationFile load_calibration_file(const std::filesystem::path& path) {
  const std::string from_environment =
      std::getenv("KBV_TORCH_CALIBRATION") != nullptr && path == std::filesystem::path(std::getenv("KBV_TORCH_CALIBRATION")) ? " (from $KBV_TORCH_CALIBRATION)"
                                                                                                                          : "";
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw CalibrationFileError(path.string() + from_environment + ": is a directory (fix: point KBV_TORCH_CALIBRATION at the calibration file itself, e.g. " +
                               (path / "torch-baselines.json").string() + ")");
  std::ifstream in(path);
  if (!in)
    throw CalibrationFileError(path.string() + from_environment + ": cannot open: " + std::strerror(errno) +
                               " (fix: run kbv calibrate --torch, or point KBV_TORCH_CALIBRATION at a readable file)");
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) throw CalibrationFileError(path.string() + from_environment + ": not valid JSON (fix: " + file_fix(path.string()) + ")");
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
                            {"libraries", c.libraries},
                            {"measured_at", c.measured_at},
                            {"entries", entries}});
  }
  return {{"format", kCalibrationFormat}, {"version", kCalibrationVersion}, {"calibrations", calibrations}};
}

void save_calibration_file(const CalibrationFile& file, const std::filesystem::path& path) {
  io::write_file_whole(path, to_json(file).dump(2) + "\n");
}

namespace {

// A baseline the new run did not measure (not asked for, or PyTorch failed at it) keeps the
// ratio the file had, when it was measured against the same problem and the same library: a rerun
// with --no-compile must not throw away torch.compile's ratios. Otherwise it is dropped, and said.
void keep_unmeasured_ratios(const CalibrationEntry& old, CalibrationEntry& fresh, std::vector<std::string>* notes) {
  // And timed the same way: a ratio of an unpaced run kept beside a paced one's would be reported
  // with the new run's pacing (review).
  const bool same_subject = old.spec_sha256 == fresh.spec_sha256 && old.library_sources_sha256 == fresh.library_sources_sha256 &&
                            old.forward == fresh.forward && old.max_duty == fresh.max_duty;
  for (const auto& [baseline, ratio] : old.ratios) {
    if (fresh.ratios.contains(baseline)) continue;
    const TorchBaseline* known = find_torch_baseline(baseline);
    const std::string mode = known ? std::string(known->library_mode) : std::string();
    const auto old_library = old.library.find(mode);
    const auto new_library = fresh.library.find(mode);
    const bool same_library = old_library != old.library.end() && new_library != fresh.library.end() &&
                              old_library->second.describe == new_library->second.describe;
    const std::string what = fresh.problem + " " + fresh.shape_set + ": " + baseline + " of " + old.measured_at;
    const auto why = fresh.errors.find(baseline);
    const std::string not_measured = why == fresh.errors.end() ? std::string("not measured") : why->second;
    if (!same_subject || !same_library) {
      if (notes) notes->push_back(what + " dropped (this run: " + not_measured + "; the problem, its library or the timers' pacing changed since)");
      continue;
    }
    fresh.ratios[baseline] = ratio;
    fresh.errors.erase(baseline);
    // Its ratio is the old run's library against the old run's PyTorch: both halves of its
    // evidence stay with it.
    if (old.evidence.is_object() && old.evidence.contains("torch") && old.evidence["torch"].contains(baseline)) {
      if (!fresh.evidence.is_object()) fresh.evidence = nlohmann::json::object();
      fresh.evidence["torch"][baseline] = old.evidence["torch"][baseline];
    }
    // Kept by a run before too: it was measured then, not at the run that last kept it (review).
    const bool kept_before = old.evidence.is_object() && old.evidence.contains("kept_from_earlier_run") &&
                             old.evidence["kept_from_earlier_run"].is_object() && old.evidence["kept_from_earlier_run"].contains(baseline);
    fresh.evidence["kept_from_earlier_run"][baseline] =
        kept_before ? old.evidence["kept_from_earlier_run"][baseline]
                    : nlohmann::json{{"measured_at", old.measured_at}, {"library_median_s", old_library->second.median_s}, {"why", "this run: " + not_measured}};
    if (notes) notes->push_back(what + " kept (this run: " + not_measured + ")");
  }
}

}  // namespace

void merge_calibration(CalibrationFile& file, Calibration run, std::vector<std::string>* notes) {
  const auto same = std::find_if(file.calibrations.begin(), file.calibrations.end(), [&](const Calibration& c) {
    return c.device_name == run.device_name && c.driver == run.driver && c.torch_version == run.torch_version && c.libraries == run.libraries;
  });
  if (same == file.calibrations.end()) {
    file.calibrations.push_back(std::move(run));
    return;
  }
  for (CalibrationEntry& entry : run.entries) {
    const auto old = std::find_if(same->entries.begin(), same->entries.end(),
                                  [&](const CalibrationEntry& e) { return e.problem == entry.problem && e.shape_set == entry.shape_set; });
    if (old != same->entries.end()) {
      keep_unmeasured_ratios(*old, entry, notes);
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

namespace {

// An exclusive flock(2) held for the object's life; the lock file itself is left in place (removing
// it would let a waiter lock a file no one else sees).
class CalibrationLock {
 public:
  // Read-only: flock needs no write access, so another user's lock file serves as well.
  explicit CalibrationLock(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error(path.string() + ": cannot open the lock file: " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) {
        const int error = errno;
        ::close(fd_);
        throw std::runtime_error(path.string() + ": cannot lock: " + std::strerror(error));
      }
  }
  ~CalibrationLock() { ::close(fd_); }
  CalibrationLock(const CalibrationLock&) = delete;
  CalibrationLock& operator=(const CalibrationLock&) = delete;

 private:
  int fd_;
};

}  // namespace

void merge_into_calibration_file(const std::filesystem::path& path, Calibration run, std::vector<std::string>* notes) {
  const CalibrationLock lock(path.string() + ".lock");
  CalibrationFile file;
  std::error_code error;
  const bool exists = std::filesystem::exists(path, error);
  if (error) throw std::runtime_error(path.string() + ": cannot tell whether it exists: " + error.message());  // never overwritten unread
  if (exists) file = load_calibration_file(path);
  merge_calibration(file, std::move(run), notes);
  save_calibration_file(file, path);
}

}  // namespace kbv::calibration
