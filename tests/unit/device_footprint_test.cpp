// tests/unit/device_footprint_test.cpp — the trusted side's device memory for a problem, summed
// from its shapes, and the resource message when it does not fit (no GPU).
#include <gtest/gtest.h>

#include "eval/device_footprint.hpp"
#include "spec/catalog.hpp"

namespace kbv::eval {
namespace {

ResolvedProblem bundled(const std::string& name, const std::string& shape_set) {
  const auto catalog = ProblemCatalog::load(KBV_PROBLEMS_DIR);
  return resolve_problem(catalog.get(name), shape_set);
}

TEST(DeviceFootprint, ReluAtKernelBenchsSizeIsItsTensorsByRole) {
  // relu 4096 × 393216: one input and one output of 1.61e9 elements, no intermediate.
  const ResolvedProblem relu = bundled("relu", "default");
  const double n = 4096.0 * 393216;
  const DeviceFootprint f = trusted_device_footprint(relu);
  EXPECT_DOUBLE_EQ(f.arena_bytes, 2 * 2 * n * 4);     // two slots of x and y in fp32
  EXPECT_DOUBLE_EQ(f.reference_bytes, 2 * n * 8);     // fp64 x and y
  EXPECT_DOUBLE_EQ(f.baseline_bytes, 2 * n * 4);      // the TF32 and the FP32 baselines' y
  EXPECT_DOUBLE_EQ(f.error_scale_bytes, 0);          // no product: no error scale
  EXPECT_DOUBLE_EQ(f.total(), f.arena_bytes + f.reference_bytes + f.baseline_bytes + kScratchReserveBytes);
}

TEST(DeviceFootprint, IntermediatesCountAtTheirPeak) {
  // conv2d_relu_biasadd: conv → t0 → relu → t1 → add → y. The baselines hold t0 and t1 together
  // while relu runs, so their peak is two of them; the fp64 reference writes relu over t0 and the
  // add over t1, so its chain lives in y's own slot (graph/in_place.hpp): no intermediate.
  const ResolvedProblem problem = bundled("conv2d_relu_biasadd", "small");
  const double y = static_cast<double>(numel(problem.output_shapes[0]));
  double inputs = 0;
  for (const Shape& shape : problem.input_shapes) inputs += static_cast<double>(numel(shape));
  const DeviceFootprint f = trusted_device_footprint(problem);
  EXPECT_DOUBLE_EQ(f.reference_bytes, (inputs + y) * 8);
  EXPECT_DOUBLE_EQ(f.baseline_bytes, 2 * (y + 2 * y) * 4);
  // The products' error scale: S itself (y's size) and, while the convolution of squares runs, at
  // least x² beside it, in fp64.
  const double x = static_cast<double>(numel(problem.input_shapes[0]));
  EXPECT_GE(f.error_scale_bytes, (y + x) * 8);
  EXPECT_DOUBLE_EQ(f.total(), f.arena_bytes + f.reference_bytes + f.baseline_bytes + f.error_scale_bytes + kScratchReserveBytes);
}

TEST(DeviceFootprint, KernelBenchsConv2dFitsAnEightyGigabyteGpu) {
  // conv2d 16×16×1024×1024 → 16×128×1022×1022: its error scale sqrt(conv(x², w²)) needs S and the
  // squares only, the convolution being written into S (graph/in_place.hpp). Before, the
  // convolution's own 17.1 GB buffer made 94.2 GB, refused on an H100 with 82.6 GB free (r92).
  const ResolvedProblem problem = bundled("conv2d", "default");
  const double x = 16.0 * 16 * 1024 * 1024, w = 128.0 * 16 * 3 * 3, y = 16.0 * 128 * 1022 * 1022;
  const DeviceFootprint f = trusted_device_footprint(problem);
  EXPECT_DOUBLE_EQ(f.reference_bytes, (x + w + y) * 8);
  EXPECT_DOUBLE_EQ(f.error_scale_bytes, (y + x + w) * 8);
  EXPECT_NEAR(f.total(), 77.1e9, 0.1e9);
  EXPECT_FALSE(why_it_does_not_fit(problem, f, 82.6e9).has_value());
}

TEST(DeviceFootprint, Int64InputsTakeTheirBytesInTheArenaAndAFloatCopyForTheBaselines) {
  // cross_entropy 32768 × 4096 logits, 32768 int64 targets, a one-element loss.
  const ResolvedProblem problem = bundled("cross_entropy", "default");
  const double logits = 32768.0 * 4096, targets = 32768;
  const DeviceFootprint f = trusted_device_footprint(problem);
  EXPECT_DOUBLE_EQ(f.arena_bytes, 2 * (logits * 4 + targets * 8 + 1 * 4));
  EXPECT_DOUBLE_EQ(f.reference_bytes, (logits + targets + 1) * 8);
  EXPECT_DOUBLE_EQ(f.baseline_bytes, (2 * 1 + targets) * 4);
}

TEST(DeviceFootprint, TooLargeIsNamedWithItsFiguresAndTheFix) {
  const ResolvedProblem relu = bundled("relu", "default");
  const DeviceFootprint f = trusted_device_footprint(relu);
  EXPECT_FALSE(why_it_does_not_fit(relu, f, f.total()).has_value());
  const auto why = why_it_does_not_fit(relu, f, 40e9);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("problem relu at shape set 'default'"), std::string::npos) << *why;
  EXPECT_NE(why->find("40.0 GB free"), std::string::npos) << *why;
  EXPECT_NE(why->find("fp64 reference 25.8 GB"), std::string::npos) << *why;
  EXPECT_NE(why->find("--shapes small"), std::string::npos) << *why;
  // The host's wording: its available memory, not a device's (relu at KernelBench's size, say).
  const auto on_host = why_it_does_not_fit(relu, f, 8e9, "host");
  ASSERT_TRUE(on_host.has_value());
  EXPECT_NE(on_host->find("of memory on the trusted side"), std::string::npos) << *on_host;
  EXPECT_NE(on_host->find("the host has 8.0 GB available"), std::string::npos) << *on_host;
}

}  // namespace
}  // namespace kbv::eval
