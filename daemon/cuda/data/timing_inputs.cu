// data/timing_inputs.cu — the timing draw: one Philox block per pair of elements, single
// precision (compiled with fast intrinsics, see CMakeLists.txt), the checksum of the written
// words accumulated in the same pass.
#include "data/timing_inputs.hpp"

#include "common/cuda_error.hpp"
#include "data/checksum_mix.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

// Element pair p is elements 2p and 2p+1, which are also checksum word p (little-endian: the
// first float in the low half; an odd count's last word is zero-padded, as the checksum reads).
__global__ void timing_inputs_kernel(float* dst, int64_t count, inputs::Family family,
                                     inputs::FamilyParams params, uint64_t seed, uint32_t tensor,
                                     inputs::TensorAxes axes, float scale, inputs::InputDomain domain,
                                     uint64_t salt, unsigned long long* checksum_total) {
  __shared__ unsigned long long scratch[32];
  const int64_t pairs = (count + 1) / 2;
  const bool third_word = inputs::uses_third_word(family);
  const bool row_word = inputs::uses_row_word(family);
  unsigned long long local = 0;
  for (int64_t p = detail::global_thread_index(); p < pairs; p += detail::grid_stride()) {
    const auto words = inputs::philox_block(seed, tensor, static_cast<uint64_t>(p), inputs::kTimingPairStream);
    uint32_t third[2] = {0, 0};
    if (third_word) {
      const auto more = inputs::philox_block(seed, tensor, static_cast<uint64_t>(p), inputs::kTimingThirdWordStream);
      third[0] = more[0];
      third[1] = more[1];
    }
    uint64_t word = 0;
    for (int half = 0; half < 2; ++half) {
      const int64_t index = 2 * p + half;
      if (index >= count) break;
      uint32_t row = 0;
      if (row_word) {
        const uint64_t row_index = static_cast<uint64_t>(index) / inputs::row_length(axes);
        row = inputs::philox_block(seed, tensor, row_index, inputs::kTimingRowStream)[0];
      }
      // Structured families read the same per-channel words as the exact draw (they are the
      // family's structure, keyed per epoch); only the element words are the timing draw's own.
      const float value =
          inputs::within_domain(domain, inputs::family_value_from_bits<float>(family, params, words[2 * half], words[2 * half + 1],
                                                                              third[half], row, tensor, static_cast<uint64_t>(index), axes)) *
          scale;
      dst[index] = value;
      word |= static_cast<uint64_t>(__float_as_uint(value)) << (32 * half);
    }
    local += checksum_detail::word_term(word, static_cast<uint64_t>(p), salt);
  }
  const unsigned long long block_total = detail::block_reduce(local, detail::SumOp{}, scratch);
  if (threadIdx.x == 0) atomicAdd(checksum_total, block_total);
}

}  // namespace

void generate_timing_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                                      const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                                      const inputs::TensorAxes& geometry, double scale, uint64_t checksum_key,
                                      unsigned long long* checksum_total, cudaStream_t stream, inputs::InputDomain domain) {
  if (count <= 0) return;
  const int64_t pairs = (count + 1) / 2;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  timing_inputs_kernel<<<detail::grid_for(pairs), detail::kBlockThreads, 0, stream>>>(
      dst, count, family, params, seed, tensor_id, axes, static_cast<float>(scale), domain,
      checksum_detail::key_salt(checksum_key), checksum_total);
  check_launch("timing_inputs_kernel");
}

}  // namespace kbv::cuda
