// tests/cuda/data/device_compare_test.cpp — compare_on_device gives compare_output()'s figures
// and verdict (verify/compare.hpp) on the same buffers, edge cases included; pass_in_one_read
// gives the two-pass verdict wherever it gives one.
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

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
  int64_t row_length = 0;  // verify/compare.hpp's local RMS rows; 0: the whole output's RMS
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

  // Rows 10^±3 apart (per_row_scale), errors of 2e-3 of each row's own RMS: every element passes
  // by its row's RMS, where the whole output's RMS alone fails the largest rows
  // (tests/unit/compare_test.cpp): both sides must agree on the row rule.
  CompareCase rows = mostly_close("rows of 1000 at scales 10^-3..10^3 (local RMS)", 1'000'000, 9);
  rows.row_length = 1000;
  rows.tolerance = {1e-2, 0, 1e-1};
  const std::vector<double> offsets = random_normal(rows.reference.size(), 10);
  for (size_t i = 0; i < rows.reference.size(); ++i) {
    const size_t row = i / 1000;
    const double scale = std::pow(10.0, -3.0 + 6.0 * static_cast<double>(row) / 999.0);
    rows.reference[i] *= scale;
    rows.output[i] = static_cast<float>(rows.reference[i] + 2e-3 * scale * offsets[i]);
  }
  rows.reference[123'456] = kNaN;  // a row's non-finite value is left out of its RMS
  rows.output[123'456] = std::numeric_limits<float>::quiet_NaN();
  cases.push_back(rows);
  return cases;
}

class DeviceCompareTest : public GpuTest {};

// The device's verdict and figures against compare_output()'s on the same buffers: counts, the
// verdict and the maxima exactly (the same statements on both sides), sums to kSumAgreement.
void expect_same_comparison(const CompareResult& device, const CompareResult& host) {
  EXPECT_EQ(device.elements, host.elements);
  EXPECT_EQ(device.violations, host.violations);
  EXPECT_EQ(device.nonfinite_where_ref_finite, host.nonfinite_where_ref_finite);
  EXPECT_EQ(device.unwritten, host.unwritten);
  EXPECT_EQ(device.first_violation_index, host.first_violation_index);
  EXPECT_EQ(device.passed, host.passed) << "device: " << device.summary() << "\nhost:   " << host.summary();
  EXPECT_EQ(device.by_error_scale, host.by_error_scale);
  EXPECT_EQ(device.max_abs_error, host.max_abs_error);
  EXPECT_TRUE(same_double(device.max_rel_error, host.max_rel_error, kSumAgreement))
      << "max_rel_error device " << device.max_rel_error << " host " << host.max_rel_error;
  EXPECT_TRUE(same_double(device.rel_l2_error, host.rel_l2_error, kSumAgreement))
      << "rel_l2_error device " << device.rel_l2_error << " host " << host.rel_l2_error;
  EXPECT_TRUE(same_double(device.ref_rms, host.ref_rms, kSumAgreement))
      << "ref_rms device " << device.ref_rms << " host " << host.ref_rms;
}

TEST_F(DeviceCompareTest, MatchesHostCompareOutput) {
  for (const CompareCase& c : compare_cases()) {
    SCOPED_TRACE(c.label);
    const auto n = static_cast<int64_t>(c.reference.size());
    const CompareResult host = compare_output(c.output.data(), c.reference.data(), n, c.row_length, c.tolerance);
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    const DeviceComparison raw = compare_on_device(output.get(), reference.get(), n, c.row_length, c.tolerance, stream());
    const CompareResult device = to_compare_result(raw, c.tolerance);
    expect_same_comparison(device, host);

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

// With an error scale (graph/error_scale_graph.hpp) both sides give the same figures and verdict:
// scales below, near and far above |ref| (where the scale decides), zero, NaN and infinite ones.
TEST_F(DeviceCompareTest, ErrorScaleMatchesHostCompareOutput) {
  int decided_by_scale = 0;
  for (const CompareCase& c : compare_cases()) {
    SCOPED_TRACE(c.label);
    const auto n = static_cast<int64_t>(c.reference.size());
    std::vector<double> scale = random_normal(c.reference.size(), 77);
    for (size_t i = 0; i < scale.size(); ++i) scale[i] = std::fabs(scale[i]) * std::pow(10.0, static_cast<double>(i % 5) - 2.0);
    if (n > 3) {
      scale[0] = 0;
      scale[1] = kNaN;
      scale[2] = kInf;
    }
    const CompareResult plain = compare_output(c.output.data(), c.reference.data(), n, c.row_length, c.tolerance);
    const CompareResult host = compare_output(c.output.data(), c.reference.data(), n, c.row_length, c.tolerance, scale.data());
    decided_by_scale += plain.violations != host.violations;
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    const auto device_scale = upload(scale);
    ReferenceSummary summary;
    summary.compute(reference.get(), n, c.row_length, c.tolerance.atol, stream());
    const DeviceComparison raw = compare_on_device(output.get(), reference.get(), summary, n, c.row_length, c.tolerance, stream(),
                                                   device_scale.get());
    const CompareResult device = to_compare_result(raw, c.tolerance);
    EXPECT_TRUE(device.by_error_scale && host.by_error_scale);
    expect_same_comparison(device, host);
  }
  EXPECT_GT(decided_by_scale, 0) << "no case where the scale changed a violation count: the agreement above would be vacuous";
}

TEST_F(DeviceCompareTest, CasesCoverBothVerdictsAndEveryCounter) {
  // Guards the test above against agreeing vacuously (both sides reporting nothing).
  bool some_pass = false, some_fail = false, nonfinite = false, unwritten = false;
  for (const CompareCase& c : compare_cases()) {
    const auto n = static_cast<int64_t>(c.reference.size());
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    const CompareResult r = to_compare_result(
        compare_on_device(output.get(), reference.get(), n, c.row_length, c.tolerance, stream()), c.tolerance);
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
  const DeviceComparison first = compare_on_device(output.get(), reference.get(), 1'000'003, 0, c.tolerance, stream());
  for (int repeat = 0; repeat < 3; ++repeat) {
    const DeviceComparison again = compare_on_device(output.get(), reference.get(), 1'000'003, 0, c.tolerance, stream());
    EXPECT_EQ(std::memcmp(&again.sum_sq_error, &first.sum_sq_error, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&again.sum_sq_ref, &first.sum_sq_ref, sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(&again.output_sum, &first.output_sum, sizeof(double)), 0);
  }
}

// A summary computed once gives every later comparison against the same reference the
// figures of the two-pass comparison, bit for bit; a summary of another size or atol is refused.
TEST_F(DeviceCompareTest, SummarisedReferenceGivesTheSameFigures) {
  for (const CompareCase& c : compare_cases()) {
    SCOPED_TRACE(c.label);
    const auto n = static_cast<int64_t>(c.reference.size());
    const auto output = upload(c.output);
    const auto reference = upload(c.reference);
    ReferenceSummary summary;
    summary.compute(reference.get(), n, c.row_length, c.tolerance.atol, stream());
    const DeviceComparison two_pass = compare_on_device(output.get(), reference.get(), n, c.row_length, c.tolerance, stream());
    for (int repeat = 0; repeat < 2; ++repeat) {
      const DeviceComparison one_pass = compare_on_device(output.get(), reference.get(), summary, n, c.row_length, c.tolerance, stream());
      EXPECT_EQ(one_pass.violations, two_pass.violations);
      EXPECT_EQ(one_pass.nonfinite_where_ref_finite, two_pass.nonfinite_where_ref_finite);
      EXPECT_EQ(one_pass.unwritten, two_pass.unwritten);
      EXPECT_EQ(one_pass.first_violation_index, two_pass.first_violation_index);
      for (auto [mine, theirs] : {std::pair{one_pass.max_abs_error, two_pass.max_abs_error}, {one_pass.max_rel_error, two_pass.max_rel_error},
                                  {one_pass.sum_sq_error, two_pass.sum_sq_error}, {one_pass.sum_sq_ref, two_pass.sum_sq_ref},
                                  {one_pass.ref_rms, two_pass.ref_rms}, {one_pass.output_sum, two_pass.output_sum}})
        EXPECT_EQ(std::memcmp(&mine, &theirs, sizeof(double)), 0) << mine << " vs " << theirs;
    }
    Tolerance other = c.tolerance;
    other.atol *= 2;
    EXPECT_THROW((void)compare_on_device(output.get(), reference.get(), summary, n, c.row_length, other, stream()), std::logic_error);
    EXPECT_THROW((void)compare_on_device(output.get(), reference.get(), summary, n - 1, c.row_length, c.tolerance, stream()), std::logic_error);
    if (n % 64 == 0) {  // a summary without rows (or with others) is refused for rows of 64
      EXPECT_THROW((void)compare_on_device(output.get(), reference.get(), summary, n, c.row_length == 64 ? 0 : 64, c.tolerance, stream()),
                   std::logic_error);
    }
  }
}

// Trivial outputs judged without being written get the verdict compare_on_device gives them
// written out: constants, and inputs repeated to the output's length (one that wraps many
// times, one longer than the grid stride, one of the output's own length, one of a single
// element); with and without outliers excused; in one pass and in two.
TEST_F(DeviceCompareTest, TrivialOutputsGetTheVerdictOfTheirWrittenComparison) {
  constexpr int64_t kCount = 3'000'017;  // over one grid stride (4096 × 256): positions wrap per thread
  std::vector<std::vector<float>> inputs;
  for (int64_t length : {int64_t{7}, int64_t{1'500'007}, kCount, int64_t{1}}) {
    const std::vector<double> values = random_normal(static_cast<size_t>(length), 30 + static_cast<uint64_t>(length));
    inputs.emplace_back(values.begin(), values.end());
  }
  // The reference is input 0 repeated, within tolerance, except for a few elements: its copy
  // passes only while those are excused as outliers; everything else fails (the infinite and
  // poison constants through the non-finite and unwritten rules).
  std::vector<double> reference(static_cast<size_t>(kCount));
  for (int64_t i = 0; i < kCount; ++i) reference[static_cast<size_t>(i)] = inputs[0][static_cast<size_t>(i % 7)] * (1 + 1e-5);
  for (size_t i : {size_t{5}, size_t{2'000'000}, size_t{kCount - 1}}) reference[i] += 0.01;  // violations within 10× the allowance
  const std::vector<float> constants{0.0f, 0.25f, std::numeric_limits<float>::infinity(), poison_value()};

  const auto device_reference = upload(reference);
  std::vector<DeviceBuffer<float>> device_inputs;
  TrivialOutputs trivial;
  trivial.constants = constants;
  for (const auto& input : inputs) {
    device_inputs.push_back(upload(input));
    trivial.repeated_inputs.emplace_back(device_inputs.back().get(), static_cast<int64_t>(input.size()));
  }
  // Each trivial output written out on the host, for the ordinary comparison.
  std::vector<DeviceBuffer<float>> written;
  for (size_t k = 0; k < constants.size() + inputs.size(); ++k) {
    std::vector<float> values(static_cast<size_t>(kCount));
    for (int64_t i = 0; i < kCount; ++i)
      values[static_cast<size_t>(i)] = k < constants.size() ? constants[k] : inputs[k - constants.size()][static_cast<size_t>(i) % inputs[k - constants.size()].size()];
    written.push_back(upload(values));
  }

  const Tolerance strict{1e-3, 1e-3, 1e-2};
  Tolerance excusing = strict;
  excusing.outlier_fraction = 1e-6;  // 3 outliers allowed among 3 000 017
  bool some_pass = false, some_fail = false;
  for (const Tolerance& tolerance : {strict, excusing}) {
    ReferenceSummary summary;
    summary.compute(device_reference.get(), kCount, 0, tolerance.atol, stream());
    const std::vector<bool> judged = trivial_outputs_pass_on_device(device_reference.get(), summary, kCount, 0, trivial, tolerance, stream());
    ASSERT_EQ(judged.size(), written.size());  // 8: one full pass and part of a second
    for (size_t k = 0; k < written.size(); ++k) {
      const CompareResult expected =
          to_compare_result(compare_on_device(written[k].get(), device_reference.get(), kCount, 0, tolerance, stream()), tolerance);
      EXPECT_EQ(judged[k], expected.passed) << "trivial output " << k << ", outlier fraction " << tolerance.outlier_fraction << ": "
                                            << expected.summary();
      some_pass = some_pass || expected.passed;
      some_fail = some_fail || !expected.passed;
    }
    // Constants twice over: the verdicts come back in order, whichever pass judged them.
    TrivialOutputs doubled = trivial;
    doubled.constants.insert(doubled.constants.end(), constants.begin(), constants.end());
    const std::vector<bool> twice = trivial_outputs_pass_on_device(device_reference.get(), summary, kCount, 0, doubled, tolerance, stream());
    ASSERT_EQ(twice.size(), judged.size() + constants.size());
    for (size_t k = 0; k < constants.size(); ++k) {
      EXPECT_EQ(twice[k], judged[k]);
      EXPECT_EQ(twice[constants.size() + k], judged[k]);
    }
    for (size_t k = constants.size(); k < judged.size(); ++k) EXPECT_EQ(twice[constants.size() + k], judged[k]);
  }
  EXPECT_TRUE(some_pass && some_fail);
}

// With rows, trivial outputs get the verdict of their written comparison too: a reference of
// rows 10^±2 apart whose upper rows a constant near their values passes only by their own RMS.
TEST_F(DeviceCompareTest, TrivialOutputsWithRowsGetTheVerdictOfTheirWrittenComparison) {
  constexpr int64_t kRow = 512, kRows = 4'000;  // 2 048 000 elements: over one grid stride
  constexpr int64_t kCount = kRow * kRows;
  std::vector<double> reference(static_cast<size_t>(kCount));
  const std::vector<double> noise = random_normal(reference.size(), 51);
  for (int64_t i = 0; i < kCount; ++i) {
    const double scale = std::pow(10.0, -2.0 + 4.0 * static_cast<double>(i / kRow) / (kRows - 1));
    reference[static_cast<size_t>(i)] = scale * (1.0 + 1e-3 * noise[static_cast<size_t>(i)]);
  }
  const auto device_reference = upload(reference);
  TrivialOutputs trivial;
  trivial.constants = {0.0f, 1.0f, 100.0f};
  std::vector<DeviceBuffer<float>> written;
  for (float constant : trivial.constants) written.push_back(upload(std::vector<float>(static_cast<size_t>(kCount), constant)));
  for (const Tolerance tolerance : {Tolerance{1e-1, 1e-1, 1.0}, Tolerance{1e-1, 1e-1, 1.0, 1e-3}}) {
    for (int64_t row_length : {int64_t{0}, kRow}) {
      ReferenceSummary summary;
      summary.compute(device_reference.get(), kCount, row_length, tolerance.atol, stream());
      const std::vector<bool> judged =
          trivial_outputs_pass_on_device(device_reference.get(), summary, kCount, row_length, trivial, tolerance, stream());
      ASSERT_EQ(judged.size(), written.size());
      for (size_t k = 0; k < written.size(); ++k) {
        const CompareResult expected = to_compare_result(
            compare_on_device(written[k].get(), device_reference.get(), kCount, row_length, tolerance, stream()), tolerance);
        EXPECT_EQ(judged[k], expected.passed) << "constant " << trivial.constants[k] << ", rows of " << row_length << ", outliers "
                                              << tolerance.outlier_fraction << ": " << expected.summary();
      }
    }
  }
}

// The element pass skips the division wherever an element cannot raise the running max ratio;
// The one-read verdict (a timed output's recheck, a correctness trial) against the two-pass
// comparison of the same buffers: where it gives a verdict, that verdict is the two-pass one's, a
// pass, with every figure bit for bit but max_rel_error (not measured: NaN); it gives none where the two-pass
// comparison fails; and it does give one to an output well inside its tolerance (else the
// recheck would only have gained a pass).
class OneReadVerdictTest : public GpuTest {
 protected:
  // `Reference`: float (a timed output's recheck) or double (a correctness trial).
  template <class Reference>
  void expect_one_read_agrees(const std::vector<float>& output, const std::vector<Reference>& reference, const Tolerance& tolerance,
                              std::optional<bool> expect_one_read) const {
    const auto n = static_cast<int64_t>(reference.size());
    const auto device_output = upload(output);
    const auto device_reference = upload(reference);
    const DeviceComparison two_pass = compare_on_device(device_output.get(), device_reference.get(), n, 0, tolerance, stream());
    const CompareResult verdict = to_compare_result(two_pass, tolerance);
    const std::optional<DeviceComparison> one_read = pass_in_one_read(device_output.get(), device_reference.get(), n, tolerance, stream());
    if (expect_one_read) {
      EXPECT_EQ(one_read.has_value(), *expect_one_read) << "two-pass: " << verdict.summary();
    }
    if (!one_read) return;
    EXPECT_TRUE(verdict.passed) << "one read passed what the two-pass comparison fails: " << verdict.summary();
    EXPECT_TRUE(to_compare_result(*one_read, tolerance).passed);
    EXPECT_TRUE(std::isnan(one_read->max_rel_error));
    EXPECT_EQ(one_read->elements, two_pass.elements);
    EXPECT_EQ(one_read->violations, 0);
    EXPECT_EQ(one_read->nonfinite_where_ref_finite, 0);
    EXPECT_EQ(one_read->unwritten, 0);
    EXPECT_EQ(one_read->first_violation_index, -1);
    EXPECT_FALSE(one_read->by_error_scale);
    for (auto [mine, theirs] : {std::pair{one_read->max_abs_error, two_pass.max_abs_error}, {one_read->sum_sq_error, two_pass.sum_sq_error},
                                {one_read->sum_sq_ref, two_pass.sum_sq_ref}, {one_read->ref_rms, two_pass.ref_rms},
                                {one_read->output_sum, two_pass.output_sum}})
      EXPECT_EQ(std::memcmp(&mine, &theirs, sizeof(double)), 0) << mine << " vs " << theirs;
  }
};

std::vector<float> narrowed(const std::vector<double>& values) { return {values.begin(), values.end()}; }

TEST_F(OneReadVerdictTest, IsTheTwoPassVerdictWhereItGivesOne) {
  for (const CompareCase& c : compare_cases()) {
    SCOPED_TRACE(c.label);
    const std::vector<float> reference = narrowed(c.reference);
    const bool within = c.label.rfind("all within tolerance", 0) == 0;
    const bool fails = c.label.rfind("all within tolerance", 0) != 0 && c.label.rfind("rows", 0) != 0;  // the others fail on purpose
    const std::optional<bool> expected = within ? std::optional(true) : fails ? std::optional(false) : std::nullopt;
    expect_one_read_agrees(c.output, reference, c.tolerance, expected);     // fp32 reference
    expect_one_read_agrees(c.output, c.reference, c.tolerance, expected);  // fp64
  }
}

// Elements placed k allowances from their reference (k = 0.5 … 1.01, both signs, atol = rtol =
// 1e-2 so that fp32 places them to ~10⁻⁵ of an allowance): below the bound by more than the
// margin one read passes them; at and beyond it, never.
TEST_F(OneReadVerdictTest, StopsShortOfTheBoundary) {
  constexpr size_t kCount = 1'000'003;
  const Tolerance tolerance{1e-2, 1e-2, 1.0};
  const std::vector<float> reference = narrowed(random_normal(kCount, 51));
  double sum_sq = 0;
  for (float r : reference) sum_sq += static_cast<double>(r) * r;
  const double abs_allowance = tolerance.atol * std::sqrt(sum_sq / kCount);
  for (const double k : {0.5, 0.99, 0.999, 1.001, 1.01}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    std::vector<float> output = reference;
    for (size_t i = 0; i < kCount; i += 997) {  // every 997th element, alternating signs
      const double allowed = abs_allowance + tolerance.rtol * std::fabs(static_cast<double>(reference[i]));
      output[i] = static_cast<float>(reference[i] + ((i / 997) % 2 == 0 ? k : -k) * allowed);
    }
    expect_one_read_agrees(output, reference, tolerance, k < 1 ? std::optional(true) : std::optional(false));
    const std::vector<double> wide(reference.begin(), reference.end());
    expect_one_read_agrees(output, wide, tolerance, k < 1 ? std::optional(true) : std::optional(false));
  }
}

// max_rel_error must still be the largest ratio, exactly, when the largest one comes last, first,
// among equal ratios, or alone among exact elements.
TEST_F(DeviceCompareTest, MaxRatioIsExactWhateverTheOrder) {
  constexpr int64_t kCount = 2'000'003;
  // atol 0: the allowance is rtol·|ref| on both sides, with no RMS (whose sums differ in order
  // between host and device), so the quotients are the same doubles.
  const Tolerance tolerance{0.0, 1e-3, 1.0};
  std::vector<double> reference = random_normal(kCount, 41);
  for (auto& r : reference) r = static_cast<float>(r);  // exact in fp32: outputs can match it exactly
  for (const char* order : {"rising", "falling", "equal", "exact but one"}) {
    SCOPED_TRACE(order);
    const std::string name = order;
    std::vector<float> output(static_cast<size_t>(kCount));
    for (int64_t i = 0; i < kCount; ++i) {
      const double step = name == "rising" ? static_cast<double>(i) / kCount : name == "falling" ? 1.0 - static_cast<double>(i) / kCount
                        : name == "equal" ? 0.5 : (i == kCount - 5 ? 0.7 : 0.0);
      output[static_cast<size_t>(i)] = static_cast<float>(reference[static_cast<size_t>(i)] * (1 + 1e-4 * step));
    }
    const CompareResult host = compare_output(output.data(), reference.data(), kCount, 0, tolerance);
    const auto device_output = upload(output);
    const auto device_reference = upload(reference);
    const CompareResult device = to_compare_result(compare_on_device(device_output.get(), device_reference.get(), kCount, 0, tolerance, stream()), tolerance);
    EXPECT_GT(host.max_rel_error, 0.0);
    EXPECT_EQ(device.max_rel_error, host.max_rel_error);  // a max over the same correctly rounded quotients
  }
}

}  // namespace
}  // namespace kbv::cuda::testing
