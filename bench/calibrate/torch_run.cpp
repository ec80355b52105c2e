// bench/calibrate/torch_run.cpp — the calibration loop: library before, PyTorch, library after, per
// problem and shape set, on one GPU, in one run.
#include "torch_run.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <map>
#include <memory>

#include "calibration/clock_agreement.hpp"
#include "calibration/recalibration.hpp"
#include "calibration/torch_calibration.hpp"
#include "data/device_inputs.hpp"
#include "inputs/tensor_axes.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/driver_version.hpp"
#include "measure/support/library_versions.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/timing/cold_timer.hpp"
#include "spec/catalog.hpp"
#include "torch_entry.hpp"
#include "torch_session.hpp"

namespace kbv::calibrate {
namespace {

using cuda::ColdTimer;
using cuda::CudaBaseline;
using cuda::MathMode;
using cuda::TimingResult;

// One problem's PyTorch measurement: torch.compile's max-autotune benchmarks every GEMM
// configuration it knows (minutes for a large GEMM), then three contenders sample for up to
// the stop rule's 15 s wall cap each.
constexpr double kMeasureTimeoutSeconds = 1800;
// The seed of the calibration's inputs (kbv's public family, U[0,1) as torch.rand draws).
constexpr uint64_t kInputSeed = 0x6b62762d63616c69ULL;  // "kbv-cali"
// Free device memory the library's inputs and outputs may take, leaving the rest to cuDNN's
// workspaces and the cold timer's flush buffer.
constexpr double kDeviceMemoryShare = 0.8;

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

nlohmann::json timing_json(const TimingResult& r) {
  return {{"median_s", r.median_s}, {"iqr_s", r.iqr_s}, {"min_s", r.min_s}, {"max_s", r.max_s}, {"samples", r.samples},
          {"noise", r.noise}, {"discarded_throttled", r.discarded_throttled}, {"sm_clock_mhz_median", r.sm_clock_mhz_median},
          {"hit_wall_cap", r.hit_wall_cap}, {"gpu_seconds", r.gpu_seconds}, {"wall_seconds", r.wall_seconds}, {"duty", r.duty}};
}

// kbv's TF32 and FP32 baselines of one problem with their inputs (kbv's public family) and
// outputs; the buffers can be let go while PyTorch measures, and come back with the same data.
class LibraryContenders {
 public:
  explicit LibraryContenders(const ResolvedProblem& problem)
      : problem_(problem), tf32_(problem, MathMode::tf32), fp32_(problem, MathMode::fp32) {}

  size_t buffer_bytes() const {
    size_t bytes = 0;
    for (const Shape& s : problem_.input_shapes) bytes += static_cast<size_t>(numel(s)) * sizeof(float);
    for (const Shape& s : problem_.output_shapes) bytes += 2 * static_cast<size_t>(numel(s)) * sizeof(float);
    return bytes;
  }

  // The baselines read every input as fp32: an int64 or bool input (the public family's
  // randint and Bernoulli(½) draws) is drawn in its dtype, then widened (exact).
  void allocate(cudaStream_t stream) {
    for (size_t i = 0; i < problem_.input_shapes.size(); ++i) {
      const Shape& shape = problem_.input_shapes[i];
      const DType dtype = problem_.input_dtype(i);
      inputs_.emplace_back(static_cast<size_t>(numel(shape)) * sizeof(float), "calibration input");
      cuda::measure::DeviceMemory typed;
      if (dtype != DType::float32) typed = cuda::measure::DeviceMemory(static_cast<size_t>(numel(shape)) * element_bytes(dtype), "calibration input (typed)");
      cuda::generate_typed_inputs_on_device(dtype == DType::float32 ? inputs_.back().get() : typed.get(), dtype, numel(shape),
                                            inputs::Family::uniform01, {}, kInputSeed, static_cast<uint32_t>(i),
                                            inputs::axes_of_shape(shape.data(), shape.size()), problem_.input_scale(i),
                                            problem_.input_ranges[i], stream);
      if (dtype != DType::float32) {
        cuda::widen_to_f32(typed.get(), dtype, inputs_.back().as<float>(), numel(shape), stream);
        cuda::measure::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // before `typed` is freed
      }
    }
    for (auto* outputs : {&tf32_outputs_, &fp32_outputs_})
      for (const Shape& shape : problem_.output_shapes) outputs->emplace_back(static_cast<size_t>(numel(shape)) * sizeof(float), "calibration output");
    cuda::measure::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }

  void release() {
    inputs_.clear();
    tf32_outputs_.clear();
    fp32_outputs_.clear();
  }

  // TF32 and FP32 interleaved, round-robin (the cold timer's own order).
  std::map<std::string, TimingResult> time(ColdTimer& timer) {
    std::vector<const float*> in;
    for (const auto& buffer : inputs_) in.push_back(buffer.as<const float>());
    auto pointers = [](const std::vector<cuda::measure::DeviceMemory>& buffers) {
      std::vector<float*> out;
      for (const auto& buffer : buffers) out.push_back(buffer.as<float>());
      return out;
    };
    const std::vector<float*> tf32_out = pointers(tf32_outputs_), fp32_out = pointers(fp32_outputs_);
    const auto results = timer.measure_interleaved({[&](cudaStream_t s, uint64_t) { tf32_.run(in, tf32_out, s); },
                                                    [&](cudaStream_t s, uint64_t) { fp32_.run(in, fp32_out, s); }});
    return {{"tf32", results[0]}, {"fp32", results[1]}};
  }

  std::string describe(const std::string& mode) const { return mode == "tf32" ? tf32_.describe() : fp32_.describe(); }

 private:
  const ResolvedProblem& problem_;
  CudaBaseline tf32_, fp32_;
  std::vector<cuda::measure::DeviceMemory> inputs_, tf32_outputs_, fp32_outputs_;
};

nlohmann::json stop_rule_json(const timing::StopRule& rule) {
  const auto& stdrel = std::get<timing::StdrelParams>(rule.criterion);
  return {{"min_samples", stdrel.min_samples},
          {"min_measured_seconds", stdrel.min_measured_seconds},
          {"max_noise", stdrel.max_noise},
          {"warm_up_wall_seconds", rule.warm_up.wall_seconds},
          {"max_wall_seconds", rule.max_wall_seconds},
          {"throttle_threshold", rule.throttle_threshold},
          {"throttle_recovery_seconds", rule.throttle_recovery_seconds},
          {"max_duty", rule.max_duty}};
}

std::string ms(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f ms", seconds * 1e3);
  return text;
}

void print_entry(const calibration::CalibrationEntry& entry, const std::map<std::string, LibraryMeasurement>& library) {
  std::printf("%s %s (%s):", entry.problem.c_str(), entry.shape_set.c_str(), entry.forward.c_str());
  for (const auto& [mode, measured] : library)
    std::printf("  library %s %s (before %s, after %s, drift %.1f %%; %.0f MHz, duty %.2f)", mode.c_str(), ms(entry.library.at(mode).median_s).c_str(),
                ms(measured.before_s).c_str(), ms(measured.after_s).c_str(), library_drift(measured) * 100,
                measured.before.value("sm_clock_mhz_median", 0.0), measured.before.value("duty", 0.0));
  std::printf("\n");
  for (const auto& baseline : calibration::torch_baselines()) {
    const std::string name(baseline.name);
    if (const auto ratio = entry.ratios.find(name); ratio != entry.ratios.end()) {
      const nlohmann::json& torch = entry.evidence["torch"][name];
      std::printf("    %-14s %s = %.4f x library %s (%.0f MHz, duty %.2f)\n", name.c_str(),
                  ms(ratio->second * entry.library.at(std::string(baseline.library_mode)).median_s).c_str(), ratio->second,
                  std::string(baseline.library_mode).c_str(), torch.value("sm_clock_mhz_median", 0.0), torch.value("duty", 0.0));
    } else {
      std::printf("    %-14s none: %s\n", name.c_str(), entry.errors.count(name) ? entry.errors.at(name).c_str() : "not measured");
    }
  }
  // The clocks and duties behind each ratio (calibration/clock_agreement.hpp): a ratio between
  // two clocks measures the GPU's power state as much as the code.
  for (const auto& baseline : calibration::torch_baselines()) {
    const auto clocks = calibration::compare_clocks(entry, baseline);
    if (!clocks || clocks->agree) continue;
    const nlohmann::json& torch = entry.evidence["torch"][std::string(baseline.name)];
    std::printf("    warning: %s ran at %.0f MHz (GPU duty %.2f), the library %s at %.0f MHz: its ratio compares two clocks\n",
                std::string(baseline.name).c_str(), clocks->torch_mhz, torch.value("duty", 0.0), std::string(baseline.library_mode).c_str(),
                clocks->library_mhz);
  }
  for (const auto& [mode, measured] : library)
    if (library_drift(measured) > kLibraryDriftWarning)
      std::printf("    warning: the library %s baseline moved %.1f %% across PyTorch's measurement: the GPU's state changed; "
                  "its ratios are suspect (rerun this problem)\n", mode.c_str(), library_drift(measured) * 100);
  std::fflush(stdout);
}

// Why `problem`'s entry in the file needs measuring again (--stale), judged as an evaluation on
// this GPU, driver, CUDA libraries and torch would judge it, with the library built now.
std::optional<std::string> why_measure_again(const calibration::Calibration& run, const ResolvedProblem& problem, const LibraryContenders& library,
                                                const TorchRunOptions& options) {
  calibration::DerivationInputs in;
  in.device = "cuda";
  in.device_name = run.device_name;
  in.driver = run.driver;
  in.library_versions = run.libraries;
  calibration::identify_problem(in, problem);
  for (const char* mode : {"tf32", "fp32"}) in.library_describe[mode] = library.describe(mode);
  in.torch_version = run.torch_version;
  return calibration::recalibration_reason(in, options.out, options.baselines);
}

}  // namespace

int run_torch_calibration(const TorchRunOptions& options) {
  if (!(options.max_duty > 0 && options.max_duty <= 1)) {
    std::fprintf(stderr, "kbv-calibrate --torch: --max-duty %g is not a share of the wall (fix: a number in (0, 1]; 1 times unpaced)\n", options.max_duty);
    return 2;
  }
  const ProblemCatalog catalog = ProblemCatalog::load(options.problems_dir);
  std::vector<std::string> names = options.problems.empty() ? catalog.names() : options.problems;
  for (const std::string& name : names)
    if (!catalog.contains(name)) {
      std::fprintf(stderr, "kbv-calibrate: no problem '%s' in %s (fix: kbv problems lists them)\n", name.c_str(), options.problems_dir.c_str());
      return 2;
    }
  for (const std::string& set : options.shape_sets) {
    const bool somewhere = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return catalog.get(n).shape_sets.count(set) != 0; });
    if (!somewhere) {
      std::fprintf(stderr, "kbv-calibrate: no problem asked for has a shape set '%s' (fix: --shapes default or small)\n", set.c_str());
      return 2;
    }
  }
  if (int devices = 0; cudaGetDeviceCount(&devices) != cudaSuccess || devices <= options.device) {
    std::fprintf(stderr, "kbv-calibrate: no CUDA device %d (%d visible)\n", options.device, devices);
    return 1;
  }
  cuda::measure::check(cudaSetDevice(options.device), "cudaSetDevice");
  cudaDeviceProp properties{};
  cuda::measure::check(cudaGetDeviceProperties(&properties, options.device), "cudaGetDeviceProperties");
  char bus_id[32] = {};
  cuda::measure::check(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, options.device), "cudaDeviceGetPCIBusId");

  // The file this run merges into, read before anything is measured: one kbv cannot read stops
  // the run now, with the file's own error (which says how to move it aside), not after PyTorch
  // started. Each entry is merged into the file as it is on disk then (merge_into_calibration_file).
  std::error_code missing;
  if (std::filesystem::exists(options.out, missing)) {
    try {
      (void)calibration::load_calibration_file(options.out);
    } catch (const calibration::CalibrationFileError& error) {
      std::fprintf(stderr, "kbv-calibrate --torch: the calibration file to merge into cannot be read: %s\n", error.what());
      return 2;
    }
  }

  // PyTorch first: without it there is nothing to calibrate, and the run should say so at once.
  std::unique_ptr<TorchSession> session;
  try {
    session = std::make_unique<TorchSession>(
        TorchSessionOptions{.python = options.python, .package_dir = options.package_dir, .device = std::to_string(options.device), .pci_bus_id = bus_id});
  } catch (const TorchUnavailable& error) {
    std::fprintf(stderr, "kbv-calibrate --torch: no PyTorch to calibrate against: %s\n", error.what());
    return 1;
  }
  const nlohmann::json& hello = session->hello();
  calibration::Calibration run;
  run.device_name = properties.name;
  run.driver = cuda::driver_version();
  run.libraries = cuda::library_versions();
  run.torch_version = hello.value("torch_version", "");
  run.torch_cuda = hello.value("torch_cuda", "");
  run.triton_version = hello.value("triton_version", "");
  run.python = hello.value("python", options.python);
  run.kbv_version = KBV_VERSION;
  run.measured_at = utc_now();
  std::printf("kbv-calibrate --torch on %s (%s), driver %s; torch %s (CUDA %s, triton %s) in %s; SM clock for PyTorch's samples: %s\n",
              run.device_name.c_str(), bus_id, run.driver.c_str(), run.torch_version.c_str(), run.torch_cuda.c_str(),
              run.triton_version.empty() ? "none" : run.triton_version.c_str(), run.python.c_str(), hello.value("clock", "?").c_str());

  const cuda::measure::Stream stream = cuda::measure::make_stream(cudaStreamNonBlocking);
  ColdTimer timer(stream.get(), timing::StopRule::calibration(options.max_duty));
  const nlohmann::json stop_rule = stop_rule_json(timer.rule());
  std::printf("cold timer: clock source %s, default SM clock %.0f MHz, L2 flush %zu MiB; both timers paced to a GPU duty of %g%s; writing %s after "
              "every problem\n\n",
              timer.clock_source().c_str(), timer.default_clock_mhz(), timer.flush_bytes() >> 20, options.max_duty,
              options.max_duty < 1 ? "" : " (unpaced)", options.out.c_str());

  int entries = 0, complete = 0, without_library = 0, current = 0;
  std::vector<std::string> skipped;
  for (const std::string& name : names) {
    const Problem& problem = catalog.get(name);
    for (const auto& [set, symbols] : problem.shape_sets) {
      if (!options.shape_sets.empty() && std::find(options.shape_sets.begin(), options.shape_sets.end(), set) == options.shape_sets.end()) continue;
      // Checked before the library is timed: a problem PyTorch cannot run here would cost the
      // library's timing (~10 s per problem on an H200) for an entry of nulls.
      if (const auto reason = reason_not_to_calibrate(problem, options.kernelbench_dir)) {
        std::printf("%s %s: skipped: %s\n", name.c_str(), set.c_str(), reason->c_str());
        skipped.push_back(name + " " + set);
        continue;
      }
      const ResolvedProblem resolved = resolve_problem(problem, set);
      std::unique_ptr<LibraryContenders> library;
      try {
        library = std::make_unique<LibraryContenders>(resolved);
        size_t free_bytes = 0, total_bytes = 0;
        cuda::measure::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        if (static_cast<double>(library->buffer_bytes()) > kDeviceMemoryShare * static_cast<double>(free_bytes))
          throw std::runtime_error("its inputs and outputs need " + std::to_string(library->buffer_bytes() >> 20) + " MiB, over " +
                                   std::to_string(static_cast<int>(kDeviceMemoryShare * 100)) + " % of the " + std::to_string(free_bytes >> 20) +
                                   " MiB free");
      } catch (const std::exception& error) {
        std::printf("%s %s: no library baseline to calibrate against: %s\n", name.c_str(), set.c_str(), error.what());
        ++without_library;
        continue;
      }
      if (options.stale_only) {
        const auto why = why_measure_again(run, resolved, *library, options);
        if (!why) {
          std::printf("%s %s: current in %s, not measured again (--stale)\n", name.c_str(), set.c_str(), options.out.c_str());
          ++current;
          continue;
        }
        std::printf("%s %s: measured again: %s\n", name.c_str(), set.c_str(), why->c_str());
      }
      std::map<std::string, LibraryMeasurement> measured;
      library->allocate(stream.get());
      for (const auto& [mode, result] : library->time(timer)) measured[mode] = {result.median_s, 0, library->describe(mode), timing_json(result), nullptr};
      library->release();
      const nlohmann::json request = {{"type", "measure"},
                                      {"problem", problem_description(resolved)},
                                      {"shape_set", set},
                                      {"baselines", options.baselines},
                                      {"kernelbench_dir", options.kernelbench_dir ? nlohmann::json(options.kernelbench_dir->string()) : nlohmann::json(nullptr)},
                                      {"stop_rule", stop_rule},
                                      {"default_clock_mhz", timer.default_clock_mhz()}};
      nlohmann::json reply;
      try {
        reply = session->request(request, kMeasureTimeoutSeconds);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "kbv-calibrate --torch: %s %s: %s; the %d entries before it are in %s\n", name.c_str(), set.c_str(), error.what(), entries,
                     options.out.c_str());
        return 1;
      }
      library->allocate(stream.get());
      for (const auto& [mode, result] : library->time(timer)) {
        measured[mode].after_s = result.median_s;
        measured[mode].after = timing_json(result);
      }
      library.reset();
      // Every mode's (review: only the first in the map's order, fp32, was looked at, and a TF32
      // baseline throttled throughout threw out of make_entry and ended the whole run).
      const auto unmeasured = std::find_if(measured.begin(), measured.end(),
                                           [](const auto& mode) { return mode.second.before_s <= 0 || mode.second.after_s <= 0; });
      if (unmeasured != measured.end()) {
        std::printf("%s %s: the library %s baseline kept no sample (throttled throughout): not recorded\n", name.c_str(), set.c_str(),
                    unmeasured->first.c_str());
        continue;
      }
      calibration::CalibrationEntry entry = make_entry(resolved, measured, reply, utc_now(), options.max_duty);
      print_entry(entry, measured);
      if (entry.forward == "none") skipped.push_back(name + " " + set);
      complete += entry.ratios.size() == options.baselines.size();
      ++entries;
      calibration::Calibration one = run;
      one.entries = {std::move(entry)};
      one.measured_at = utc_now();
      std::vector<std::string> notes;
      try {
        calibration::merge_into_calibration_file(options.out, std::move(one), &notes);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "kbv-calibrate --torch: %s %s: %s; the %d entries before it are in %s\n", name.c_str(), set.c_str(), error.what(),
                     entries - 1, options.out.c_str());
        return 1;
      }
      for (const std::string& note : notes) std::printf("  %s\n", note.c_str());
    }
  }
  const std::string left_alone = options.stale_only ? "; " + std::to_string(current) + " current, not measured again" : "";
  std::printf("\n%d entries written to %s: %d with every baseline asked for, %zu where PyTorch had no forward%s; %d without a library baseline%s\n",
              entries, options.out.c_str(), complete, skipped.size(), skipped.empty() ? "" : " (listed above with the reason)", without_library,
              left_alone.c_str());
  return entries > 0 || (options.stale_only && current > 0) ? 0 : 1;
}

}  // namespace kbv::calibrate
