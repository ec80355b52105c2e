// family_classes_test.cpp — every family of a class catches what the class is there for, under
// every key tried: the rare class hides its negatives from a 32-element sample, the magnitude
// class overflows fp16 operands and exp() in every trial, the structure class gives the blocks
// of a split reduction different means along every split (docs/threat-model.md, "Input families").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "inputs/epoch_plan.hpp"
#include "inputs/family_classes.hpp"
#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace {

using kbv::inputs::Family;
using kbv::inputs::FamilyClass;

// Keys 0…n-1 as 32 bytes each (the key sweep's keys are random; these are merely distinct).
kbv::inputs::SecretKey key_number(uint32_t n) {
  std::array<uint8_t, kbv::inputs::kSecretKeyBytes> bytes{};
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((n >> (8 * (i % 4))) * 131 + i * 7);
  return kbv::inputs::SecretKey::from_bytes(bytes);
}

constexpr uint32_t kKeys = 200;
constexpr int kTrials = 3;  // kTrialsPerFamily in eval/evaluator.cpp

std::vector<float> generate(const kbv::inputs::FamilyDraw& draw, uint64_t seed, uint32_t tensor, std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<float> values(static_cast<size_t>(count));
  kbv::inputs::generate_host(values.data(), count, draw.family, draw.params, seed, tensor, kbv::inputs::axes_of_shape(shape.data(), shape.size()), 1.0);
  return values;
}

// The sampling ReLU (tests/redteam/candidates/sampling_relu.*) reads 32 evenly spaced inputs
// and copies the input when none is negative. On relu's small shape, every rare family must
// hold negatives in every trial and hide them from the sample in at least one.
TEST(FamilyClasses, RareFamiliesHideTheirNegativesFromA32ElementSample) {
  constexpr int64_t kSampled = 32;
  for (Family family : kbv::inputs::families_of(FamilyClass::rare)) {
    for (uint32_t k = 0; k < kKeys; ++k) {
      const auto draw = kbv::inputs::draw_family(key_number(k), 0, "relu", family, kTrials);
      int hidden_trials = 0;
      for (uint64_t seed : draw.trial_seeds) {
        const auto x = generate(draw, seed, 0, {16, 4096});
        ASSERT_GT(std::count_if(x.begin(), x.end(), [](float v) { return v < 0; }), 0) << kbv::inputs::family_name(family) << " key " << k;
        bool sample_sees_one = false;
        for (int64_t s = 0; s < kSampled; ++s) sample_sees_one |= x[static_cast<size_t>(s * (static_cast<int64_t>(x.size()) / kSampled))] < 0;
        hidden_trials += sample_sees_one ? 0 : 1;
      }
      EXPECT_GT(hidden_trials, 0) << kbv::inputs::family_name(family) << " key " << k;
    }
  }
}

// Half-precision operands overflow past 65504 (65520 rounds to inf) and exp() past 88.72 in
// fp32: on the smallest matmul and softmax inputs, in every trial of every key.
TEST(FamilyClasses, MagnitudeFamiliesOverflowHalfPrecisionAndExpInEveryTrial) {
  constexpr float kHalfOverflow = 65520.0f;
  constexpr float kExpOverflow = 88.73f;
  for (Family family : kbv::inputs::families_of(FamilyClass::magnitude)) {
    for (uint32_t k = 0; k < kKeys; ++k) {
      const auto gemm = kbv::inputs::draw_family(key_number(k), 0, "matmul_square", family, kTrials);
      const auto softmax = kbv::inputs::draw_family(key_number(k), 0, "softmax", family, kTrials);
      for (int trial = 0; trial < kTrials; ++trial) {
        size_t beyond_half = 0;
        for (uint32_t tensor = 0; tensor < 2; ++tensor)
          for (float v : generate(gemm, gemm.trial_seeds[static_cast<size_t>(trial)], tensor, {64, 64})) beyond_half += std::fabs(v) >= kHalfOverflow;
        EXPECT_GT(beyond_half, 0u) << kbv::inputs::family_name(family) << " key " << k << " trial " << trial;
        const auto x = generate(softmax, softmax.trial_seeds[static_cast<size_t>(trial)], 0, {16, 1024});
        EXPECT_GT(*std::max_element(x.begin(), x.end()), kExpOverflow) << kbv::inputs::family_name(family) << " key " << k << " trial " << trial;
      }
    }
  }
}

// The expected share of a row's sum of squared deviations that lies between its blocks when
// the row is split into `blocks` contiguous blocks: what a Welford/Chan merge without the
// n_a·n_b·δ²/n term loses. Computed from the structure alone (each element's mean and variance
// given its channel terms), so the noise of one draw cannot make it pass.
double between_block_share(Family family, const kbv::inputs::FamilyParams& params, const kbv::inputs::TensorAxes& axes, uint64_t row_begin,
                           uint64_t row_length, uint64_t blocks) {
  std::vector<double> mean(row_length), variance(row_length);
  for (uint64_t i = 0; i < row_length; ++i) {
    const auto terms = kbv::inputs::axis_terms<double>(family, params, 0, row_begin + i, axes);
    if (family == Family::channel_affine) {
      const double scale = std::exp2(params.b * terms.log2_scale);
      mean[i] = scale * params.a * kbv::inputs::channel_mean(terms);
      variance[i] = scale * scale;
    } else if (family == Family::outliers) {
      const double factor = terms.outlier ? params.a : 1.0;
      mean[i] = factor * kbv::inputs::kOutlierBaseOffset * kbv::inputs::channel_mean(terms);
      variance[i] = factor * factor;
    } else {
      mean[i] = params.a * terms.trend;
      variance[i] = 1.0;
    }
  }
  double row_mean = 0;
  for (double m : mean) row_mean += m;
  row_mean /= static_cast<double>(row_length);
  double total = 0, between = 0;
  for (uint64_t i = 0; i < row_length; ++i) total += variance[i] + (mean[i] - row_mean) * (mean[i] - row_mean);
  const uint64_t block = row_length / blocks;
  for (uint64_t b = 0; b < blocks; ++b) {
    double block_mean = 0;
    for (uint64_t i = b * block; i < (b + 1) * block; ++i) block_mean += mean[i];
    block_mean /= static_cast<double>(block);
    between += static_cast<double>(block) * (block_mean - row_mean) * (block_mean - row_mean);
  }
  return between / total;
}

// A LayerNorm over (C, H, W) split into 2…256 blocks per row: blocks of many channels, one
// channel, or part of one. The biased merge's relative variance error is this share, and its
// output's relative error half of it: LayerNorm's tolerance (rel-L2 1e-5) sees a share of 2e-5.
// Every structured family must put ≥ 2.5× that between the blocks for every key, whichever axis
// it leads with (the weakest case: outlier channels that inflate the row's variance and fall
// into both halves of a 2-block split).
TEST(FamilyClasses, StructureFamiliesSeparateTheBlocksOfASplitRow) {
  constexpr double kVisibleShare = 2e-5;
  constexpr double kMargin = 2.5;
  const int64_t dims[] = {2, 64, 16, 16};
  const auto geometry = kbv::inputs::axes_of_shape(dims, 4);
  const uint64_t row_length = 64 * 16 * 16;
  for (Family family : kbv::inputs::families_of(FamilyClass::structure)) {
    for (uint64_t blocks : {2u, 4u, 16u, 64u, 256u}) {
      double weakest = 1;
      for (uint32_t k = 0; k < kKeys / 4; ++k) {
        const auto draw = kbv::inputs::draw_family(key_number(k), 0, "layernorm", family, 1);
        const auto axes = kbv::inputs::structured_axes(geometry, draw.params.structure, 0);
        const double share = between_block_share(family, draw.params, axes, row_length, row_length, blocks);
        weakest = std::min(weakest, share);
        EXPECT_GT(share, kMargin * kVisibleShare)
            << kbv::inputs::family_name(family) << " key " << k << ", lead axis " << axes.lead << ", " << blocks << " blocks";
      }
      std::printf("%-15s %4u blocks per row: weakest between-block share over %u keys %.2e (visible from %.0e)\n",
                  std::string(kbv::inputs::family_name(family)).c_str(), static_cast<unsigned>(blocks), kKeys / 4, weakest, kVisibleShare);
    }
  }
}

}  // namespace
