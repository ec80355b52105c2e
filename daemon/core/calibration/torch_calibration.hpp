// calibration/torch_calibration.hpp — the PyTorch calibration file: for one GPU model, driver and
// torch version, per problem and shape set, how long PyTorch's forward takes (eager TF32, eager
// FP32, torch.compile) relative to kbv's library baseline timed in the same run. `kbv calibrate
// --torch` writes it; every evaluation reads it to derive speedups over PyTorch without running
// PyTorch (derived_speedups.hpp). docs/torch-calibration.md documents every field.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::calibration {

// A PyTorch baseline and the library math mode it is measured against: the mode that runs the
// same math, so the ratio between the two holds across the power states a GPU passes through.
struct TorchBaseline {
  std::string_view name;          // the speedup's key is "vs_" + name
  std::string_view library_mode;  // "tf32" or "fp32"
  std::string_view words;         // for reports
};
// eager_tf32, eager_fp32, compiled_tf32, in the order reports list them.
const std::vector<TorchBaseline>& torch_baselines();
// The one of those named `name`, or null.
const TorchBaseline* find_torch_baseline(std::string_view name);

inline constexpr std::string_view kCalibrationFormat = "kbv.torch_calibration";
inline constexpr int kCalibrationVersion = 1;

// A file that cannot be used; what() names the file, the field and the fix.
class CalibrationFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LibraryTime {
  double median_s = 0;  // the mean of the medians before and after PyTorch's measurement
  std::string describe;  // what ran each node (CudaBaseline::describe()) when it was timed
};

struct CalibrationEntry {
  std::string problem, shape_set;
  std::string spec_sha256;  // problem_fingerprint() of the problem at this shape set
  // library_sources_sha256() of the problem when it was calibrated; empty in calibrations made
  // before kbv recorded it (their library is then identified by its description alone).
  std::string library_sources_sha256;
  std::string measured_at;  // ISO 8601 UTC
  // The GPU duty both timers were paced to (StopRule::max_duty; timing/duty_pace.hpp says why);
  // nullopt in calibrations made before kbv paced them, whose GEMM ratios may compare two clocks.
  std::optional<double> max_duty;
  std::string forward;      // which PyTorch forward ran: "graph" or "kernelbench:level<L>/<file>"
  std::map<std::string, LibraryTime> library;  // by math mode
  std::map<std::string, double> ratios;        // baseline name -> its median / the library's
  std::map<std::string, std::string> errors;   // baseline name -> why it has no ratio
  nlohmann::json evidence = nlohmann::json::object();  // every figure behind the ratios, kept as written
};

struct Calibration {
  std::string device_name, driver, torch_version;
  std::string torch_cuda, triton_version, python, kbv_version;  // recorded, not matched
  // kbv's CUDA runtime, cuBLASLt and cuDNN (measure/support/library_versions.hpp): matched when
  // both the calibration and the evaluation name them; empty in calibrations written before.
  std::string libraries;
  std::string measured_at;  // the latest entry's
  std::vector<CalibrationEntry> entries;
  const CalibrationEntry* find(const std::string& problem, const std::string& shape_set) const;
};

struct CalibrationFile {
  std::vector<Calibration> calibrations;
};

// $KBV_TORCH_CALIBRATION, else torch-baselines.json in kbv's state directory, beside the
// ceilings (`kbv calibrate --torch` writes it there).
std::filesystem::path default_torch_calibration_path();

// Throws CalibrationFileError naming `file` and the field.
CalibrationFile calibration_from_json(const nlohmann::json& json, const std::string& file);
CalibrationFile load_calibration_file(const std::filesystem::path& path);
nlohmann::json to_json(const CalibrationFile& file);
// Writes a temporary file beside `path` and renames it over `path`: a reader never sees half.
void save_calibration_file(const CalibrationFile& file, const std::filesystem::path& path);

// Adds a run's entries to the calibration of the same GPU, driver, torch version and libraries (replacing
// entries of the same problem and shape set), or appends the run as a new calibration. A baseline
// the run did not measure keeps the replaced entry's ratio when the problem's spec, library
// sources, forward and library description are the same (its evidence says so under
// kept_from_earlier_run); else it is dropped. `notes`, when given, gets one line per kept or
// dropped ratio, for the run to print.
void merge_calibration(CalibrationFile& file, Calibration run, std::vector<std::string>* notes = nullptr);

// merge_calibration into the file at `path` as it is on disk now, under an exclusive flock(2) of
// `path`.lock, then save_calibration_file: two runs writing one file (one per GPU, say) keep each
// other's entries (review: each rewrote its own copy, read at its start, and the last one won).
// Throws CalibrationFileError when the file on disk cannot be read, std::runtime_error when the
// lock or the save fails.
void merge_into_calibration_file(const std::filesystem::path& path, Calibration run, std::vector<std::string>* notes = nullptr);

}  // namespace kbv::calibration
