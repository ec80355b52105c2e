// data/checksum.cu — the checksum kernel: each thread sums the terms of its words, blocks reduce,
// one atomic add per block combines them (integer addition: order-independent, deterministic).
#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/checksum.hpp"
#include "data/checksum_mix.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

// Word `index` read little-endian one byte at a time: for an unaligned base or the last,
// partial word (bytes past the end count as zero).
__device__ uint64_t word_from_bytes(const unsigned char* base, uint64_t index, uint64_t bytes) {
  uint64_t word = 0;
  const uint64_t first = index * 8;
  for (uint64_t b = 0; b < 8 && first + b < bytes; ++b) word |= uint64_t{base[first + b]} << (8 * b);
  return word;
}

template <bool kAligned>
__global__ void checksum_kernel(const unsigned char* data, uint64_t bytes, uint64_t key,
                                unsigned long long* total) {
  __shared__ unsigned long long scratch[32];
  const uint64_t words = (bytes + 7) / 8;
  const uint64_t full_words = bytes / 8;
  unsigned long long local = 0;
  const uint64_t salt = checksum_detail::key_salt(key);
  for (uint64_t w = static_cast<uint64_t>(detail::global_thread_index()); w < words;
       w += static_cast<uint64_t>(detail::grid_stride())) {
    // Little-endian loads: the GPU is little-endian, as the host twin assumes.
    const uint64_t word = kAligned && w < full_words
                              ? reinterpret_cast<const uint64_t*>(data)[w]
                              : word_from_bytes(data, w, bytes);
    local += checksum_detail::word_term(word, w, salt);
  }
  const unsigned long long block_total = detail::block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0) atomicAdd(total, block_total);
}

}  // namespace

uint64_t checksum_on_device(const void* data, uint64_t bytes, cudaStream_t stream, uint64_t key) {
  auto total = DeviceBuffer<unsigned long long>::on_stream(1, stream);
  check(cudaMemsetAsync(total.get(), 0, sizeof(unsigned long long), stream), "cudaMemsetAsync");
  if (bytes > 0) {
    const auto* base = static_cast<const unsigned char*>(data);
    const auto words = static_cast<int64_t>((bytes + 7) / 8);
    const bool aligned = reinterpret_cast<uintptr_t>(base) % alignof(uint64_t) == 0;
    if (aligned) {
      checksum_kernel<true><<<detail::grid_for(words), detail::kBlockThreads, 0, stream>>>(
          base, bytes, key, total.get());
    } else {
      checksum_kernel<false><<<detail::grid_for(words), detail::kBlockThreads, 0, stream>>>(
          base, bytes, key, total.get());
    }
    check_launch("checksum_kernel");
  }
  unsigned long long sum = 0;
  check(cudaMemcpyAsync(&sum, total.get(), sizeof sum, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (checksum)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (checksum)");
  return checksum_detail::finish(sum, bytes, key);
}

}  // namespace kbv::cuda
