// bench/cuda_timing/conv_passes.cpp — kbv_bench_cuda_timing --conv-passes [PROBLEMS_DIR]: each
// layout pass around conv2d_relu_biasadd's channels-last convolution (its default shapes), timed
// alone in each of the batched transpose's forms (ops/common/baseline/batched_transpose.hpp): the
// input to NHWC, the output back to NCHW with the bias alone (what every convolution without an
// epilogue runs), and the output back with the bias and the problem's relu → add (the
// convolution epilogue, conv_epilogue.hpp), beside a device-to-device copy of the same bytes.
// Round r69 timed the two forms only inside whole baselines, where the wide form gained with the
// epilogue and lost with the bias alone (docs/results/h100/conv-engines.md); this splits them,
// and times variants of the wide form (conv_pass_variants.cu: the warps' mapping onto the tile,
// the chain run per float4 or per thread, its interpreter rolled or unrolled). The library's wide
// form maps its plain transposes four_lines and the epilogue's pass two_lines (WideMapping); its
// output passes take the long-row form since r88 (H200: 0.721 ms with relu → add against the wide
// form's 0.789; 0.544 with the bias alone against the narrow form's 0.759), its input pass since
// r91 (0.276 against the wide form's 0.332). Prints figures; asserts nothing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "common/stream.hpp"
#include "measure/baseline/conv_epilogue_fold.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/support/random_fill.hpp"
#include "ops/common/baseline/batched_transpose.hpp"
#include "ops/common/baseline/conv_epilogue.hpp"
#include "ops/common/baseline/fused_elementwise.hpp"
#include "spec/catalog.hpp"
#include "conv_pass_variants.hpp"
#include "device_compare.hpp"
#include "device_present.hpp"
#include "event_median.hpp"

namespace kbv::bench {

namespace {

using cuda::measure::check;
using ops::baseline::TransposeForm;

constexpr const char* kProblem = "conv2d_relu_biasadd";
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 21;  // each pass is 0.3–1.5 ms at the default shapes: a steady median

double median_ms(const std::function<void()>& pass, cudaStream_t stream) { return event_median_ms(pass, stream, kWarmupRuns, kTimedRuns); }

void print(const char* pass, double ms, double bytes) { std::printf("  %-100s %8.4f ms  %5.2f TB/s\n", pass, ms, bytes / (ms * 1e-3) / 1e12); }

}  // namespace

int run_conv_passes(const std::string& problems_dir) {
  if (!cuda_device_present()) return 1;
  const ProblemCatalog catalog = ProblemCatalog::load(problems_dir.empty() ? default_problems_directory() : std::filesystem::path(problems_dir));
  const ResolvedProblem problem = resolve_problem(catalog.get(kProblem), "default");
  cuda::BaselineUnit folded;
  for (cuda::BaselineUnit& unit :
       cuda::fold_conv_epilogues(problem, cuda::plan_units(problem, ops::baseline::fusable_elementwise), ops::baseline::fusable_elementwise))
    if (unit.conv_epilogue) folded = unit;
  if (!folded.conv_epilogue) {
    std::fprintf(stderr, "kbv_bench_cuda_timing: %s has no folded convolution epilogue\n", kProblem);
    return 1;
  }
  const ops::baseline::ConvEpilogue epilogue(problem, folded);
  const Shape& x_shape = problem.input_shapes.at(0);  // [N, C, H, W]
  const Shape& y_shape = problem.output_shapes.at(0);  // [N, K, OH, OW]
  const int64_t images = x_shape[0], in_channels = x_shape[1], in_pixels = x_shape[2] * x_shape[3];
  const int64_t out_channels = y_shape[1], out_pixels = y_shape[2] * y_shape[3];
  const size_t x_elements = static_cast<size_t>(images * in_channels * in_pixels), y_elements = static_cast<size_t>(images * out_channels * out_pixels);

  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("Layout passes around %s's channels-last convolution on %s: input [%ld, %ld, %ld] (N, C, H·W), output [%ld, %ld, %ld] "
              "(N, K, OH·OW); epilogue %s; median of %d runs after %d (CUDA events); TB/s of bytes read and written\n\n",
              kProblem, properties.name, static_cast<long>(images), static_cast<long>(in_channels), static_cast<long>(in_pixels),
              static_cast<long>(images), static_cast<long>(out_channels), static_cast<long>(out_pixels), epilogue.describe().c_str(),
              kTimedRuns, kWarmupRuns);

  cuda::Stream stream;
  cuda::measure::DeviceMemory x(x_elements * 4, "x"), xt(x_elements * 4, "x NHWC"), yt(y_elements * 4, "y NHWC"), y(y_elements * 4, "y"),
      bias(static_cast<size_t>(out_channels) * 4, "bias"), operand(static_cast<size_t>(out_channels) * 4, "operand");
  cuda::fill_random_uniform(x.as<float>(), static_cast<int64_t>(x_elements), 1, 1.f, stream.get());
  cuda::fill_random_uniform(yt.as<float>(), static_cast<int64_t>(y_elements), 2, 1.f, stream.get());
  cuda::fill_random_uniform(bias.as<float>(), out_channels, 3, 1.f, stream.get());
  cuda::fill_random_uniform(operand.as<float>(), out_channels, 4, 1.f, stream.get());
  const double x_bytes = 2.0 * static_cast<double>(x_elements) * 4, y_bytes = 2.0 * static_cast<double>(y_elements) * 4;
  const float* chain_inputs[] = {operand.as<float>()};
  const std::span<const float* const> chain(chain_inputs, epilogue.inputs());

  for (const auto& [form, name] : {std::pair{TransposeForm::narrow, "narrow (32x32, 4-byte)"},
                                   std::pair{TransposeForm::wide_where_it_fits, "wide (64x64, float4; plain passes four_lines, the epilogue's two_lines)"},
                                   std::pair{TransposeForm::long_rows_where_it_fits, "long rows (32 columns x 128 rows, float4 loads; the input and output passes')"}}) {
    std::printf("%s\n", name);
    print("input to NHWC", median_ms([&] {
            ops::baseline::launch_batched_transpose(x.as<float>(), xt.as<float>(), images, in_channels, in_pixels, nullptr, stream.get(), form);
          }, stream.get()), x_bytes);
    print("output to NCHW with the bias", median_ms([&] {
            ops::baseline::launch_batched_transpose(yt.as<float>(), y.as<float>(), images, out_pixels, out_channels, bias.as<float>(), stream.get(), form);
          }, stream.get()), y_bytes);
    print(("output to NCHW with the bias, " + epilogue.describe()).c_str(), median_ms([&] {
            epilogue.run_transposed(yt.as<float>(), y.as<float>(), images, out_pixels, out_channels, bias.as<float>(), chain, stream.get(), form);
          }, stream.get()), y_bytes);
  }
  std::printf("variants (conv_pass_variants.cu; not the library's)\n");
  // Each variant's output against the library's of the same work (its wide form), so that a fast
  // variant is also a right one.
  cuda::measure::DeviceMemory expected(y_elements * 4, "the library's output");
  const auto library_output = [&](bool bias_only) {
    if (bias_only)
      ops::baseline::launch_batched_transpose(yt.as<float>(), expected.as<float>(), images, out_pixels, out_channels, bias.as<float>(), stream.get(),
                                              TransposeForm::wide_where_it_fits);
    else
      epilogue.run_transposed(yt.as<float>(), expected.as<float>(), images, out_pixels, out_channels, bias.as<float>(), chain, stream.get());
  };
  for (const PassVariant& variant : output_pass_variants()) {
    // NaN first (0xFF bytes), so a variant that leaves part of y unwritten shows as off by infinity.
    check(cudaMemsetAsync(y.get(), 0xFF, y_elements * 4, stream.get()), "cudaMemsetAsync");
    const auto pass = [&] {
      run_output_pass_variant(variant, problem, folded, yt.as<float>(), y.as<float>(), images, out_pixels, out_channels, bias.as<float>(),
                              chain_inputs, epilogue.inputs(), stream.get());
    };
    const double ms = median_ms(pass, stream.get());
    library_output(variant.bias_only);
    const float off = max_abs_difference(y.as<float>(), expected.as<float>(), y_elements, stream.get());
    char what[200];
    std::snprintf(what, sizeof what, "output to NCHW with the bias%s: %s (off the library by %.1e)",
                  variant.bias_only ? "" : (", " + epilogue.describe()).c_str(), variant.name.c_str(), static_cast<double>(off));
    print(what, ms, y_bytes);
  }
  {
    check(cudaMemsetAsync(xt.get(), 0xFF, x_elements * 4, stream.get()), "cudaMemsetAsync");
    const double ms = median_ms([&] { run_input_pass_bounded(x.as<float>(), xt.as<float>(), images, in_channels, in_pixels, stream.get()); },
                                stream.get());
    ops::baseline::launch_batched_transpose(x.as<float>(), expected.as<float>(), images, in_channels, in_pixels, nullptr, stream.get(),
                                            TransposeForm::wide_where_it_fits);
    const float off = max_abs_difference(xt.as<float>(), expected.as<float>(), x_elements, stream.get());
    char what[200];
    std::snprintf(what, sizeof what, "input to NHWC: wide four_lines, registers for 8 blocks an SM (off the library by %.1e)", static_cast<double>(off));
    print(what, ms, x_bytes);
  }
  std::printf("copy (cudaMemcpyAsync device to device)\n");
  print("the input's bytes", median_ms([&] {
          check(cudaMemcpyAsync(xt.get(), x.get(), x_elements * 4, cudaMemcpyDeviceToDevice, stream.get()), "cudaMemcpyAsync");
        }, stream.get()), x_bytes);
  print("the output's bytes", median_ms([&] {
          check(cudaMemcpyAsync(y.get(), yt.get(), y_elements * 4, cudaMemcpyDeviceToDevice, stream.get()), "cudaMemcpyAsync");
        }, stream.get()), y_bytes);
  return 0;
}

}  // namespace kbv::bench
