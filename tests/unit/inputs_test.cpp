// inputs_test.cpp — Philox families are reproducible and have the shapes they promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace {

using kbv::inputs::Family;

std::vector<float> draw(Family family, double param = 0, uint64_t seed = 42, uint32_t tensor = 0, int64_t count = 65536,
                        uint64_t row = 256) {
  std::vector<float> values(static_cast<size_t>(count));
  kbv::inputs::generate_host(values.data(), count, family, {param}, seed, tensor, row, 1.0);
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
  EXPECT_NEAR(stdev(draw(Family::large, 5000.0)), 5000.0, 100.0);
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
  const uint64_t row = 512;
  const auto values = draw(Family::per_row_scale, 3.0, 9, 0, 64 * 512, row);
  std::vector<double> row_rms;
  for (size_t r = 0; r < 64; ++r) {
    double sum = 0;
    for (size_t i = 0; i < row; ++i) sum += values[r * row + i] * values[r * row + i];
    row_rms.push_back(std::sqrt(sum / row));
  }
  const auto [low, high] = std::minmax_element(row_rms.begin(), row_rms.end());
  EXPECT_GT(*high / *low, 100.0);  // rows differ by orders of magnitude
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
