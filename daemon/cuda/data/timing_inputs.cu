// data/timing_inputs.cu — the timing draw: one Philox block per four elements, single
// precision (compiled with fast intrinsics, see CMakeLists.txt), the checksum of the written
// words accumulated in the same pass.
#include "data/timing_inputs.hpp"

#include "common/cuda_error.hpp"
#include "data/checksum_mix.hpp"
#include "data/family_dispatch.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

// The words of element k (0..3) of a quad: the quad's Philox block holds one word per element.
// A Box–Muller family takes two elements from one pair of words, the second a quarter turn
// further round (u1 + ¼: cos becomes −sin, the pair's other independent normal); the other
// families read r0's top 24 bits and, for a sign, r1's lowest bit: the same word serves both.
struct ElementWords {
  uint32_t r0, r1;
};
__device__ inline ElementWords element_words(bool normal_pairs, const r123::Philox4x32::ctr_type& words, int k) {
  if (!normal_pairs) return {words[k], words[k]};
  constexpr uint32_t kQuarterTurn = 1u << 30;  // ¼ of 2^32: unit_closed_open reads the top 24 bits
  return {words[k & 2], words[(k & 2) + 1] + ((k & 1) ? kQuarterTurn : 0u)};
}

// Quad q is elements 4q .. 4q+3, which are also checksum words 2q and 2q+1 (little-endian: the
// first float in the low half; an odd count's last word is zero-padded, as the checksum reads).
// `inner_axis`: the innermost axis longer than 1 (axes.rank when none); its inner stride is 1, so
// elements of one quad differ only in their position along it unless the quad crosses a line:
// the structured families then add the other axes' terms once per quad.
// One kernel per family (data/family_dispatch.hpp): the draw is bound by latency more than by
// arithmetic (H100, r51: one kernel for all families ran at a quarter of memset's bandwidth).
template <inputs::Family family>
__global__ void timing_inputs_kernel(float* dst, int64_t count,
                                     inputs::FamilyParams params, uint64_t seed, uint32_t tensor,
                                     inputs::TensorAxes axes, uint32_t inner_axis, float scale, inputs::InputDomain domain,
                                     uint64_t salt, unsigned long long* checksum_total) {
  __shared__ unsigned long long scratch[32];
  const int64_t quads = (count + 3) / 4;
  const int64_t words_total = (count + 1) / 2;
  constexpr bool third_word = inputs::uses_third_word(family);
  constexpr bool row_word = inputs::uses_row_word(family);
  constexpr bool normal_pairs = inputs::uses_normal(family);
  constexpr bool structured = inputs::is_structured(family);
  const bool vector_store = (reinterpret_cast<uintptr_t>(dst) & 15u) == 0;
  const uint64_t line = inner_axis < axes.rank ? axes.extent[inner_axis] : 1;
  unsigned long long local = 0;
  for (int64_t q = detail::global_thread_index(); q < quads; q += detail::grid_stride()) {
    const uint64_t first = 4 * static_cast<uint64_t>(q);
    const int in_quad = static_cast<int>(count - static_cast<int64_t>(first) < 4 ? count - static_cast<int64_t>(first) : 4);
    const auto words = inputs::timing_philox_block(seed, tensor, static_cast<uint64_t>(q), inputs::kTimingQuadStream);
    r123::Philox4x32::ctr_type third = {{0, 0, 0, 0}};
    if constexpr (third_word) third = inputs::timing_philox_block(seed, tensor, static_cast<uint64_t>(q), inputs::kTimingThirdWordStream);
    // The axes every element of the quad shares, added once (structured families, one line).
    inputs::AxisSums<float> shared_axes;
    const bool one_line = structured && inner_axis < axes.rank && first / line == (first + in_quad - 1) / line;
    if (one_line)
      for (uint32_t a = 0; a < inner_axis; ++a)
        if (axes.extent[a] > 1)
          inputs::add_axis_terms(shared_axes, family, params, tensor, inputs::axis_position(first, axes, a), axes, a);
    uint64_t row_of_word = ~0ull;
    uint32_t row = 0;
    float values[4] = {0, 0, 0, 0};
    // Unrolled with the bound as a guard: every array here is then indexed by a constant and
    // stays in registers (a runtime index would put words, third and values in local memory).
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      if (k >= in_quad) break;
      const uint64_t index = first + k;
      const ElementWords element = element_words(normal_pairs, words, k);
      float value;
      if constexpr (structured) {
        inputs::AxisTerms<float> terms;
        if (one_line) {
          inputs::AxisSums<float> sums = shared_axes;
          inputs::add_axis_terms(sums, family, params, tensor, index % line, axes, inner_axis);
          terms = inputs::mean_terms(sums);
        } else {
          terms = inputs::axis_terms<float>(family, params, tensor, index, axes);
        }
        value = inputs::structured_value<float>(family, params, element.r0, element.r1, terms);
      } else {
        if constexpr (row_word) {
          const uint64_t row_index = index / inputs::row_length(axes);
          if (row_index != row_of_word) {
            row = inputs::timing_philox_block(seed, tensor, row_index, inputs::kTimingRowStream)[0];
            row_of_word = row_index;
          }
        }
        value = inputs::family_value_from_bits<float>(family, params, element.r0, element.r1, third[k], row, tensor, index, axes);
      }
      values[k] = inputs::within_domain(domain, value) * scale;
    }
    if (vector_store && in_quad == 4) {
      reinterpret_cast<float4*>(dst)[q] = make_float4(values[0], values[1], values[2], values[3]);
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (k < in_quad) dst[first + k] = values[k];
    }
    for (int half = 0; half < 2; ++half) {
      const int64_t word_index = 2 * q + half;
      if (word_index >= words_total) break;
      const uint64_t word = static_cast<uint64_t>(__float_as_uint(values[2 * half])) |
                            static_cast<uint64_t>(__float_as_uint(values[2 * half + 1])) << 32;
      local += checksum_detail::word_term(word, static_cast<uint64_t>(word_index), salt);
    }
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
  const int64_t quads = (count + 3) / 4;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  launch_for_family(
      family,
      [&](auto constant) {
        timing_inputs_kernel<decltype(constant)::value><<<detail::grid_for(quads), detail::kBlockThreads, 0, stream>>>(
            dst, count, params, seed, tensor_id, axes, inputs::innermost_long_axis(axes), static_cast<float>(scale), domain,
            checksum_detail::key_salt(checksum_key), checksum_total);
      },
      "generate_timing_inputs_on_device");
  check_launch("timing_inputs_kernel");
}

}  // namespace kbv::cuda
