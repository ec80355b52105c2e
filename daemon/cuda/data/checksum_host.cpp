// data/checksum_host.cpp — the host twin of checksum_on_device (same bytes, same key, same value).
#include <algorithm>
#include <bit>
#include <cstring>

#include "data/checksum.hpp"
#include "data/checksum_mix.hpp"

namespace kbv::cuda {

uint64_t checksum_host(const void* data, uint64_t bytes, uint64_t key) {
  static_assert(std::endian::native == std::endian::little,
                "the checksum reads words little-endian, as the GPU stores them");
  const auto* base = static_cast<const unsigned char*>(data);
  uint64_t sum = 0;
  const uint64_t salt = checksum_detail::key_salt(key);
  for (uint64_t w = 0; w * 8 < bytes; ++w) {
    uint64_t word = 0;
    std::memcpy(&word, base + w * 8, std::min<uint64_t>(8, bytes - w * 8));
    sum += checksum_detail::word_term(word, w, salt);
  }
  return checksum_detail::finish(sum, bytes, key);
}

}  // namespace kbv::cuda
