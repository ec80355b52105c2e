// tests/cuda/data/device_inputs_test.cpp — device-generated inputs are bit-identical to
// generate_host() for every family (float32, and int64 and bool through generate_host_typed()),
// the timing draw keeps every family's distribution and checksums what it wrote, and widening
// (fp32, int64 and bool to fp64 and fp32) is exact, as is the precision check's bf16 rounding.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>
#include <iomanip>
#include <sstream>

#include "data/checksum.hpp"
#include "data/checksum_mix.hpp"
#include "data/device_inputs.hpp"
#include "data/timing_inputs.hpp"
#include "gpu_test_support.hpp"
#include "graph/operand_rounding.hpp"
#include "inputs/family_names.hpp"
#include "inputs/generate.hpp"

namespace kbv::cuda::testing {
namespace {

using inputs::Family;
using inputs::FamilyParams;
using kbv::DType;
using kbv::IntegerRange;

// Parameters inside each family's documented range (families.hpp); 0 where unused.
FamilyParams representative_params(Family family) {
  constexpr uint64_t kStructure = 0x5eedc0de5eedc0deull;
  switch (family) {
    case Family::shifted: return {20.0};                        // shift ∈ [5, 50]
    case Family::large: return {5e4};                           // m ∈ [2e4, 1e5]
    case Family::heavy_tailed: return {2.5};                    // α ∈ [2, 3]
    case Family::sparse: return {0.7};                          // p ∈ [0.5, 0.95]
    case Family::tiny: return {1e-5};                           // m ∈ [1e-6, 1e-4]
    case Family::per_row_scale: return {2.0};                   // k ∈ [1, 3]
    case Family::channel_affine: return {1.0, 2.0, kStructure}; // offsets ≤ a ∈ [0.5, 1.5], log2 scale ±b ∈ [1, 3]
    case Family::outliers: return {50.0, 0.1, kStructure};      // ×a ∈ [20, 100], share b (above its range: more outliers)
    case Family::trend: return {1.0, 1.5, kStructure};          // a ∈ [0.5, 1.5], γ ∈ [0.5, 2]
    case Family::wide_range: return {-6.0, 5.2};                // ±10^U(a, b)
    case Family::rare_signs: return {1e-3};                     // p ∈ [2e-4, 1e-3]
    case Family::rare_spikes: return {2e-3, 300.0};             // p ∈ [4e-4, 2e-3], b ∈ [1e2, 1e3]
    default: return {0.0};
  }
}

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The generated tensor: 7×11×13×10 = 10010 elements, not a multiple of the block size, more than
// one block, rows of 10 that straddle blocks, four axes for the structured families.
constexpr int64_t kCount = 10010;
const inputs::TensorAxes& geometry() {
  static const int64_t dims[] = {7, 11, 13, 10};
  static const inputs::TensorAxes axes = inputs::axes_of_shape(dims, 4);
  return axes;
}

struct GenerationCase {
  uint64_t seed;
  uint32_t tensor;
  double scale;
};

class DeviceInputsTest : public GpuTest {
 protected:
  // The device's draw of `count` elements of `axes` against generate_host, bit for bit; the first
  // differing elements in the failure.
  void expect_device_matches_host(const inputs::TensorAxes& axes, int64_t count, Family family, const FamilyParams& params,
                                  const GenerationCase& c, const std::string& where) const {
    std::vector<float> host(static_cast<size_t>(count));
    inputs::generate_host(host.data(), count, family, params, c.seed, c.tensor, axes, c.scale);
    DeviceBuffer<float> device(static_cast<size_t>(count));
    generate_inputs_on_device(device.get(), count, family, params, c.seed, c.tensor, axes, c.scale, stream());
    const std::vector<float> back = download(device.get(), static_cast<size_t>(count));
    if (std::memcmp(host.data(), back.data(), static_cast<size_t>(count) * sizeof(float)) == 0) return;
    int64_t differing = 0;
    std::ostringstream first;
    for (int64_t i = 0; i < count; ++i) {
      if (bits_of(host[i]) == bits_of(back[i])) continue;
      if (differing++ < 5) {
        first << "\n  [" << i << "] host " << std::setprecision(9) << host[i] << " (0x" << std::hex << bits_of(host[i]) << ") device "
              << back[i] << " (0x" << bits_of(back[i]) << std::dec << "), ulp distance "
              << std::abs(static_cast<int64_t>(bits_of(host[i])) - static_cast<int64_t>(bits_of(back[i])));
      }
    }
    ADD_FAILURE() << where << ": family " << inputs::family_name(family) << " (params " << params.a << ", " << params.b << ", structure "
                  << params.structure << ", seed " << c.seed << ", tensor " << c.tensor << ", scale " << c.scale << "): " << differing << " of "
                  << count << " elements differ between generate_host and the device" << first.str();
  }
};

// Two-sample Kolmogorov–Smirnov distance between the empirical distributions of a and b.
double ks_distance(std::vector<float> a, std::vector<float> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  size_t i = 0, j = 0;
  double worst = 0;
  while (i < a.size() && j < b.size()) {
    const float next = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == next) ++i;
    while (j < b.size() && b[j] == next) ++j;
    worst = std::max(worst, std::fabs(static_cast<double>(i) / a.size() - static_cast<double>(j) / b.size()));
  }
  return worst;
}

// Timing inputs (data/timing_inputs.hpp) come from their own Philox streams in single precision:
// element for element they differ from the exact draw, but every family must keep its
// distribution. Two-sample KS on 100 003 values each: at α = 1e-6 the critical distance is
// 0.012; rows of 7 elements give per_row_scale ~14 000 independent row scales (critical ≈ 0.03).
// The structured families share their structure (channel words) between the two draws.
TEST_F(DeviceInputsTest, TimingInputsKeepEveryFamilysDistribution) {
  constexpr int64_t kSamples = 100003;  // odd: the last checksum word is half a pair
  const inputs::TensorAxes short_rows = inputs::matrix_axes(kSamples / 7 + 1, 7);
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    const FamilyParams params = representative_params(family);
    std::vector<float> exact(kSamples);
    inputs::generate_host(exact.data(), kSamples, family, params, 7, 1, short_rows, 1.0);
    DeviceBuffer<float> device(kSamples);
    DeviceBuffer<unsigned long long> sum(1);
    check(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream()), "cudaMemsetAsync");
    generate_timing_inputs_on_device(device.get(), kSamples, family, params, 7, 1, short_rows, 1.0, 0, sum.get(), stream());
    const std::vector<float> fast = download(device.get(), kSamples);
    for (int64_t i = 0; i < kSamples; ++i) ASSERT_TRUE(std::isfinite(fast[i])) << inputs::family_name(family) << " element " << i;
    const double distance = ks_distance(exact, fast);
    const double allowed = family == Family::per_row_scale ? 0.04 : 0.015;
    std::printf("%-14s KS distance timing draw vs exact draw: %.4f (allowed %.3f)\n", std::string(inputs::family_name(family)).c_str(),
                distance, allowed);
    EXPECT_LE(distance, allowed) << inputs::family_name(family);
  }
}

// One Philox block serves four elements of the timing draw (inputs::uses_normal decides how its
// words are shared): no two elements of a quad may repeat a value or its negation, which the KS
// distances above cannot see (duplicates keep the distribution). Exact zeros (sparse) and values
// of 24 random bits (the uniform families: a chance collision 2^-24 per pair) are allowed a few.
TEST_F(DeviceInputsTest, TimingInputsGiveEveryElementOfAQuadItsOwnValue) {
  constexpr int64_t kSamples = 40000;
  const inputs::TensorAxes rows = inputs::matrix_axes(kSamples / 100, 100);
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    DeviceBuffer<float> device(kSamples);
    DeviceBuffer<unsigned long long> sum(1);
    check(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream()), "cudaMemsetAsync");
    generate_timing_inputs_on_device(device.get(), kSamples, family, representative_params(family), 11, 0, rows, 1.0, 0, sum.get(), stream());
    const std::vector<float> values = download(device.get(), kSamples);
    int64_t repeats = 0;
    for (int64_t quad = 0; quad < kSamples / 4; ++quad)
      for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
          const float a = values[4 * quad + i], b = values[4 * quad + j];
          repeats += a != 0 && std::fabs(a) == std::fabs(b);
        }
    EXPECT_LE(repeats, 2) << inputs::family_name(family) << ": elements of one quad repeat a value";
  }
}

// The checksum the timing draw accumulates is the input checksum of the bytes it wrote, for
// even and odd counts and a base that is not 8-byte aligned; different seeds, different values.
TEST_F(DeviceInputsTest, TimingInputsChecksumIsTheChecksumOfTheirBytes) {
  constexpr uint64_t kKey = 0x5eedc0ffee123457ull;
  DeviceBuffer<float> device(kCount + 1);
  DeviceBuffer<unsigned long long> sum(1);
  for (const int64_t count : {int64_t{1}, int64_t{2}, int64_t{kCount - 1}, kCount}) {
    for (const int64_t offset : {int64_t{0}, int64_t{1}}) {
      for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
        const auto family = static_cast<Family>(f);
        check(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream()), "cudaMemsetAsync");
        generate_timing_inputs_on_device(device.get() + offset, count, family, representative_params(family), 99, 2, geometry(), 0.5, kKey,
                                         sum.get(), stream());
        const unsigned long long fused = download(sum.get(), 1)[0];
        const uint64_t bytes = sizeof(float) * static_cast<uint64_t>(count);
        EXPECT_EQ(checksum_detail::finish(fused, bytes, kKey), checksum_on_device(device.get() + offset, bytes, stream(), kKey))
            << inputs::family_name(family) << ", count " << count << ", offset " << offset;
      }
    }
  }
  std::vector<std::vector<float>> draws;
  for (const uint64_t seed : {1ull, 2ull, 1ull}) {
    check(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream()), "cudaMemsetAsync");
    generate_timing_inputs_on_device(device.get(), kCount, Family::normal, {}, seed, 0, geometry(), 1.0, kKey, sum.get(), stream());
    draws.push_back(download(device.get(), kCount));
  }
  EXPECT_NE(draws[0], draws[1]);
  EXPECT_EQ(draws[0], draws[2]);
}

TEST_F(DeviceInputsTest, EveryFamilyMatchesHostBitForBit) {
  const GenerationCase cases[] = {{0x123456789abcdef0ull, 3, 0.75}, {42, 0, 1.0}};
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f)
    for (const GenerationCase& c : cases)
      expect_device_matches_host(geometry(), kCount, static_cast<Family>(f), representative_params(static_cast<Family>(f)), c, "7x11x13x10");
}

// The structured families' lines path (data/device_inputs.cu: lines of at least a warp, the axes
// before the line's summed once per line): 3×5×1×96×1 has lines of 96 along axis 3, an axis of
// extent 1 between and after, and two axes before; structure seeds are picked so that the lead
// axis is the line's axis for one and an axis before it for the other (outliers' channel choice
// then comes from the line's terms or from the line table's).
TEST_F(DeviceInputsTest, StructuredFamiliesByLinesMatchHostBitForBit) {
  static const int64_t dims[] = {3, 5, 1, 96, 1};
  const inputs::TensorAxes lines = inputs::axes_of_shape(dims, 5);
  constexpr int64_t kLinesCount = 3 * 5 * 96;
  const GenerationCase c{0x0badc0ffee0ddf00ull, 1, 0.5};
  const uint32_t inner = inputs::innermost_long_axis(lines);
  ASSERT_EQ(inner, 3u);
  std::vector<uint64_t> structures;
  for (const bool lead_on_line : {true, false})
    for (uint64_t structure = 1; structure < 1000; ++structure)
      if ((inputs::structured_axes(lines, structure, c.tensor).lead == inner) == lead_on_line) {
        structures.push_back(structure);
        break;
      }
  ASSERT_EQ(structures.size(), 2u) << "no structure seed below 1000 puts the lead axis on (or off) the line";
  for (const Family family : {Family::channel_affine, Family::outliers, Family::trend})
    for (const uint64_t structure : structures) {
      FamilyParams params = representative_params(family);
      params.structure = structure;
      expect_device_matches_host(lines, kLinesCount, family, params, c, "3x5x1x96x1 (lines)");
    }
}

// `wide` comes from the same pass as the values and equals their exact widening, on the flat and
// the lines path, and for int64 and bool (widened after the draw).
TEST_F(DeviceInputsTest, TheDrawsWideningEqualsDoubleOfWhatItWrote) {
  static const int64_t dims[] = {4, 64};
  const inputs::TensorAxes axes = inputs::axes_of_shape(dims, 2);
  constexpr int64_t kWideCount = 4 * 64;
  for (const Family family : {Family::normal, Family::channel_affine, Family::trend}) {
    DeviceBuffer<float> values(kWideCount);
    DeviceBuffer<double> wide(kWideCount);
    generate_typed_inputs_on_device(values.get(), DType::float32, kWideCount, family, representative_params(family), 11, 0, axes, 2.0,
                                    {}, stream(), inputs::InputDomain::any, wide.get());
    const std::vector<float> narrow = download(values.get(), kWideCount);
    const std::vector<double> back = download(wide.get(), kWideCount);
    for (int64_t i = 0; i < kWideCount; ++i) ASSERT_EQ(back[i], static_cast<double>(narrow[i])) << inputs::family_name(family) << " [" << i << "]";
  }
  DeviceBuffer<int64_t> classes(kWideCount);
  DeviceBuffer<double> wide(kWideCount);
  generate_typed_inputs_on_device(classes.get(), DType::int64, kWideCount, Family::uniform01, {}, 11, 1, axes, 1.0, {-5, 1000}, stream(),
                                  inputs::InputDomain::any, wide.get());
  const std::vector<int64_t> drawn = download(classes.get(), kWideCount);
  const std::vector<double> back = download(wide.get(), kWideCount);
  for (int64_t i = 0; i < kWideCount; ++i) ASSERT_EQ(back[i], static_cast<double>(drawn[i])) << "int64 [" << i << "]";
}

TEST_F(DeviceInputsTest, DistinctTensorsAndSeedsGiveDistinctStreams) {
  // Guards the test above against passing vacuously (e.g. a generator that writes nothing).
  DeviceBuffer<float> a(kCount), b(kCount);
  generate_inputs_on_device(a.get(), kCount, Family::normal, {}, 7, 0, geometry(), 1.0, stream());
  generate_inputs_on_device(b.get(), kCount, Family::normal, {}, 7, 1, geometry(), 1.0, stream());
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
  inputs::generate_host(values.data(), kCount, Family::large, {5e4}, 9, 2, geometry(), 1.0);
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

// The precision check's rounding (graph/operand_rounding.hpp) on the device equals the host's, bit
// for bit, over every magnitude, ties, denormals, signed zero, infinities and NaN.
TEST_F(DeviceInputsTest, Bf16RoundingEqualsTheHostsBitForBit) {
  std::vector<float> values(kCount);
  inputs::generate_host(values.data(), kCount, Family::wide_range, representative_params(Family::wide_range), 4, 2, geometry(), 1.0);
  const float specials[] = {1.0f + std::ldexp(1.0f, -8), 1.0f + 3 * std::ldexp(1.0f, -8), 1e-45f, -0.0f, 3.4e38f,
                            std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  std::copy(std::begin(specials), std::end(specials), values.begin());
  std::vector<double> wide(values.begin(), values.end());
  DeviceBuffer<double> device(kCount);
  ASSERT_EQ(cudaMemcpy(device.get(), wide.data(), kCount * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  round_to_bf16_in_place(device.get(), kCount, stream());
  const auto back = download(device.get(), kCount);
  int64_t wrong = 0;
  for (int64_t i = 0; i < kCount; ++i) {
    const double expected = kbv::round_to_bf16(values[i]);
    wrong += std::isnan(expected) ? !std::isnan(back[i]) : std::memcmp(&expected, &back[i], sizeof expected) != 0;
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << kCount << " rounded values differ from the host's round_to_bf16";
}

// int64 and bool inputs: the discrete draw of every family (inputs/discrete_families.hpp), with
// a structure seed and a keyed word, on a range with a negative low and on a wide one.
TEST_F(DeviceInputsTest, EveryFamilyDrawsTheSameInt64AndBoolValuesAsTheHost) {
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    FamilyParams params = representative_params(family);
    params.structure = 0x5eedc0de5eedc0deull;
    params.discrete = 0x0123456789abcdefull;
    for (const IntegerRange range : {IntegerRange{-3, 40}, IntegerRange{0, 16777216}}) {
      std::vector<int64_t> host(kCount);
      inputs::generate_host_typed(host.data(), DType::int64, kCount, family, params, 99, 1, geometry(), 1.0, range);
      DeviceBuffer<int64_t> device(kCount);
      generate_typed_inputs_on_device(device.get(), DType::int64, kCount, family, params, 99, 1, geometry(), 1.0, range, stream());
      EXPECT_EQ(download(device.get(), kCount), host) << "int64 draw of " << inputs::family_name(family) << " in [" << range.low << ", " << range.high << ")";
    }
    std::vector<uint8_t> host(kCount);
    inputs::generate_host_typed(host.data(), DType::boolean, kCount, family, params, 99, 2, geometry(), 1.0, {});
    DeviceBuffer<uint8_t> device(kCount);
    generate_typed_inputs_on_device(device.get(), DType::boolean, kCount, family, params, 99, 2, geometry(), 1.0, {}, stream());
    EXPECT_EQ(download(device.get(), kCount), host) << "bool draw of " << inputs::family_name(family);
  }
}

TEST_F(DeviceInputsTest, Int64AndBoolWidenExactlyToDoubleAndFloat) {
  const std::vector<int64_t> classes = {0, 1, -7, 4095, 16777216, -16777216, 12345};
  const std::vector<uint8_t> mask = {1, 0, 0, 1, 1, 0, 1};
  const auto device_classes = upload(classes);
  const auto device_mask = upload(mask);
  DeviceBuffer<double> wide(classes.size());
  DeviceBuffer<float> narrow(classes.size());
  widen_to_f64(device_classes.get(), DType::int64, wide.get(), static_cast<int64_t>(classes.size()), stream());
  widen_to_f32(device_classes.get(), DType::int64, narrow.get(), static_cast<int64_t>(classes.size()), stream());
  const std::vector<double> as_double = download(wide.get(), classes.size());
  const std::vector<float> as_float = download(narrow.get(), classes.size());
  for (size_t i = 0; i < classes.size(); ++i) {
    EXPECT_EQ(as_double[i], static_cast<double>(classes[i]));
    EXPECT_EQ(as_float[i], static_cast<float>(classes[i])) << "within ±2^24 every integer is a float";
    EXPECT_EQ(static_cast<int64_t>(as_float[i]), classes[i]);
  }
  widen_to_f64(device_mask.get(), DType::boolean, wide.get(), static_cast<int64_t>(mask.size()), stream());
  widen_to_f32(device_mask.get(), DType::boolean, narrow.get(), static_cast<int64_t>(mask.size()), stream());
  const std::vector<double> mask_double = download(wide.get(), mask.size());
  const std::vector<float> mask_float = download(narrow.get(), mask.size());
  for (size_t i = 0; i < mask.size(); ++i) {
    EXPECT_EQ(mask_double[i], mask[i] ? 1.0 : 0.0);
    EXPECT_EQ(mask_float[i], mask[i] ? 1.0f : 0.0f);
  }
}

// The input checksum over an int64 or bool tensor's real bytes: the device and its host twin
// agree, and a change in the last byte (an int64's high half, the last mask byte) shows.
TEST_F(DeviceInputsTest, ChecksumCoversEveryByteOfInt64AndBoolTensors) {
  std::vector<int64_t> classes(kCount);
  inputs::generate_host_typed(classes.data(), DType::int64, kCount, Family::uniform01, {}, 5, 1, geometry(), 1.0, {0, 4096});
  std::vector<uint8_t> mask(kCount);
  inputs::generate_host_typed(mask.data(), DType::boolean, kCount, Family::uniform01, {}, 5, 2, geometry(), 1.0, {});
  constexpr uint64_t kKey = 0xfeedfacecafebeefull;
  for (auto [data, bytes] : {std::pair{static_cast<void*>(classes.data()), classes.size() * 8}, std::pair{static_cast<void*>(mask.data()), mask.size()}}) {
    DeviceBuffer<unsigned char> device(bytes);
    check(cudaMemcpy(device.get(), data, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    const uint64_t before = checksum_on_device(device.get(), bytes, stream(), kKey);
    EXPECT_EQ(before, checksum_host(data, bytes, kKey));
    auto* last = static_cast<unsigned char*>(data) + bytes - 1;
    *last ^= 1;
    check(cudaMemcpy(device.get(), data, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    EXPECT_NE(checksum_on_device(device.get(), bytes, stream(), kKey), before) << bytes << " bytes: the last byte's change must show";
  }
}

}  // namespace
}  // namespace kbv::cuda::testing
