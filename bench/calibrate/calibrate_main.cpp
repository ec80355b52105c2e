// bench/calibrate/calibrate_main.cpp — kbv-calibrate --out FILE [--device N] [--problems DIR]
//                                        [--no-conv-algorithms]
//                     kbv-calibrate --torch --out FILE [--python PATH] [--problem P]… [--shapes S]…
//                                        [--kernelbench DIR] [--torch-dir DIR] [--no-compile] [--max-duty D] [--stale]
//
// Ceilings (the default): measures, with the cold timer, what the device does at best:
//   copy_bytes_per_s   a 1 GiB device-to-device cudaMemcpy; bytes read + written per second
//   tf32_flops_per_s   cuBLAS SGEMM 8192³ in CUBLAS_TF32_TENSOR_OP_MATH on random data
//   fp32_flops_per_s   the same in CUBLAS_DEFAULT_MATH (strict fp32)
// Each rate uses the fastest sample (a ceiling: what the hardware did at least once), and the
// median is printed beside it. Writes {device_name, driver, copy_bytes_per_s,
// tf32_flops_per_s, fp32_flops_per_s, measured_at} to FILE.
// Then it builds the TF32 and FP32 baselines of every problem with a convolution (the catalog
// in DIR, default kbv's), at its default size: each runs cudnnFind, whose choice the algorithm
// cache remembers (measure/baseline/algorithm_cache.hpp), so no evaluation pays for Find.
//
// --torch: the PyTorch calibration instead (torch_run.hpp; docs/torch-calibration.md), written
// to FILE (merged into what it holds).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>

#include "measure/baseline/cuda_baseline.hpp"
#include "measure/ceilings/ceilings.hpp"
#include "measure/support/driver_version.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "measure/timing/cold_timer.hpp"
#include "inputs/secret_key.hpp"
#include "spec/catalog.hpp"
#include "torch_run.hpp"
#include "torch_session.hpp"

namespace {

using namespace kbv::cuda;

// 1 GiB: ≥ 16× the largest L2 (H200: 60 MiB), so the copy streams from and to DRAM.
constexpr size_t kCopyBytes = size_t{1} << 30;
// 8192³: large enough for cuBLAS to reach its peak rate on Hopper (docs/measurement.md, Baselines lists
// PyTorch at 3.05 ms TF32 / 21.58 ms fp32 for this size on an H200).
constexpr int kGemmSize = 8192;
// PyTorch's cuBLAS workspace on sm90 (docs/measurement.md, Baselines).
constexpr size_t kBlasWorkspaceBytes = size_t{32} << 20;

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

void print(const char* what, const TimingResult& r, double rate_at_min, const char* unit) {
  std::printf("%-28s min %.4f ms  median %.4f ms  IQR/median %.3f%%  samples %zu  throttled %zu"
              "  clock %.0f MHz  -> %.2f %s (at min), %.2f (at median)\n",
              what, r.min_s * 1e3, r.median_s * 1e3, r.median_s > 0 ? r.iqr_s / r.median_s * 100 : 0,
              r.samples, r.discarded_throttled, r.sm_clock_mhz_median, rate_at_min, unit,
              rate_at_min * r.min_s / r.median_s);
}

double gemm_rate(ColdTimer& timer, cublasMath_t math, const char* label) {
  const size_t elements = static_cast<size_t>(kGemmSize) * kGemmSize;
  const measure::DeviceMemory a(elements * sizeof(float), "GEMM A");
  const measure::DeviceMemory b(elements * sizeof(float), "GEMM B");
  const measure::DeviceMemory c(elements * sizeof(float), "GEMM C");
  const measure::DeviceMemory workspace(kBlasWorkspaceBytes, "cuBLAS workspace");
  fill_random_uniform(a.as<float>(), static_cast<int64_t>(elements), 1, 1.f, nullptr);
  fill_random_uniform(b.as<float>(), static_cast<int64_t>(elements), 2, 1.f, nullptr);
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  measure::CublasHandle handle = measure::make_cublas();
  measure::check(cublasSetMathMode(handle.get(), math), "cublasSetMathMode");
  const float one = 1.f, zero = 0.f;
  const TimingResult r = timer.measure([&](cudaStream_t stream, uint64_t) {
    measure::check(cublasSetStream(handle.get(), stream), "cublasSetStream");
    measure::check(cublasSetWorkspace(handle.get(), workspace.get(), workspace.bytes()),
                   "cublasSetWorkspace");
    measure::check(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, kGemmSize, kGemmSize,
                               kGemmSize, &one, a.as<float>(), kGemmSize, b.as<float>(),
                               kGemmSize, &zero, c.as<float>(), kGemmSize),
                   "cublasSgemm");
  });
  const double flops = 2.0 * kGemmSize * static_cast<double>(kGemmSize) * kGemmSize;
  const double rate = flops / r.min_s;
  print(label, r, rate / 1e12, "TFLOP/s");
  return rate;
}

// cudnnFind for the conv baselines of every catalog problem that has a convolution, at the
// default size (the size `kbv eval --device cuda` uses), in both math modes. Find on
// KernelBench's conv2d took 0.6–0.7 s of a machine's first conv2d eval on the H200
// (`environment.setup_s_by_step` of a conv2d eval on an empty algorithm cache).
// Every convolution op (conv1d/2d/3d and the transposed ones) counts. A baseline that cannot be
// built is named with its error and the rest still run; returns how many failed.
int remember_conv_algorithms(const std::filesystem::path& problems) {
  const kbv::ProblemCatalog catalog = kbv::ProblemCatalog::load(problems);
  int remembered = 0;
  int failed = 0;
  for (const std::string& name : catalog.names()) {
    const kbv::Problem& problem = catalog.get(name);
    const bool has_conv = std::any_of(problem.graph.begin(), problem.graph.end(), [](const kbv::Node& node) { return node.op.starts_with("conv"); });
    if (!has_conv) continue;
    const kbv::ResolvedProblem resolved = kbv::resolve_problem(problem, "default");
    for (const MathMode mode : {MathMode::tf32, MathMode::fp32}) {
      const char* mode_name = mode == MathMode::tf32 ? "tf32" : "fp32";
      const auto start = std::chrono::steady_clock::now();
      try {
        const CudaBaseline baseline(resolved, mode);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("conv algorithm, %s %s (%.2f s): %s\n", name.c_str(), mode_name, seconds, baseline.describe().c_str());
        ++remembered;
      } catch (const std::exception& error) {
        std::printf("conv algorithm, %s %s: FAILED: %s\n", name.c_str(), mode_name, error.what());
        ++failed;
      }
    }
  }
  std::printf("cuDNN algorithm choices for %d conv baseline(s) in %s; %d failed\n", remembered,
              kbv::inputs::default_algorithm_cache_path().c_str(), failed);
  return failed;
}

int usage() {
  std::fprintf(stderr, "usage: kbv-calibrate --out FILE [--device N] [--problems DIR] [--no-conv-algorithms]\n"
                       "  measures copy bandwidth and TF32/FP32 GEMM rates; writes JSON to FILE; then runs cudnnFind\n"
                       "  for the conv baselines of the problems in DIR (default: kbv's) and remembers the choices\n"
                       "       kbv-calibrate --torch --out FILE [--device N] [--problems DIR] [--python PATH] [--problem P]...\n"
                       "                     [--shapes S]... [--kernelbench DIR] [--torch-dir DIR] [--no-compile] [--max-duty D] [--stale]\n"
                       "  times PyTorch's forward of every problem (eager TF32, eager FP32, torch.compile) beside kbv's library\n"
                       "  baseline and merges the ratios into FILE (docs/torch-calibration.md); --max-duty D paces both timers to a GPU\n"
                       "  duty of at most D (default 0.25; 1: unpaced); --stale measures only the problems whose entry in FILE an\n"
                       "  evaluation could not use as it is (missing, stale, unpaced)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  int device = 0;
  std::filesystem::path problems = kbv::default_problems_directory();
  bool conv_algorithms = true;
  bool torch = false, compile = true;
  kbv::calibrate::TorchRunOptions torch_options;
  std::optional<std::filesystem::path> torch_dir;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--out") == 0 && has_value) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--device") == 0 && has_value) {
      device = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--problems") == 0 && has_value) {
      problems = argv[++i];
    } else if (std::strcmp(argv[i], "--no-conv-algorithms") == 0) {
      conv_algorithms = false;
    } else if (std::strcmp(argv[i], "--torch") == 0) {
      torch = true;
    } else if (std::strcmp(argv[i], "--python") == 0 && has_value) {
      torch_options.python = argv[++i];
    } else if (std::strcmp(argv[i], "--problem") == 0 && has_value) {
      torch_options.problems.emplace_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--shapes") == 0 && has_value) {
      torch_options.shape_sets.emplace_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--kernelbench") == 0 && has_value) {
      torch_options.kernelbench_dir = argv[++i];
    } else if (std::strcmp(argv[i], "--torch-dir") == 0 && has_value) {
      torch_dir = argv[++i];
    } else if (std::strcmp(argv[i], "--no-compile") == 0) {
      compile = false;
    } else if (std::strcmp(argv[i], "--stale") == 0) {
      torch_options.stale_only = true;
    } else if (std::strcmp(argv[i], "--max-duty") == 0 && has_value) {
      char* end = nullptr;
      torch_options.max_duty = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0') return usage();
    } else {
      return usage();
    }
  }
  if (out.empty()) return usage();
  if (torch) {
    try {
      torch_options.package_dir = kbv::calibrate::find_torch_package(torch_dir, std::filesystem::canonical("/proc/self/exe").parent_path());
      torch_options.problems_dir = problems;
      torch_options.out = out;
      torch_options.device = device;
      torch_options.baselines = {"eager_tf32", "eager_fp32"};
      if (compile) torch_options.baselines.emplace_back("compiled_tf32");
      return kbv::calibrate::run_torch_calibration(torch_options);
    } catch (const kbv::calibrate::TorchUnavailable& e) {
      std::fprintf(stderr, "kbv-calibrate --torch: %s\n", e.what());
      return 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kbv-calibrate --torch: %s\n", e.what());
      return 1;
    }
  }
  if (int devices = 0; cudaGetDeviceCount(&devices) != cudaSuccess || devices <= device) {
    std::fprintf(stderr, "kbv-calibrate: no CUDA device %d (%d visible)\n", device, devices);
    return 1;
  }
  try {
    measure::check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp properties{};
    measure::check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
    const std::string name = properties.name;

    const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
    ColdTimer timer(stream.get());
    std::printf("kbv-calibrate on %s; clock source %s, default SM clock %.0f MHz, L2 flush %zu MiB\n",
                name.c_str(), timer.clock_source().c_str(), timer.default_clock_mhz(),
                timer.flush_bytes() >> 20);

    Ceilings ceilings;
    ceilings.device_name = name;
    ceilings.driver = driver_version();
    {
      const measure::DeviceMemory source(kCopyBytes, "copy source");
      const measure::DeviceMemory target(kCopyBytes, "copy target");
      fill_random_uniform(source.as<float>(), kCopyBytes / sizeof(float), 3, 1.f, nullptr);
      measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      const TimingResult r = timer.measure([&](cudaStream_t s, uint64_t) {
        measure::check(cudaMemcpyAsync(target.get(), source.get(), kCopyBytes,
                                       cudaMemcpyDeviceToDevice, s),
                       "cudaMemcpyAsync");
      });
      ceilings.copy_bytes_per_s = 2.0 * kCopyBytes / r.min_s;  // read + write
      print("copy 1 GiB device-to-device", r, ceilings.copy_bytes_per_s / 1e12, "TB/s");
    }
    ceilings.tf32_flops_per_s = gemm_rate(timer, CUBLAS_TF32_TENSOR_OP_MATH, "SGEMM 8192^3 TF32");
    ceilings.fp32_flops_per_s = gemm_rate(timer, CUBLAS_DEFAULT_MATH, "SGEMM 8192^3 FP32");
    ceilings.measured_at = utc_now();
    save_ceilings(ceilings, out);
    std::printf("wrote %s:\n%s\n", out.c_str(), to_json(ceilings).dump(2).c_str());
    std::printf("reference (docs/measurement.md, Baselines, PyTorch eager on an H200): device copy 4.27 TB/s; "
                "matmul 8192^3 3.05 ms TF32 (%.0f TFLOP/s), 21.58 ms FP32 (%.1f TFLOP/s)\n",
                2.0 * 8192.0 * 8192 * 8192 / 3.05e-3 / 1e12,
                2.0 * 8192.0 * 8192 * 8192 / 21.58e-3 / 1e12);
    if (conv_algorithms && remember_conv_algorithms(problems) > 0) return 1;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kbv-calibrate: %s\n", e.what());
    return 1;
  }
}
