// tests/cuda/data/poison_checksum_test.cpp — poisoning writes the exact signalling-NaN pattern
// and the count finds what was overwritten; the device checksum equals its host twin, is
// stable, and changes whenever a byte changes.
#include <cstring>

#include "data/checksum.hpp"
#include "data/poison.hpp"
#include "gpu_test_support.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda::testing {
namespace {

class PoisonTest : public GpuTest {};

TEST_F(PoisonTest, WritesThePatternAndCountsWhatRemains) {
  constexpr int64_t kCount = 1'000'003;
  DeviceBuffer<float> data(kCount);
  check(cudaMemsetAsync(data.get(), 0, kCount * sizeof(float), stream()), "cudaMemsetAsync");
  EXPECT_EQ(count_poison_on_device(data.get(), kCount, stream()), 0);

  poison_on_device(data.get(), kCount, stream());
  EXPECT_EQ(count_poison_on_device(data.get(), kCount, stream()), kCount);
  const std::vector<float> back = download(data.get(), kCount);
  int64_t wrong_bits = 0;
  for (float v : back) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    wrong_bits += bits != kPoisonBits;
  }
  EXPECT_EQ(wrong_bits, 0) << "elements not holding 0x7fa00000 after poisoning";

  // Overwrite a block with zeros and two elements with NaNs that are not the pattern.
  constexpr int64_t kOverwritten = 1000;
  check(cudaMemsetAsync(data.get() + 5000, 0, kOverwritten * sizeof(float), stream()), "cudaMemsetAsync");
  const uint32_t other_nans[] = {0x7fc00000u /* quiet NaN */, 0xffa00000u /* negative sNaN */};
  check(cudaMemcpyAsync(data.get() + 10, other_nans, sizeof other_nans, cudaMemcpyHostToDevice, stream()),
        "cudaMemcpyAsync");
  EXPECT_EQ(count_poison_on_device(data.get(), kCount, stream()), kCount - kOverwritten - 2);
  EXPECT_EQ(count_poison_on_device(data.get(), 0, stream()), 0);
}

class ChecksumTest : public GpuTest {};

std::vector<unsigned char> random_bytes(size_t count, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::vector<unsigned char> bytes(count);
  for (auto& b : bytes) b = static_cast<unsigned char>(engine());
  return bytes;
}

// 1 MiB plus a partial word, so both the word path and the tail path run.
constexpr size_t kBytes = (size_t{1} << 20) + 5;

TEST_F(ChecksumTest, EqualsTheHostTwinForEveryKeyLengthAndAlignment) {
  const auto bytes = random_bytes(kBytes, 1);
  const auto device = upload(bytes);
  for (uint64_t key : {uint64_t{0}, uint64_t{0x0123456789abcdefull}}) {
    EXPECT_EQ(checksum_on_device(device.get(), kBytes, stream(), key), checksum_host(bytes.data(), kBytes, key));
    for (size_t offset = 1; offset < 8; ++offset) {  // unaligned starts
      for (size_t length : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{4096 + 3}}) {
        EXPECT_EQ(checksum_on_device(device.get() + offset, length, stream(), key),
                  checksum_host(bytes.data() + offset, length, key))
            << "offset " << offset << " length " << length << " key " << key;
      }
    }
  }
}

TEST_F(ChecksumTest, IsStableAndChangesWithEveryByteChange) {
  auto bytes = random_bytes(kBytes, 2);
  auto device = upload(bytes);
  const uint64_t original = checksum_on_device(device.get(), kBytes, stream(), 7);
  for (int repeat = 0; repeat < 3; ++repeat) {
    EXPECT_EQ(checksum_on_device(device.get(), kBytes, stream(), 7), original);
  }
  // One flipped bit at each position of the first and last 16 bytes and a few in between.
  std::vector<size_t> positions;
  for (size_t i = 0; i < 16; ++i) positions.push_back(i);
  for (size_t i = kBytes - 16; i < kBytes; ++i) positions.push_back(i);
  for (size_t i : {size_t{4097}, size_t{65536}, kBytes / 2}) positions.push_back(i);
  for (size_t position : positions) {
    for (int bit = 0; bit < 8; bit += 3) {
      unsigned char changed = static_cast<unsigned char>(bytes[position] ^ (1u << bit));
      check(cudaMemcpyAsync(device.get() + position, &changed, 1, cudaMemcpyHostToDevice, stream()),
            "cudaMemcpyAsync");
      EXPECT_NE(checksum_on_device(device.get(), kBytes, stream(), 7), original)
          << "byte " << position << " bit " << bit << " flipped, checksum unchanged";
      check(cudaMemcpyAsync(device.get() + position, &bytes[position], 1, cudaMemcpyHostToDevice, stream()),
            "cudaMemcpyAsync");
    }
  }
  EXPECT_EQ(checksum_on_device(device.get(), kBytes, stream(), 7), original) << "restored buffer";
  // Swapping two words (same multiset of words, different places) changes it too.
  std::swap_ranges(bytes.begin(), bytes.begin() + 8, bytes.begin() + 800);
  device = upload(bytes);
  EXPECT_NE(checksum_on_device(device.get(), kBytes, stream(), 7), original);
  // So do the key and the length (a trailing zero byte).
  EXPECT_NE(checksum_on_device(device.get(), kBytes, stream(), 8),
            checksum_on_device(device.get(), kBytes, stream(), 7));
  std::vector<unsigned char> zero_tail(16, 0);
  EXPECT_NE(checksum_host(zero_tail.data(), 15, 0), checksum_host(zero_tail.data(), 16, 0));
}

}  // namespace
}  // namespace kbv::cuda::testing
