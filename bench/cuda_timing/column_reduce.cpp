// bench/cuda_timing/column_reduce.cpp — kbv_bench_cuda_timing --column-reduce [PROBLEMS_DIR]:
// sum_dim1's library baseline (a sum over the middle axis of [128, 4096, 4095], default shapes)
// beside the column sums of column_reduce_variants.cu, each output compared with the library's
// on the device, and a device-to-device copy of the input's bytes for the rate a read could reach.
// r83 (H100): the library 3.179 ms against PyTorch eager's 2.875 (issue #13); r88 (H200): float4
// sums through the rows' period 1.951 ms against the plain kernel's 2.094, which the library then
// took (axis_f32.cuh, reduce_columns_by_period). Prints figures; asserts nothing.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "column_reduce_variants.hpp"
#include "common/stream.hpp"
#include "device_compare.hpp"
#include "device_present.hpp"
#include "event_median.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "spec/catalog.hpp"

namespace kbv::bench {
namespace {

using cuda::measure::check;

constexpr const char* kProblem = "sum_dim1";
constexpr int kWarmupRuns = 2;
constexpr int kTimedRuns = 11;  // each run is ~3 ms over 8.6 GB

void print(const std::string& what, double ms, double read_bytes) {
  std::printf("  %-64s %8.4f ms  %5.2f TB/s read\n", what.c_str(), ms, read_bytes / (ms * 1e-3) / 1e12);
}

}  // namespace

int run_column_reduce(const std::string& problems_dir) {
  if (!cuda_device_present()) return 1;
  const ProblemCatalog catalog = ProblemCatalog::load(problems_dir.empty() ? default_problems_directory() : std::filesystem::path(problems_dir));
  const ResolvedProblem problem = resolve_problem(catalog.get(kProblem), "default");
  const Shape& x_shape = problem.input_shapes.at(0);  // [outer, extent, inner]
  if (x_shape.size() != 3) throw std::invalid_argument(std::string(kProblem) + "'s input is not 3-D");
  const int64_t outer = x_shape[0], extent = x_shape[1], inner = x_shape[2];
  const size_t x_count = static_cast<size_t>(outer * extent * inner), y_count = static_cast<size_t>(outer * inner);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("%s: y[o, i] = sum over a of x[o, a, i], x [%ld, %ld, %ld] on %s; median of %d runs after %d (CUDA events)\n\n", kProblem,
              static_cast<long>(outer), static_cast<long>(extent), static_cast<long>(inner), properties.name, kTimedRuns, kWarmupRuns);

  cuda::Stream stream;
  cuda::measure::DeviceMemory x(x_count * 4, "x"), y(y_count * 4, "y"), expected(y_count * 4, "the library's y");
  cuda::fill_random_uniform(x.as<float>(), static_cast<int64_t>(x_count), 1, 1.f, stream.get());
  const double read_bytes = 4.0 * static_cast<double>(x_count);

  cuda::CudaBaseline library(problem, cuda::MathMode::tf32);
  std::printf("the library: %s\n", library.describe().substr(0, library.describe().find('\n')).c_str());
  print("library", event_median_ms([&] { library.run({x.as<float>()}, {expected.as<float>()}, stream.get()); }, stream.get(), kWarmupRuns, kTimedRuns),
        read_bytes);
  for (const ColumnReduceVariant& variant : column_reduce_variants()) {
    // NaN first (0xFF bytes), so a variant that leaves y unwritten shows as off by infinity.
    check(cudaMemsetAsync(y.get(), 0xFF, y_count * 4, stream.get()), "cudaMemsetAsync");
    const double ms = event_median_ms(
        [&] { run_column_reduce_variant(variant, x.as<float>(), y.as<float>(), outer, extent, inner, stream.get()); },
                                      stream.get(), kWarmupRuns, kTimedRuns);
    char what[160];
    std::snprintf(what, sizeof what, "%s (off the library by %.1e)", variant.name.c_str(),
                  static_cast<double>(max_abs_difference(y.as<float>(), expected.as<float>(), y_count, stream.get())));
    print(what, ms, read_bytes);
  }
  cuda::measure::DeviceMemory copy(x_count * 4, "copy of x");
  print("copy (cudaMemcpyAsync device to device; TB/s of its read)", event_median_ms([&] {
          check(cudaMemcpyAsync(copy.get(), x.get(), x_count * 4, cudaMemcpyDeviceToDevice, stream.get()), "cudaMemcpyAsync");
        }, stream.get(), kWarmupRuns, kTimedRuns), read_bytes);
  return 0;
}

}  // namespace kbv::bench
