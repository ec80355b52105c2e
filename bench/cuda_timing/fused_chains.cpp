// bench/cuda_timing/fused_chains.cpp — kbv_bench_cuda_timing --fused-chains [PROBLEMS_DIR]: every
// fused elementwise chain of every problem's library baseline at its default shapes (the units
// plan_units makes of two or more elementwise nodes, measure/baseline/elementwise_groups.hpp),
// timed through the fused kernel with the chain's interpreter unrolled and rolled (fused_chain.cuh,
// run_chain_rolled: the library's since r85a, H100, where it was faster on 95 of 108 chains),
// each output checked against the unrolled one's. Inputs are uniform in [−1, 1); a problem whose
// chain's inputs do not fit beside the device's free memory is skipped with the reason. Prints
// figures; asserts nothing.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/stream.hpp"
#include "device_compare.hpp"
#include "device_present.hpp"
#include "event_median.hpp"
#include "measure/baseline/conv_epilogue_fold.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/gemm_scale_fold.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "ops/common/baseline/fused_elementwise.hpp"
#include "spec/catalog.hpp"

namespace kbv::bench {
namespace {

using cuda::measure::check;
using ops::baseline::ChainLoop;

constexpr int kWarmupRuns = 2;
constexpr int kTimedRuns = 11;
constexpr double kFreeMemoryShare = 0.8;  // leave the rest for the CUDA context and the allocator

size_t bytes_of(const Shape& shape) { return static_cast<size_t>(numel(shape)) * sizeof(float); }

// Times one fused unit both ways, or says why not.
void time_unit(const ResolvedProblem& problem, const cuda::BaselineUnit& unit, cudaStream_t stream) {
  const auto unrolled = ops::baseline::make_fused_elementwise_step(problem, unit, ChainLoop::unrolled);
  const auto rolled = ops::baseline::make_fused_elementwise_step(problem, unit, ChainLoop::rolled);
  size_t needed = 2 * bytes_of(problem.tensor_shapes.at(unit.output)), moved = bytes_of(problem.tensor_shapes.at(unit.output));
  for (const std::string& name : unit.inputs) needed += bytes_of(problem.tensor_shapes.at(name)), moved += bytes_of(problem.tensor_shapes.at(name));
  size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  if (static_cast<double>(needed) > kFreeMemoryShare * static_cast<double>(free)) {
    std::printf("  %-60s skipped: needs %.1f GB, %.1f GB free\n", rolled->describe().c_str(), static_cast<double>(needed) / 1e9,
                static_cast<double>(free) / 1e9);
    return;
  }
  std::vector<cuda::measure::DeviceMemory> inputs;
  std::vector<const float*> pointers;
  uint64_t seed = 1;
  for (const std::string& name : unit.inputs) {
    const Shape& shape = problem.tensor_shapes.at(name);
    inputs.emplace_back(bytes_of(shape), "chain input");
    cuda::fill_random_uniform(inputs.back().as<float>(), numel(shape), seed++, 1.f, stream);
    pointers.push_back(inputs.back().as<float>());
  }
  const Shape& out_shape = problem.tensor_shapes.at(unit.output);
  cuda::measure::DeviceMemory expected(bytes_of(out_shape), "unrolled output"), out(bytes_of(out_shape), "rolled output");
  const auto run = [&](cuda::measure::NodeStep& step, float* y) { step.run(pointers, y, stream); };
  const double unrolled_ms = event_median_ms([&] { run(*unrolled, expected.as<float>()); }, stream, kWarmupRuns, kTimedRuns);
  const double rolled_ms = event_median_ms([&] { run(*rolled, out.as<float>()); }, stream, kWarmupRuns, kTimedRuns);
  const float off = max_abs_difference(out.as<float>(), expected.as<float>(), static_cast<size_t>(numel(out_shape)), stream);
  const double gb = static_cast<double>(moved) / 1e9;
  std::printf("  %s\n    unrolled %8.4f ms %5.2f TB/s   rolled %8.4f ms %5.2f TB/s   rolled/unrolled %.3f   outputs differ by %.1e\n",
              rolled->describe().c_str(), unrolled_ms, gb / unrolled_ms, rolled_ms, gb / rolled_ms, rolled_ms / unrolled_ms,
              static_cast<double>(off));
}

}  // namespace

int run_fused_chains(const std::string& problems_dir) {
  if (!cuda_device_present()) return 1;
  const ProblemCatalog catalog = ProblemCatalog::load(problems_dir.empty() ? default_problems_directory() : std::filesystem::path(problems_dir));
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("Fused elementwise chains of every problem's library baseline at its default shapes on %s: the chain's interpreter unrolled "
              "and rolled (the library's); median of %d runs after %d (CUDA events); TB/s of the chain's inputs and output\n\n",
              properties.name, kTimedRuns, kWarmupRuns);
  cuda::Stream stream;
  int units = 0;
  for (const std::string& name : catalog.names()) {
    const ResolvedProblem problem = resolve_problem(catalog.get(name), "default");
    // The units the library runs (cuda_baseline.cpp): chains folded into a GEMM's alpha or a
    // convolution's epilogue are not the fused kernel's.
    const auto fusable = ops::baseline::fusable_elementwise;
    bool named = false;
    for (const cuda::BaselineUnit& unit :
         cuda::fold_conv_epilogues(problem, cuda::fold_gemm_scales(problem, cuda::plan_units(problem, fusable)), fusable)) {
      if (!unit.fused()) continue;
      if (!named) std::printf("%s\n", name.c_str()), named = true;
      ++units;
      time_unit(problem, unit, stream.get());
    }
  }
  std::printf("\n%d fused chains\n", units);
  return 0;
}

}  // namespace kbv::bench
