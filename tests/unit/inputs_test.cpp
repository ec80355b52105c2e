// inputs_test.cpp — Philox families are reproducible and have the shapes they promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace {

using kbv::inputs::Family;

std::vector<float> draw(Family family, double param = 0, uint64_t seed = 42, uint32_t tensor = 0, int64_t count = 65536,
                        int64_t row = 256) {
  std::vector<float> values(static_cast<size_t>(count));
  kbv::inputs::generate_host(values.data(), count, family, {param}, seed, tensor, kbv::inputs::matrix_axes(count / row, row), 1.0);
  return values;
}

double mean(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }
double stdev(const std::vector<float>& v) {
  const double m = mean(v);
  double sum = 0;
  for (float x : v) sum += (x - m) * (x - m);
  return std::sqrt(sum / static_cast<double>(v.size()));
}

TEST(Inputs, SameCounterSameValue) {
  EXPECT_EQ(draw(Family::normal), draw(Family::normal));
  EXPECT_NE(draw(Family::normal, 0, 42), draw(Family::normal, 0, 43));
  EXPECT_NE(draw(Family::normal, 0, 42, 0), draw(Family::normal, 0, 42, 1));
}

TEST(Inputs, ElementDependsOnlyOnItsIndex) {
  // A prefix of a longer draw equals a shorter draw: what the device relies on to split work.
  const auto long_draw = draw(Family::heavy_tailed, 2.5, 7, 0, 4096);
  const auto short_draw = draw(Family::heavy_tailed, 2.5, 7, 0, 1000);
  EXPECT_TRUE(std::equal(short_draw.begin(), short_draw.end(), long_draw.begin()));
}

TEST(Inputs, PublicFamilyIsUnitUniform) {
  const auto values = draw(Family::uniform01);
  EXPECT_GE(*std::min_element(values.begin(), values.end()), 0.0f);
  EXPECT_LT(*std::max_element(values.begin(), values.end()), 1.0f);
  EXPECT_NEAR(mean(values), 0.5, 0.01);
}

TEST(Inputs, KernelBenchVerifiedScalings) {
  const auto negated = draw(Family::negated);
  EXPECT_LE(*std::max_element(negated.begin(), negated.end()), 0.0f);
  EXPECT_NEAR(mean(draw(Family::scaled3)), 1.5, 0.03);
  EXPECT_NEAR(mean(draw(Family::scaled001)), 0.005, 0.0002);
}

TEST(Inputs, NormalHasUnitMoments) {
  const auto values = draw(Family::normal);
  EXPECT_NEAR(mean(values), 0.0, 0.02);
  EXPECT_NEAR(stdev(values), 1.0, 0.02);
}

TEST(Inputs, ParametrisedFamiliesFollowTheirParameter) {
  EXPECT_NEAR(mean(draw(Family::shifted, 20.0)), 20.0, 0.05);
  EXPECT_NEAR(stdev(draw(Family::large, 5e4)), 5e4, 1e3);
  EXPECT_NEAR(stdev(draw(Family::tiny, 1e-5)), 1e-5, 2e-7);
  const auto sparse = draw(Family::sparse, 0.8);
  const double zeros = static_cast<double>(std::count(sparse.begin(), sparse.end(), 0.0f)) / static_cast<double>(sparse.size());
  EXPECT_NEAR(zeros, 0.8, 0.01);
}

TEST(Inputs, HeavyTailsReachFarBeyondNormal) {
  const auto values = draw(Family::heavy_tailed, 2.0);
  float largest = 0;
  for (float x : values) largest = std::max(largest, std::fabs(x));
  EXPECT_GT(largest, 50.0f);  // a normal sample of 65536 stays below ~5
}

TEST(Inputs, PerRowScaleIsConstantWithinARow) {
  const int64_t row = 512;
  const auto values = draw(Family::per_row_scale, 3.0, 9, 0, 64 * 512, row);
  std::vector<double> row_rms;
  for (size_t r = 0; r < 64; ++r) {
    double sum = 0;
    for (size_t i = 0; i < static_cast<size_t>(row); ++i) sum += values[r * row + i] * values[r * row + i];
    row_rms.push_back(std::sqrt(sum / row));
  }
  const auto [low, high] = std::minmax_element(row_rms.begin(), row_rms.end());
  EXPECT_GT(*high / *low, 100.0);  // rows differ by orders of magnitude
}

// The shapes of the new families' values: wide_range spans 1e-6…1e5 with both signs and reaches
// past fp16's largest value; the rare families look like U[0,1) but for their keyed few.
TEST(Inputs, WideRangeSpansElevenDecadesPastHalfPrecision) {
  std::vector<float> values(65536);
  kbv::inputs::generate_host(values.data(), 65536, Family::wide_range, {-6.0, 5.0}, 3, 0, kbv::inputs::vector_axes(65536), 1.0);
  float smallest = 1e30f, largest = 0;
  size_t negative = 0, past_half = 0;
  for (float x : values) {
    smallest = std::min(smallest, std::fabs(x));
    largest = std::max(largest, std::fabs(x));
    negative += x < 0;
    past_half += std::fabs(x) > 65504.0f;
  }
  EXPECT_LT(smallest, 2e-6f);
  EXPECT_GT(largest, 9e4f);
  EXPECT_NEAR(static_cast<double>(negative) / 65536.0, 0.5, 0.01);
  EXPECT_NEAR(static_cast<double>(past_half) / 65536.0, (5.0 - std::log10(65504.0)) / 11.0, 0.003);
}

TEST(Inputs, RareFamiliesAreUniformButForAKeyedFew) {
  const auto signs = draw(Family::rare_signs, 1e-3);
  const auto negative = std::count_if(signs.begin(), signs.end(), [](float x) { return x < 0; });
  EXPECT_NEAR(static_cast<double>(negative) / 65536.0, 1e-3, 4e-4);
  for (float x : signs) ASSERT_LT(std::fabs(x), 1.0f);
  std::vector<float> spikes(65536);
  kbv::inputs::generate_host(spikes.data(), 65536, Family::rare_spikes, {2e-3, 500.0}, 42, 0, kbv::inputs::vector_axes(65536), 1.0);
  size_t big = 0, big_negative = 0;
  for (float x : spikes) {
    if (std::fabs(x) < 1.0f) continue;
    ASSERT_GE(std::fabs(x), 250.0f);
    ASSERT_LT(std::fabs(x), 500.0f);
    ++big;
    big_negative += x < 0;
  }
  EXPECT_NEAR(static_cast<double>(big) / 65536.0, 2e-3, 6e-4);
  EXPECT_GT(big_negative, big / 4);
}

// Structured families: the per-position statistics along every axis are a property of the
// family's structure seed, the same for every trial seed; the lead axis is keyed.
kbv::inputs::TensorAxes layernorm_like() {
  const int64_t dims[] = {4, 8, 16, 16};
  return kbv::inputs::axes_of_shape(dims, 4);
}

// Mean of the values at each position along `axis`.
std::vector<double> means_along(const std::vector<float>& values, const kbv::inputs::TensorAxes& axes, uint32_t axis) {
  std::vector<double> sums(axes.extent[axis], 0.0);
  for (size_t i = 0; i < values.size(); ++i) sums[kbv::inputs::axis_position(i, axes, axis)] += values[i];
  for (double& sum : sums) sum /= static_cast<double>(values.size() / axes.extent[axis]);
  return sums;
}

TEST(Inputs, StructureIsTheEpochsAndNoiseTheTrials) {
  const auto axes = layernorm_like();
  const int64_t count = 4 * 8 * 16 * 16;
  {
    const Family family = Family::channel_affine;
    const kbv::inputs::FamilyParams params{1.0, 1.5, 0x5eed};
    std::vector<float> first(count), second(count), other(count);
    kbv::inputs::generate_host(first.data(), count, family, params, 1, 0, axes, 1.0);
    kbv::inputs::generate_host(second.data(), count, family, params, 2, 0, axes, 1.0);
    kbv::inputs::FamilyParams moved = params;
    moved.structure = 0x5eee;
    kbv::inputs::generate_host(other.data(), count, family, moved, 1, 0, axes, 1.0);
    EXPECT_NE(first, second) << kbv::inputs::family_name(family);
    // Channel means along every axis agree between trials far better than with another structure.
    for (uint32_t axis = 0; axis < 4; ++axis) {
      const auto a = means_along(first, axes, axis), b = means_along(second, axes, axis), c = means_along(other, axes, axis);
      double same = 0, different = 0;
      for (size_t i = 0; i < a.size(); ++i) {
        same += (a[i] - b[i]) * (a[i] - b[i]);
        different += (a[i] - c[i]) * (a[i] - c[i]);
      }
      EXPECT_LT(same, different) << "axis " << axis;
    }
  }
}

TEST(Inputs, EveryAxisLeadsForSomeStructureSeed) {
  const auto geometry = layernorm_like();
  std::set<uint32_t> leads;
  for (uint64_t structure = 1; structure <= 64; ++structure) leads.insert(kbv::inputs::structured_axes(geometry, structure, 0).lead);
  EXPECT_EQ(leads, (std::set<uint32_t>{0, 1, 2, 3}));
  const int64_t bias_dims[] = {8, 1, 1};  // axes of extent 1 never lead
  for (uint64_t structure = 1; structure <= 16; ++structure)
    EXPECT_EQ(kbv::inputs::structured_axes(kbv::inputs::axes_of_shape(bias_dims, 3), structure, 0).lead, 0u);
  EXPECT_EQ(kbv::inputs::structured_axes(kbv::inputs::axes_of_shape(nullptr, 0), 7, 0).lead, 0u);  // a scalar: none (== rank 0)
}

// An outlier channel along the lead axis is 20–100× the others, and there is at least one.
TEST(Inputs, OutlierChannelsAreFarLargerThanTheRest) {
  const auto geometry = layernorm_like();
  const int64_t count = 4 * 8 * 16 * 16;
  for (uint64_t structure = 1; structure <= 8; ++structure) {
    const kbv::inputs::FamilyParams params{50.0, 0.01, structure};
    const auto axes = kbv::inputs::structured_axes(geometry, structure, 0);
    std::vector<float> values(count);
    kbv::inputs::generate_host(values.data(), count, Family::outliers, params, 3, 0, geometry, 1.0);
    std::vector<double> rms(axes.extent[axes.lead], 0.0);
    for (size_t i = 0; i < values.size(); ++i) rms[kbv::inputs::axis_position(i, axes, axes.lead)] += values[i] * values[i];
    const auto [low, high] = std::minmax_element(rms.begin(), rms.end());
    EXPECT_GT(std::sqrt(*high / *low), 20.0) << "structure " << structure << ", lead axis " << axes.lead;
    // The same channels are outliers in another trial: they belong to the epoch's structure.
    std::vector<float> again(count);
    kbv::inputs::generate_host(again.data(), count, Family::outliers, params, 4, 0, geometry, 1.0);
    std::vector<double> rms_again(rms.size(), 0.0);
    for (size_t i = 0; i < again.size(); ++i) rms_again[kbv::inputs::axis_position(i, axes, axes.lead)] += again[i] * again[i];
    for (size_t p = 0; p < rms.size(); ++p) EXPECT_EQ(rms[p] > 100 * *low, rms_again[p] > 100 * *low) << "structure " << structure << " position " << p;
  }
}

// Offsets and trends stay within 1.5 noise units, so every element is negative with probability
// in [6.7 %, 93.3 %]: a kernel that dispatches on the sign share of a sample takes one path.
TEST(Inputs, StructuredFamiliesKeepBothSignsEverywhere) {
  const auto axes = layernorm_like();
  const int64_t count = 4 * 8 * 16 * 16;
  for (Family family : {Family::channel_affine, Family::outliers, Family::trend}) {
    for (uint64_t structure = 1; structure <= 8; ++structure) {
      const kbv::inputs::FamilyParams params{family == Family::outliers ? 100.0 : 1.5, family == Family::outliers ? 0.02 : 3.0, structure};
      std::vector<float> values(count);
      kbv::inputs::generate_host(values.data(), count, family, params, 5, 0, axes, 1.0);
      const double negative = static_cast<double>(std::count_if(values.begin(), values.end(), [](float x) { return x < 0; })) / count;
      EXPECT_GT(negative, 0.15) << kbv::inputs::family_name(family) << " structure " << structure;
      EXPECT_LT(negative, 0.85) << kbv::inputs::family_name(family) << " structure " << structure;
    }
  }
}

// The CUDA timing draw hands out words by inputs::uses_normal: a Box–Muller family gets a full
// second word, the others one word read twice (its top 24 bits for the value, bit 0 for a sign).
// So a family outside uses_normal must read nothing of r1 but bit 0, and one inside must read its
// high bits; otherwise two elements of a quad would share their values.
TEST(Inputs, UsesNormalSaysWhichFamiliesReadAllOfTheSecondWord) {
  const auto axes = kbv::inputs::structured_axes(layernorm_like(), 0x5eed, 0);
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    const kbv::inputs::FamilyParams params{family == Family::sparse ? 0.5 : 2.5, 3.0, 0x5eed};
    bool reads_high_bits = false;
    for (uint32_t r0 : {0x12345678u, 0x9abcdef0u, 0x31415926u}) {
      for (uint32_t r1 : {0x00000000u, 0x87654321u, 0xfffffffeu}) {
        // r2 = 0xffffffff: the sparse family's normal path (a = 0.5 zeros below it).
        const auto value = [&](uint32_t word) {
          return kbv::inputs::family_value_from_bits<double>(family, params, r0, word, 0xffffffffu, 7, 0, 37, axes);
        };
        for (uint32_t bit = 1; bit < 32; ++bit) reads_high_bits |= value(r1) != value(r1 ^ (1u << bit));
      }
    }
    EXPECT_EQ(reads_high_bits, kbv::inputs::uses_normal(family)) << kbv::inputs::family_name(family);
  }
}

// Adding the axes one at a time (what the timing draw does, the shared ones once per quad) gives
// axis_terms' terms exactly: the same sums in the same order.
TEST(Inputs, AxisSumsAddedOneAtATimeAreAxisTerms) {
  const auto geometry = layernorm_like();
  for (Family family : {Family::channel_affine, Family::outliers, Family::trend}) {
    const kbv::inputs::FamilyParams params{1.0, 0.02, 0x77};
    const auto axes = kbv::inputs::structured_axes(geometry, params.structure, 1);
    kbv::inputs::AxisSums<double> outer;
    const uint64_t line_start = 3 * 16 * 16 + 5 * 16;  // a line of the innermost axis
    for (uint32_t a = 0; a + 1 < axes.rank; ++a)
      kbv::inputs::add_axis_terms(outer, family, params, 1, kbv::inputs::axis_position(line_start, axes, a), axes, a);
    for (uint64_t k = 0; k < 16; ++k) {
      kbv::inputs::AxisSums<double> sums = outer;
      kbv::inputs::add_axis_terms(sums, family, params, 1, k, axes, axes.rank - 1);
      const auto split = kbv::inputs::mean_terms(sums);
      const auto whole = kbv::inputs::axis_terms<double>(family, params, 1, line_start + k, axes);
      EXPECT_EQ(split.drift, whole.drift);
      EXPECT_EQ(split.offset, whole.offset);
      EXPECT_EQ(split.trend, whole.trend);
      EXPECT_EQ(split.log2_scale, whole.log2_scale);
      EXPECT_EQ(split.outlier, whole.outlier);
    }
  }
}

TEST(Inputs, EveryFamilyHasAName) {
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    const auto name = kbv::inputs::family_name(family);
    EXPECT_EQ(kbv::inputs::family_from_name(name), family);
  }
  EXPECT_FALSE(kbv::inputs::family_from_name("nonsense"));
}

}  // namespace
