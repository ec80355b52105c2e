// tests/cuda/data/device_inputs_test.cpp — device-generated inputs are bit-identical to
// generate_host() for every family, and fp32→fp64 widening is exact.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>

#include "data/device_inputs.hpp"
#include "gpu_test_support.hpp"
#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace kbv::cuda::testing {
namespace {

using inputs::Family;
using inputs::FamilyParams;

// A parameter inside each family's documented range (families.hpp); 0 where unused.
FamilyParams representative_params(Family family) {
  switch (family) {
    case Family::shifted: return {20.0};        // shift ∈ [5, 50]
    case Family::large: return {5000.0};        // m ∈ [1e3, 1e4]
    case Family::heavy_tailed: return {2.5};    // α ∈ [2, 3]
    case Family::sparse: return {0.7};          // p ∈ [0.5, 0.95]
    case Family::tiny: return {1e-5};           // m ∈ [1e-6, 1e-4]
    case Family::per_row_scale: return {2.0};   // k ∈ [1, 3]
    default: return {0.0};
  }
}

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Element count of the generated tensor: not a multiple of the block size, more elements than
// one block, rows of kRowLength that straddle blocks.
constexpr int64_t kCount = 10007;
constexpr uint64_t kRowLength = 97;

struct GenerationCase {
  uint64_t seed;
  uint32_t tensor;
  double scale;
};

class DeviceInputsTest : public GpuTest {};

// Timing inputs come from the same Philox bits through single-precision math: the same
// distribution, element by element within float rounding of the double path, never NaN/Inf.
// The bound is relative to the element and to the family's RMS: float cos(2πu) near its zeros
// and pow(u, −1/α) − 1 near u = 1 lose relative, not absolute, precision.
TEST_F(DeviceInputsTest, TimingInputsFollowTheExactPathWithinFloatRounding) {
  constexpr double kRelativeSlack = 1e-4;       // ~800 float ulps: far above libm differences
  constexpr double kRmsSlack = 1e-5;
  constexpr double kMaxShareBeyondSlack = 1e-3;  // a handful of amplified tail elements
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    const FamilyParams params = representative_params(family);
    std::vector<float> exact(kCount);
    inputs::generate_host(exact.data(), kCount, family, params, 7, 1, kRowLength, 1.0);
    DeviceBuffer<float> device(kCount);
    generate_timing_inputs_on_device(device.get(), kCount, family, params, 7, 1, kRowLength, 1.0, stream());
    const std::vector<float> fast = download(device.get(), kCount);
    double sum_sq = 0;
    for (float value : exact) sum_sq += static_cast<double>(value) * value;
    const double rms = std::sqrt(sum_sq / kCount);
    int64_t beyond = 0;
    for (int64_t i = 0; i < kCount; ++i) {
      ASSERT_TRUE(std::isfinite(fast[i])) << inputs::family_name(family) << " element " << i;
      const double allowed = kRelativeSlack * std::fabs(static_cast<double>(exact[i])) + kRmsSlack * rms;
      if (std::fabs(static_cast<double>(fast[i]) - exact[i]) > allowed) ++beyond;
    }
    EXPECT_LE(static_cast<double>(beyond), kMaxShareBeyondSlack * kCount) << inputs::family_name(family) << ": " << beyond << " of " << kCount;
  }
}

TEST_F(DeviceInputsTest, EveryFamilyMatchesHostBitForBit) {
  const GenerationCase cases[] = {{0x123456789abcdef0ull, 3, 0.75}, {42, 0, 1.0}};
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    for (const GenerationCase& c : cases) {
      const FamilyParams params = representative_params(family);
      std::vector<float> host(kCount);
      inputs::generate_host(host.data(), kCount, family, params, c.seed, c.tensor, kRowLength, c.scale);
      DeviceBuffer<float> device(kCount);
      generate_inputs_on_device(device.get(), kCount, family, params, c.seed, c.tensor, kRowLength,
                                c.scale, stream());
      const std::vector<float> back = download(device.get(), kCount);
      if (std::memcmp(host.data(), back.data(), kCount * sizeof(float)) == 0) continue;

      int64_t differing = 0;
      std::ostringstream first;
      for (int64_t i = 0; i < kCount; ++i) {
        if (bits_of(host[i]) == bits_of(back[i])) continue;
        if (differing++ < 5) {
          first << "\n  [" << i << "] host " << std::setprecision(9) << host[i] << " (0x" << std::hex
                << bits_of(host[i]) << ") device " << back[i] << " (0x" << bits_of(back[i])
                << std::dec << "), ulp distance "
                << std::abs(static_cast<int64_t>(bits_of(host[i])) - static_cast<int64_t>(bits_of(back[i])));
        }
      }
      ADD_FAILURE() << "family " << inputs::family_name(family) << " (param " << params.a
                    << ", seed " << c.seed << ", tensor " << c.tensor << ", scale " << c.scale
                    << "): " << differing << " of " << kCount
                    << " elements differ between generate_host and the device" << first.str();
    }
  }
}

TEST_F(DeviceInputsTest, DistinctTensorsAndSeedsGiveDistinctStreams) {
  // Guards the test above against passing vacuously (e.g. a generator that writes nothing).
  DeviceBuffer<float> a(kCount), b(kCount);
  generate_inputs_on_device(a.get(), kCount, Family::normal, {}, 7, 0, 0, 1.0, stream());
  generate_inputs_on_device(b.get(), kCount, Family::normal, {}, 7, 1, 0, 1.0, stream());
  const auto first = download(a.get(), kCount), second = download(b.get(), kCount);
  int64_t equal = 0;
  for (int64_t i = 0; i < kCount; ++i) equal += first[i] == second[i];
  EXPECT_LT(equal, kCount / 100) << "tensor ids 0 and 1 produced nearly the same values";
  double sum = 0;
  for (float v : first) sum += v;
  EXPECT_LT(std::fabs(sum / kCount), 0.1) << "N(0,1) sample mean far from 0: " << sum / kCount;
}

TEST_F(DeviceInputsTest, WideningIsExact) {
  std::vector<float> values(kCount);
  inputs::generate_host(values.data(), kCount, Family::large, {5000.0}, 9, 2, 0, 1.0);
  values[0] = 1e-45f;  // a denormal
  values[1] = -0.0f;
  const auto device = upload(values);
  DeviceBuffer<double> wide(kCount);
  widen_f32_to_f64(device.get(), wide.get(), kCount, stream());
  const auto back = download(wide.get(), kCount);
  int64_t wrong = 0;
  for (int64_t i = 0; i < kCount; ++i) {
    const double expected = values[i];
    wrong += std::memcmp(&expected, &back[i], sizeof expected) != 0;
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << kCount << " widened values differ from double(float)";
}

}  // namespace
}  // namespace kbv::cuda::testing
