// bench/cuda_timing/cuda_timing_main.cpp — kbv_bench_cuda_timing [--problems DIR]
//     [--only NAME]... [--skip-problems] [--kernels] | --trace-cost VARIANT | --conv-engines [SHAPE]
//     | --conv-passes [PROBLEMS_DIR] | --gemm-padding [M,K,N] | --fused-chains [PROBLEMS_DIR]
//     | --column-reduce [PROBLEMS_DIR] | --linear-offers [M,N,K[;M,N,K…]]
//
// Prints, for the lead to check against docs/measurement.md, Timing and Baselines:
//   1. noise (IQR/median and relative stdev) of the cold timer on globaltimer spin kernels of
//      100 µs to 10 ms;
//   2. kbv's median for cuBLAS SGEMM 4096³ in TF32 (and FP32), next to PyTorch's;
//   3. for every problem in DIR at its default shapes (with --only, the named ones alone and
//      without 1 and 2): the TF32 and FP32 baseline medians,
//      timed interleaved on rotating input sets, with noise, achieved bandwidth or FLOP rate,
//      and what each node runs; then the TF32 baseline's time by launch unit; with --kernels,
//      every kernel of one TF32 run with its duration (CUPTI).
// --trace-cost VARIANT instead prints what the worker's CUPTI trace adds to a call, step by step
// (trace_cost.cpp), and nothing else: CUPTI, once on, stays on in the process.
// --conv-engines [N,C,H,W,K,R,S] instead times every cuDNN plan for one channels-last TF32
// convolution (conv_engines.cpp; default conv2d_relu_biasadd's shape) with the kernels each runs.
// --conv-passes [PROBLEMS_DIR] instead times each layout pass around conv2d_relu_biasadd's
// channels-last convolution in both transpose forms (conv_passes.cpp).
// --gemm-padding [M,K,N] instead times the ways to run an unaligned TF32 product (default
// KernelBench L1 #8): as called, padded as the library does, and padded into the unaligned C
// (gemm_padding.cpp). --fused-chains [PROBLEMS_DIR] instead times every fused elementwise chain of
// the problems' library baselines with the chain's interpreter unrolled and rolled (fused_chains.cpp).
// --column-reduce [PROBLEMS_DIR] instead times sum_dim1's library beside other column sums
// (column_reduce.cpp). --linear-offers [M,N,K;…] instead times every cuBLASLt algorithm the heuristic
// offers for the library's linear + bias step, cold (linear_offers.cpp; default the L3 MLPs' layers).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "measure/baseline/cuda_baseline.hpp"
#include "measure/cupti/cupti_tracer.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "measure/timing/cold_timer.hpp"
#include "ops/registry.hpp"
#include "spec/catalog.hpp"

namespace kbv::bench {
void launch_spin(unsigned long long nanoseconds, cudaStream_t stream);
int run_trace_cost(const std::string& variant);  // trace_cost.cpp
int run_conv_engines(const std::string& shape);   // conv_engines.cpp
int run_conv_passes(const std::string& problems_dir);  // conv_passes.cpp
int run_gemm_padding(const std::string& shape);        // gemm_padding.cpp
int run_fused_chains(const std::string& problems_dir);  // fused_chains.cpp
int run_column_reduce(const std::string& problems_dir);  // column_reduce.cpp
int run_linear_offers(const std::string& shapes);        // linear_offers.cpp
}

namespace {

using namespace kbv;
using namespace kbv::cuda;

// Most input sets rotated per problem: enough that no two consecutive calls of one callable
// see the same buffers (the evaluator's rule), few enough for the largest inputs (sum_dim1:
// 8.6 GB per set) to fit.
constexpr size_t kMaxInputSets = 4;
// Share of the free device memory the rotated input sets may take.
constexpr double kInputMemoryShare = 0.5;

// PyTorch 2.11 eager on an H200, median (docs/measurement.md, Baselines), where the shape matches a problem's
// default: {tf32 s, fp32 s}; memory-bound ops are the same in both modes.
const std::map<std::string, std::pair<double, double>> kPytorchReference = {
    {"matmul_square", {0.376e-3, 2.675e-3}},
    {"softmax", {1.055e-3, 1.055e-3}},
    {"layernorm", {0.238e-3, 0.238e-3}},
};

void print_result(const char* label, const TimingResult& r) {
  std::printf("  %-6s median %9.4f ms  IQR/median %6.3f%%  noise %6.3f%%  min %9.4f  max %9.4f"
              "  samples %5zu  throttled %zu  clock %4.0f MHz%s\n",
              label, r.median_s * 1e3, r.median_s > 0 ? 100 * r.iqr_s / r.median_s : 0,
              100 * r.noise, r.min_s * 1e3, r.max_s * 1e3, r.samples, r.discarded_throttled,
              r.sm_clock_mhz_median, r.hit_wall_cap ? "  (wall cap)" : "");
}

void spin_noise(ColdTimer& timer) {
  std::printf("\n== 1. cold-timer noise on globaltimer spin kernels (kernels >= 100 us)\n");
  for (unsigned long long ns : {100'000ull, 300'000ull, 1'000'000ull, 3'000'000ull,
                                10'000'000ull}) {
    const TimingResult r =
        timer.measure([ns](cudaStream_t s, uint64_t) { kbv::bench::launch_spin(ns, s); });
    char label[32];
    std::snprintf(label, sizeof(label), "%lluus", ns / 1000);
    print_result(label, r);
    std::printf("         median - nominal = %+.2f us\n", (r.median_s - ns * 1e-9) * 1e6);
  }
}

// A one-node matmul problem [n,n]·[n,n], built in code so this part needs no YAML.
ResolvedProblem square_matmul(int64_t n) {
  ResolvedProblem r;
  r.problem.name = "matmul_" + std::to_string(n);
  for (const char* name : {"a", "b"}) {
    TensorDecl d;
    d.name = name;
    r.problem.inputs.push_back(d);
    r.input_shapes.push_back({n, n});
    r.tensor_shapes[name] = {n, n};
  }
  Node node;
  node.name = "mm";
  node.op = "matmul";
  node.inputs = {"a", "b"};
  node.output = "c";
  r.problem.graph.push_back(node);
  TensorDecl c;
  c.name = "c";
  r.problem.outputs.push_back(c);
  r.output_shapes.push_back({n, n});
  r.tensor_shapes["c"] = {n, n};
  r.flops = 2.0 * n * n * n;
  r.compulsory_bytes = 3.0 * n * n * sizeof(float);
  return r;
}

// Times both baselines of `problem` interleaved on rotating inputs and prints the figures.
// Runs of a problem's TF32 baseline timed unit by unit (CudaBaseline::time_units).
constexpr int kUnitRuns = 11;

// One more TF32 run under CUPTI: every kernel it launched, in order, with its duration. CUPTI stays
// on in the process from the first problem listed on (the later problems' timings carry its
// per-launch cost: list one problem at a time, --only).
void list_kernels(CudaBaseline& tf32, const std::vector<const float*>& inputs, const std::vector<float*>& outputs, cudaStream_t stream) {
  CuptiTracer& tracer = CuptiTracer::instance();
  tf32.run(inputs, outputs, stream);  // kernels loaded outside the window
  measure::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  tracer.begin_window();
  tf32.run(inputs, outputs, stream);
  measure::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const TraceWindow window = tracer.end_window();
  double total_ms = 0;
  std::printf("  tf32 kernels of one run (CUPTI):\n");
  for (const KernelRecord& kernel : window.kernels) {
    const double ms = static_cast<double>(kernel.end_ns - kernel.start_ns) * 1e-6;
    total_ms += ms;
    std::printf("    %9.4f ms  %.150s\n", ms, kernel.name.c_str());
  }
  std::printf("    %9.4f ms  in all\n", total_ms);
}

void time_problem(const ResolvedProblem& problem, ColdTimer& timer, cudaStream_t stream, bool kernels) {
  size_t input_bytes = 0, output_bytes = 0;
  for (const Shape& s : problem.input_shapes) input_bytes += numel(s) * sizeof(float);
  for (const Shape& s : problem.output_shapes) output_bytes += numel(s) * sizeof(float);

  std::vector<measure::DeviceMemory> outputs;  // one output set per baseline (and the eager form)
  std::vector<std::vector<float*>> output_sets(3);
  for (auto& set : output_sets)
    for (const Shape& s : problem.output_shapes) {
      outputs.emplace_back(numel(s) * sizeof(float), "bench output");
      set.push_back(outputs.back().as<float>());
    }
  CudaBaseline tf32(problem, MathMode::tf32);
  CudaBaseline fp32(problem, MathMode::fp32);
  // TF32 with one launch per node, as eager runs it: timed beside the library when the library
  // fuses an elementwise chain (cuda_baseline.hpp), to show what the fusion is worth.
  CudaBaseline tf32_eager_form(problem, MathMode::tf32, false);
  const bool fused = tf32_eager_form.describe() != tf32.describe();

  size_t free_bytes = 0, total_bytes = 0;
  measure::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const size_t sets = std::clamp<size_t>(
      static_cast<size_t>(kInputMemoryShare * free_bytes) / std::max<size_t>(input_bytes, 1), 1,
      kMaxInputSets);
  std::vector<measure::DeviceMemory> inputs;
  std::vector<std::vector<const float*>> input_sets(sets);
  for (size_t set = 0; set < sets; ++set)
    for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
      const int64_t count = numel(problem.input_shapes[i]);
      inputs.emplace_back(static_cast<size_t>(count) * sizeof(float), "bench input");
      fill_random_uniform(inputs.back().as<float>(), count, 100 * set + i,
                          static_cast<float>(problem.input_scale(i)), nullptr);
      input_sets[set].push_back(inputs.back().as<float>());
    }
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  std::printf("  inputs %.1f MB x %zu sets, outputs %.1f MB, baseline workspace tf32 %.1f MB "
              "(intermediates %.1f MB), fp32 %.1f MB\n",
              input_bytes / 1e6, sets, output_bytes / 1e6, tf32.workspace_bytes() / 1e6,
              tf32.intermediate_bytes() / 1e6, fp32.workspace_bytes() / 1e6);
  std::printf("  tf32 runs:\n    %s", tf32.describe().c_str());
  std::printf("  fp32 runs:\n    %s", fp32.describe().c_str());

  std::vector<TimedCall> contenders = {
      [&](cudaStream_t s, uint64_t i) { tf32.run(input_sets[i % sets], output_sets[0], s); },
      [&](cudaStream_t s, uint64_t i) { fp32.run(input_sets[i % sets], output_sets[1], s); }};
  if (fused) {
    std::printf("  tf32 one launch per node runs:\n    %s", tf32_eager_form.describe().c_str());
    contenders.push_back([&](cudaStream_t s, uint64_t i) { tf32_eager_form.run(input_sets[i % sets], output_sets[2], s); });
  }
  const auto results = timer.measure_interleaved(contenders);
  print_result("tf32", results[0]);
  print_result("fp32", results[1]);
  if (fused) {
    print_result("tf32 unfused", results[2]);
    std::printf("  unfused/fused (tf32) = %.2fx\n", results[0].median_s > 0 ? results[2].median_s / results[0].median_s : 0);
  }
  // Where the TF32 baseline's time goes: which launch is far from bandwidth (or from the GEMM rate).
  std::printf("  tf32 by launch unit (median of %d runs, events between units; later units may find their input in L2):\n", kUnitRuns);
  for (const CudaBaseline::UnitTime& unit : tf32.time_units(input_sets[0], output_sets[0], stream, kUnitRuns)) {
    const std::string what = unit.describe.substr(0, unit.describe.find('\n'));
    std::printf("    %9.4f ms  %6.2f TB/s of its tensors  %s\n", unit.median_s * 1e3,
                unit.median_s > 0 ? unit.bytes / unit.median_s / 1e12 : 0, what.c_str());
  }
  if (kernels) list_kernels(tf32, input_sets[0], output_sets[0], stream);
  const double t = results[0].median_s, f = results[1].median_s;
  std::printf("  fp32/tf32 = %.2fx;  at the tf32 median: %.2f TB/s of compulsory bytes, "
              "%.1f TFLOP/s\n",
              t > 0 ? f / t : 0, t > 0 ? problem.compulsory_bytes / t / 1e12 : 0,
              t > 0 ? problem.flops / t / 1e12 : 0);
  if (auto it = kPytorchReference.find(problem.problem.name); it != kPytorchReference.end())
    std::printf("  PyTorch eager H200 (docs/measurement.md, Baselines): tf32 %.4f ms, fp32 %.4f ms\n",
                it->second.first * 1e3, it->second.second * 1e3);
}

int usage() {
  std::fprintf(stderr,
               "usage: kbv_bench_cuda_timing [--problems DIR] [--only NAME]... [--skip-problems] [--kernels]\n"
               "       kbv_bench_cuda_timing --trace-cost default|pinned|small-buffer|zeroed\n"
               "       kbv_bench_cuda_timing --conv-engines [N,C,H,W,K,R,S]\n"
               "       kbv_bench_cuda_timing --conv-passes [PROBLEMS_DIR]\n"
               "       kbv_bench_cuda_timing --gemm-padding [M,K,N]\n"
               "       kbv_bench_cuda_timing --fused-chains [PROBLEMS_DIR]\n"
               "       kbv_bench_cuda_timing --column-reduce [PROBLEMS_DIR]\n"
               "       kbv_bench_cuda_timing --linear-offers [M,N,K[;M,N,K...]]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path problems_dir;
  std::set<std::string> only;
  bool skip_problems = false;
  bool kernels = false;
  // The modes that print one thing each: their argument (optional but for --trace-cost), and the
  // exit status 1 with the error for anything they throw.
  const std::map<std::string, std::function<int(const std::string&)>> modes = {
      {"--trace-cost", bench::run_trace_cost}, {"--conv-engines", bench::run_conv_engines}, {"--conv-passes", bench::run_conv_passes},
      {"--gemm-padding", bench::run_gemm_padding}, {"--fused-chains", bench::run_fused_chains},
      {"--column-reduce", bench::run_column_reduce}, {"--linear-offers", bench::run_linear_offers}};
  if (argc >= 2 && argc <= 3 && modes.count(argv[1]) && (argc == 3 || std::strcmp(argv[1], "--trace-cost") != 0)) {
    try {
      return modes.at(argv[1])(argc == 3 ? argv[2] : "");
    } catch (const std::exception& error) {
      std::fprintf(stderr, "kbv_bench_cuda_timing: %s\n", error.what());
      return 1;
    }
  }
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--problems") == 0 && i + 1 < argc)
      problems_dir = argv[++i];
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only.insert(argv[++i]);
    else if (std::strcmp(argv[i], "--skip-problems") == 0)
      skip_problems = true;
    else if (std::strcmp(argv[i], "--kernels") == 0)
      kernels = true;
    else
      return usage();
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "kbv_bench_cuda_timing: no CUDA device\n");
    return 1;
  }
  int failures = 0;
  try {
    cudaDeviceProp properties{};
    measure::check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
    ColdTimer timer(stream.get());
    const StopRule& rule = timer.rule();
    const auto& stdrel = std::get<timing::StdrelParams>(rule.criterion);
    std::printf("kbv_bench_cuda_timing on %s: clock source %s, default SM clock %.0f MHz, "
                "L2 flush buffer %zu MiB\nstop rule: >= %zu samples, > %.2f s GPU time, noise < "
                "%.2f%% or plateau, wall cap %.0f s; warm-up %.2f s; throttle < %.0f%% of the "
                "default clock\n",
                properties.name, timer.clock_source().c_str(), timer.default_clock_mhz(),
                timer.flush_bytes() >> 20, stdrel.min_samples, stdrel.min_measured_seconds,
                100 * stdrel.max_noise, rule.max_wall_seconds, rule.warm_up.wall_seconds,
                100 * rule.throttle_threshold);

    // --only names the problems wanted: the timer's own checks (sections 1 and 2, ~10 s) are
    // what --skip-problems runs, and the GPU runner's timing:library asks for them apart.
    if (only.empty()) {
      spin_noise(timer);
      std::printf("\n== 2. cuBLAS SGEMM 4096^3 through the baseline (one cublasSgemm)\n");
      time_problem(square_matmul(4096), timer, stream.get(), false);
    } else {
      std::printf("\n(sections 1 and 2, the timer's own checks, skipped with --only; --skip-problems runs them alone)\n");
    }

    if (skip_problems) return 0;
    if (problems_dir.empty()) problems_dir = default_problems_directory();
    std::printf("\n== 3. every problem in %s at its default shapes\n", problems_dir.c_str());
    const ProblemCatalog catalog = ProblemCatalog::load(problems_dir);
    for (const std::string& name : catalog.names()) {
      if (!only.empty() && !only.count(name)) continue;
      std::printf("\n-- %s\n", name.c_str());
      std::fflush(stdout);
      try {
        time_problem(resolve_problem(catalog.get(name), "default"), timer, stream.get(), kernels);
      } catch (const std::exception& e) {
        ++failures;
        std::printf("  FAILED: %s\n", e.what());
        // A sticky device error ends every later measurement in this process.
        if (cudaGetLastError() != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess) throw;
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kbv_bench_cuda_timing: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
