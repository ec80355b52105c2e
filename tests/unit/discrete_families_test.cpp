// discrete_families_test.cpp — what every family draws for int64 and bool inputs
// (inputs/discrete_families.hpp) on the host: values inside the range, the public family's
// torch.randint / Bernoulli(½), each hidden family's kind (sparse, dense, rare, skewed, extremes,
// few classes, structure along the lead axis), fresh values for every seed. The device's draw is
// checked bit for bit against these in tests/cuda/data/device_inputs_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "inputs/discrete_families.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace {

using kbv::DType;
using kbv::IntegerRange;
using kbv::inputs::Family;
using kbv::inputs::FamilyDraw;
using kbv::inputs::TensorAxes;

// A keyed draw of `family`, as an epoch would make it.
FamilyDraw draw_of(Family family, uint64_t epoch = 3) {
  const auto key = kbv::inputs::SecretKey::from_bytes({1, 2, 3, 4, 5, 6, 7, 8});
  return kbv::inputs::draw_family(key, epoch, "discrete_test", family, 2);
}

std::vector<int64_t> integers(const FamilyDraw& draw, uint64_t seed, const TensorAxes& geometry, IntegerRange range, int64_t count) {
  std::vector<int64_t> values(static_cast<size_t>(count));
  kbv::inputs::generate_host_typed(values.data(), DType::int64, count, draw.family, draw.params, seed, 1, geometry, 1.0, range);
  return values;
}

std::vector<uint8_t> masks(const FamilyDraw& draw, uint64_t seed, const TensorAxes& geometry, int64_t count) {
  std::vector<uint8_t> values(static_cast<size_t>(count));
  kbv::inputs::generate_host_typed(values.data(), DType::boolean, count, draw.family, draw.params, seed, 2, geometry, 1.0, {});
  return values;
}

double share_true(const std::vector<uint8_t>& values) {
  return static_cast<double>(std::count(values.begin(), values.end(), uint8_t{1})) / static_cast<double>(values.size());
}

std::vector<Family> every_family() {
  std::vector<Family> families;
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) families.push_back(static_cast<Family>(f));
  return families;
}

constexpr int64_t kCount = 1 << 16;

TEST(DiscreteFamilies, EveryFamilyStaysInsideTheRangeAndWritesOnlyZeroOrOne) {
  const TensorAxes geometry = kbv::inputs::matrix_axes(256, 256);
  for (Family family : every_family()) {
    const FamilyDraw draw = draw_of(family);
    for (const IntegerRange range : {IntegerRange{0, 1}, IntegerRange{0, 40}, IntegerRange{-7, 3}, IntegerRange{5, 16777216}}) {
      const std::vector<int64_t> values = integers(draw, 11, geometry, range, kCount);
      const auto [low, high] = std::minmax_element(values.begin(), values.end());
      EXPECT_GE(*low, range.low) << kbv::inputs::family_name(family);
      EXPECT_LT(*high, range.high) << kbv::inputs::family_name(family);
    }
    for (uint8_t value : masks(draw, 11, geometry, kCount)) ASSERT_LE(value, 1) << kbv::inputs::family_name(family);
  }
}

// KernelBench's torch.randint(0, n) and torch.randint(0, 2).bool(): every class about equally
// often, half the mask true.
TEST(DiscreteFamilies, PublicFamilyIsUniformClassesAndAFairMask) {
  const FamilyDraw draw = draw_of(Family::uniform01);
  const std::vector<int64_t> values = integers(draw, 5, kbv::inputs::vector_axes(kCount), {0, 16}, kCount);
  std::map<int64_t, int> counts;
  for (int64_t v : values) ++counts[v];
  ASSERT_EQ(counts.size(), 16u);
  const double expected = kCount / 16.0, sigma = std::sqrt(expected);
  for (const auto& [value, count] : counts) EXPECT_NEAR(count, expected, 5 * sigma) << "class " << value;
  EXPECT_NEAR(share_true(masks(draw, 5, kbv::inputs::vector_axes(kCount), kCount)), 0.5, 0.01);
}

TEST(DiscreteFamilies, HiddenFamiliesDrawTheirKind) {
  const TensorAxes flat = kbv::inputs::vector_axes(kCount);
  const IntegerRange range{0, 1000};
  const auto count_of = [](const std::vector<int64_t>& values, int64_t v) {
    return static_cast<double>(std::count(values.begin(), values.end(), v)) / static_cast<double>(values.size());
  };
  {  // sparse: the first class with the family's zero share, and a mask that is mostly false
    const FamilyDraw draw = draw_of(Family::sparse);
    EXPECT_NEAR(count_of(integers(draw, 1, flat, range, kCount), 0), draw.params.a, 0.02);
    EXPECT_NEAR(share_true(masks(draw, 1, flat, kCount)), 1 - draw.params.a, 0.02);
  }
  {  // negated: a dense mask
    EXPECT_GT(share_true(masks(draw_of(Family::negated), 1, flat, kCount)), 0.88);
  }
  {  // rare: one class nearly everywhere; a mask true (false) but for a keyed few
    for (Family family : {Family::rare_signs, Family::rare_spikes}) {
      const FamilyDraw draw = draw_of(family);
      const std::vector<int64_t> values = integers(draw, 1, flat, range, kCount);
      std::map<int64_t, int> counts;
      for (int64_t v : values) ++counts[v];
      const auto majority = std::max_element(counts.begin(), counts.end(), [](auto& a, auto& b) { return a.second < b.second; });
      EXPECT_GT(majority->second, kCount * 0.99);
      EXPECT_GT(counts.size(), 2u) << "some elements take other classes";
      const double share = share_true(masks(draw, 1, flat, kCount));
      if (family == Family::rare_signs) EXPECT_GT(share, 0.99);
      else EXPECT_LT(share, 0.01);
      EXPECT_TRUE(share > 0 && share < 1) << "the rare values are there";
    }
  }
  {  // magnitude: only the two ends of the range
    const std::vector<int64_t> values = integers(draw_of(Family::large), 1, flat, range, kCount);
    EXPECT_EQ(std::set<int64_t>(values.begin(), values.end()), (std::set<int64_t>{0, 999}));
  }
  {  // small: at most four classes, the same for all elements of a draw when k = 1
    const std::vector<int64_t> values = integers(draw_of(Family::tiny), 1, flat, range, kCount);
    EXPECT_LE(std::set<int64_t>(values.begin(), values.end()).size(), 4u);
  }
  {  // shifted: a window of ⌈1000/16⌉ = 63 consecutive classes (modulo the range)
    const std::vector<int64_t> values = integers(draw_of(Family::shifted), 1, flat, range, kCount);
    EXPECT_LE(std::set<int64_t>(values.begin(), values.end()).size(), 63u);
  }
  {  // heavy_tailed: most draws in a tenth of the range, at one end
    const std::vector<int64_t> values = integers(draw_of(Family::heavy_tailed), 1, flat, range, kCount);
    const double low = static_cast<double>(std::count_if(values.begin(), values.end(), [](int64_t v) { return v < 100; })) / kCount;
    const double high = static_cast<double>(std::count_if(values.begin(), values.end(), [](int64_t v) { return v >= 900; })) / kCount;
    EXPECT_GT(std::max(low, high), 0.4) << "low tenth " << low << ", high tenth " << high;
  }
}

// Structure along the lead axis (structured_axes picks it): every position along it holds one
// class within a run of positions; trend masks are prefixes or suffixes of each line; per-row
// masks have their own density per row.
TEST(DiscreteFamilies, StructuredFamiliesFollowTheLeadAxis) {
  const TensorAxes geometry = kbv::inputs::matrix_axes(64, 48);
  for (uint64_t epoch = 0; epoch < 6; ++epoch) {
    for (Family family : {Family::channel_affine, Family::trend}) {
      const FamilyDraw draw = draw_of(family, epoch);
      const TensorAxes axes = kbv::inputs::structured_axes(geometry, draw.params.structure, 1);
      ASSERT_LT(axes.lead, 2u);
      const std::vector<int64_t> values = integers(draw, 9, geometry, {0, 1000}, 64 * 48);
      if (family == Family::channel_affine) {
        std::map<uint64_t, std::set<int64_t>> classes_at;
        for (uint64_t i = 0; i < values.size(); ++i) classes_at[kbv::inputs::axis_position(i, axes, axes.lead)].insert(values[i]);
        for (const auto& [position, classes] : classes_at) EXPECT_EQ(classes.size(), 1u) << "lead-axis position " << position << ", epoch " << epoch;
      } else {
        // Sorted along the lead axis: the first and last positions' classes lie apart.
        double first = 0, last = 0;
        const uint64_t extent = axes.extent[axes.lead];
        for (uint64_t i = 0; i < values.size(); ++i) {
          const uint64_t position = kbv::inputs::axis_position(i, axes, axes.lead);
          if (position == 0) first += static_cast<double>(values[i]);
          if (position == extent - 1) last += static_cast<double>(values[i]);
        }
        EXPECT_GT(std::fabs(first - last) / static_cast<double>(values.size() / extent), 500.0) << "epoch " << epoch;
      }
    }
    const FamilyDraw trend = draw_of(Family::trend, epoch);
    const TensorAxes axes = kbv::inputs::structured_axes(geometry, trend.params.structure, 2);
    const std::vector<uint8_t> mask = masks(trend, 9, geometry, 64 * 48);
    const uint64_t other = 1 - axes.lead;
    for (uint64_t line = 0; line < axes.extent[other]; ++line) {
      int changes = 0;
      for (uint64_t p = 1; p < axes.extent[axes.lead]; ++p) {
        const uint64_t at = line * axes.inner[other] + p * axes.inner[axes.lead];
        changes += mask[at] != mask[at - axes.inner[axes.lead]];
      }
      EXPECT_LE(changes, 1) << "line " << line << " of a length mask, epoch " << epoch;
    }
  }
  const std::vector<uint8_t> rows = masks(draw_of(Family::per_row_scale), 9, kbv::inputs::matrix_axes(200, 100), 200 * 100);
  double spread = 0;
  for (int r = 0; r < 200; ++r) {
    const double share = std::count(rows.begin() + r * 100, rows.begin() + (r + 1) * 100, uint8_t{1}) / 100.0;
    spread += (share - 0.5) * (share - 0.5);
  }
  EXPECT_GT(std::sqrt(spread / 200), 0.2) << "one density per row spreads the row means far past Bernoulli(½)'s 0.05";
}

// Every trial and timing sample draws fresh values: the seed changes them, in every family.
TEST(DiscreteFamilies, EveryFamilyDrawsFreshValuesForEverySeedAndTheSameForOne) {
  const TensorAxes geometry = kbv::inputs::matrix_axes(256, 256);
  for (Family family : every_family()) {
    const FamilyDraw draw = draw_of(family);
    EXPECT_EQ(integers(draw, 1, geometry, {0, 40}, kCount), integers(draw, 1, geometry, {0, 40}, kCount)) << kbv::inputs::family_name(family);
    EXPECT_NE(integers(draw, 1, geometry, {0, 40}, kCount), integers(draw, 2, geometry, {0, 40}, kCount)) << kbv::inputs::family_name(family);
    EXPECT_NE(masks(draw, 1, geometry, kCount), masks(draw, 2, geometry, kCount)) << kbv::inputs::family_name(family);
  }
}

}  // namespace
