// data/device_inputs.hpp — input tensors generated on the device, bit-identical to the host's
// (same Philox stream, same element function from inputs/families.hpp), fp32→fp64 widening, and repetition.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "inputs/families.hpp"

namespace kbv::cuda {

// dst[i] = generate_element(family, params, seed, tensor_id, i, row_length, scale) for
// i in [0, count), asynchronously on `stream`. Matches the host's generate_host() bit for bit
// (the translation unit is compiled with --fmad=false so no multiply-add is contracted),
// except where a 1-ulp difference between CUDA's and glibc's double libm straddles a float
// rounding boundary (families.hpp: about 2^-28 per transcendental element).
void generate_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                               inputs::FamilyParams params, uint64_t seed, uint32_t tensor_id,
                               uint64_t row_length, double scale, cudaStream_t stream);

// Timing-sample inputs: data/timing_inputs.hpp.

// dst[i] = double(src[i]) (exact) for i in [0, count), asynchronously on `stream`.
void widen_f32_to_f64(const float* src, double* dst, int64_t count, cudaStream_t stream);

// dst[i] = src[i % src_count] for i in [0, dst_count): an input repeated until the output is
// full, in one launch (a copy per repetition meant millions of cudaMemcpyAsync for a bias).
void repeat_on_device(const float* src, int64_t src_count, float* dst, int64_t dst_count, cudaStream_t stream);

}  // namespace kbv::cuda
