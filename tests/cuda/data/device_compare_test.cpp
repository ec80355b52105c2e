// tests/cuda/data/device_compare_test.cpp — compare_on_device gives compare_output()'s figures
// and verdict (verify/compare.hpp) on the same buffers, edge cases included.
#include <cstring>
#include <limits>

#include "data/device_compare.hpp"
#include "gpu_test_support.hpp"

namespace kbv::cuda::testing {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Sums and the RMS are accumulated in a different order on the device (trees of partials):
// they agree with the host's sequential sums to a few ulps times log2(n).
constexpr double kSumAgreement = 1e-12;

float poison_value() {
  float value;
  std::memcpy(&value, &kPoisonBits, sizeof value);
  return value;
}

bool same_double(double a, double b, double relative) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

struct CompareCase {
  std::string label;
  std::vector<double> reference;
  std::vector<float> output;
  Tolerance tolerance;
};

// A normal reference and an output within tolerance except where `damage` says otherwise.
CompareCase mostly_close(std::string label, size_t count, uint64_t seed) {
  CompareCase c;
  c.label = std::move(label);
  c.reference = random_normal(count, seed);
  const std::vector<double> noise = random_normal(count, seed + 1);
  c.output.resize(count);
  for (size_t i = 0; i < count; ++i) c.output[i] = static_cast<float>(c.reference[i] + 1e-6 * noise[i]);
  c.tolerance = {1e-4, 1e-4, 1e-3};
  return c;
}

std::vector<CompareCase> compare_cases() {
  std::vector<CompareCase> cases;
  cases.push_back(mostly_close("all within tolerance, 3M elements (grid-stride loops)", 3'000'001, 1));

  CompareCase damaged = mostly_close("scattered violations and every non-finite kind", 100'003, 3);
  damaged.output[17] += 1.0f;                       // plain violation
  damaged.output[99'000] -= 0.5f;                   // another
  damaged.output[500] = std::numeric_limits<float>::quiet_NaN();  // NaN where ref finite
  damaged.output[501] = std::numeric_limits<float>::infinity();   // Inf where ref finite
  const float inf_f = std::numeric_limits<float>::infinity();
  const float nan_f = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<double, float>> nonfinite_pairs = {
      {kInf, inf_f},   // 600: the same infinity: agreement
      {-kInf, inf_f},  // 601: opposite infinities
      {kNaN, nan_f},   // 602: NaN and NaN: agreement
      {kNaN, 1.0f},    // 603: finite where the reference is NaN
      {kInf, 2.0f}};   // 604: finite where the reference is Inf
  for (size_t k = 0; k < nonfinite_pairs.size(); ++k) {
    damaged.reference[600 + k] = nonfinite_pairs[k].first;
    damaged.output[600 + k] = nonfinite_pairs[k].second;
  }
  for (size_t i = 7000; i < 7100; ++i) damaged.output[i] = poison_value();  // never written
  cases.push_back(damaged);

  CompareCase zeros;
  zeros.label = "all-zero reference (the tiny-RMS guard)";
  zeros.reference.assign(4099, 0.0);
  zeros.output.assign(4099, 0.0f);
  zeros.output[4097] = 1e-38f;  // within atol·1e-30: passes only thanks to the guard
  zeros.output[4098] = 1e-33f;  // beyond it: a violation
  zeros.tolerance = {1e-4, 1e-4, 1e-3};
  cases.push_back(zeros);

  CompareCase l2 = mostly_close("elementwise pass, relative L2 fail", 50'000, 5);
  l2.tolerance = {1e-4, 1e-4, 1e-9};
  cases.push_back(l2);

  CompareCase single = mostly_close("one element", 1, 7);
  single.output[0] = static_cast<float>(single.reference[0] * 2);
  cases.push_back(single);
  return cases;
}

class DeviceCompareTest : public GpuTest {};

TEST_F(DeviceCompareTest, MatchesHostCompareOutput) {
  for (const CompareCase& c : compare_cases()) {
    SCOPED_TRACE(c.label);
    const auto n = static_cast<int64_t>(c.reference.size());
    const CompareResult host = compare_output(c.output.data(), c.reference.data(), n, c.tolerance);
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    const DeviceComparison raw = compare_on_device(output.get(), reference.get(), n, c.tolerance, stream());
    const CompareResult device = to_compare_result(raw, c.tolerance);

    EXPECT_EQ(device.elements, host.elements);
    EXPECT_EQ(device.violations, host.violations);
    EXPECT_EQ(device.nonfinite_where_ref_finite, host.nonfinite_where_ref_finite);
    EXPECT_EQ(device.unwritten, host.unwritten);
    EXPECT_EQ(device.first_violation_index, host.first_violation_index);
    EXPECT_EQ(device.passed, host.passed) << "device: " << device.summary() << "\nhost:   " << host.summary();
    // Elementwise figures are computed by the same statements on both sides: a max is exact.
    EXPECT_EQ(device.max_abs_error, host.max_abs_error);
    EXPECT_TRUE(same_double(device.max_rel_error, host.max_rel_error, kSumAgreement))
        << "max_rel_error device " << device.max_rel_error << " host " << host.max_rel_error;
    EXPECT_TRUE(same_double(device.rel_l2_error, host.rel_l2_error, kSumAgreement))
        << "rel_l2_error device " << device.rel_l2_error << " host " << host.rel_l2_error;
    EXPECT_TRUE(same_double(device.ref_rms, host.ref_rms, kSumAgreement))
        << "ref_rms device " << device.ref_rms << " host " << host.ref_rms;

    double output_sum = 0, output_magnitude = 0, sum_sq_ref = 0;
    for (float v : c.output) {
      output_sum += v;
      output_magnitude += std::fabs(v);
    }
    for (double r : c.reference) sum_sq_ref += std::isfinite(r) ? r * r : 0.0;
    // Relative to Σ|out|, not to the sum itself, which may nearly cancel.
    const bool sums_agree = std::isfinite(output_sum)
                                ? std::fabs(raw.output_sum - output_sum) <= kSumAgreement * output_magnitude
                                : same_double(raw.output_sum, output_sum, 0);
    EXPECT_TRUE(sums_agree)
        << "output_sum device " << raw.output_sum << " host " << output_sum;
    EXPECT_TRUE(same_double(raw.sum_sq_ref, sum_sq_ref, kSumAgreement))
        << "sum_sq_ref device " << raw.sum_sq_ref << " host " << sum_sq_ref;
  }
}

TEST_F(DeviceCompareTest, CasesCoverBothVerdictsAndEveryCounter) {
  // Guards the test above against agreeing vacuously (both sides reporting nothing).
  bool some_pass = false, some_fail = false, nonfinite = false, unwritten = false;
  for (const CompareCase& c : compare_cases()) {
    const auto n = static_cast<int64_t>(c.reference.size());
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    const CompareResult r = to_compare_result(
        compare_on_device(output.get(), reference.get(), n, c.tolerance, stream()), c.tolerance);
    some_pass = some_pass || r.passed;
    some_fail = some_fail || !r.passed;
    nonfinite = nonfinite || r.nonfinite_where_ref_finite > 0;
    unwritten = unwritten || r.unwritten > 0;
  }
  EXPECT_TRUE(some_pass && some_fail && nonfinite && unwritten);
}

TEST_F(DeviceCompareTest, IsDeterministic) {
  CompareCase c = mostly_close("repeat", 1'000'003, 11);
  const auto output = upload(c.output);
  const auto reference = upload(c.reference);
  const DeviceComparison first = compare_on_device(output.get(), reference.get(), 1'000'003, c.tolerance, stream());
  for (int repeat = 0; repeat < 3; ++repeat) {
    const DeviceComparison again = compare_on_device(output.get(), reference.get(), 1'000'003, c.tolerance, stream());
    EXPECT_EQ(std::memcmp(&again.sum_sq_error, &first.sum_sq_error, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&again.sum_sq_ref, &first.sum_sq_ref, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&again.output_sum, &first.output_sum, sizeof(double)), 0);
  }
}

}  // namespace
}  // namespace kbv::cuda::testing
