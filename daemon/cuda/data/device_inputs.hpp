// data/device_inputs.hpp — input tensors generated on the device, bit-identical to the host's
// (same Philox stream, same element function from inputs/families.hpp), and fp32→fp64 widening.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "inputs/families.hpp"

namespace kbv::cuda {

// dst[i] = generate_element(family, params, seed, tensor_id, i, axes, scale, domain) for i in
// [0, count), axes = structured_axes(geometry, params.structure, tensor_id), asynchronously on
// `stream`. Matches the host's generate_host() bit for bit
// (the translation unit is compiled with --fmad=false so no multiply-add is contracted),
// except where a 1-ulp difference between CUDA's and glibc's double libm straddles a float
// rounding boundary (families.hpp: about 2^-28 per transcendental element).
void generate_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                               const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                               const inputs::TensorAxes& geometry, double scale, cudaStream_t stream,
                               inputs::InputDomain domain = inputs::InputDomain::any);

// Timing-sample inputs: data/timing_inputs.hpp.

// dst[i] = double(src[i]) (exact) for i in [0, count), asynchronously on `stream`.
void widen_f32_to_f64(const float* src, double* dst, int64_t count, cudaStream_t stream);

}  // namespace kbv::cuda
