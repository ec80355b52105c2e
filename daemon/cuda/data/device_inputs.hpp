// data/device_inputs.hpp — input tensors generated on the device, bit-identical to the host's
// (same Philox stream, same element function from inputs/families.hpp), and fp32→fp64 widening.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "inputs/families.hpp"
#include "tensor/dtype.hpp"

namespace kbv::cuda {

// dst[i] = generate_element(family, params, seed, tensor_id, i, axes, scale, domain) for i in
// [0, count), axes = structured_axes(geometry, params.structure, tensor_id), asynchronously on
// `stream`. Matches the host's generate_host() bit for bit
// (the translation unit is compiled with --fmad=false so no multiply-add is contracted),
// except where a 1-ulp difference between CUDA's and glibc's double libm straddles a float
// rounding boundary (families.hpp: about 2^-28 per transcendental element). `wide`, when given
// (`count` doubles): also wide[i] = double(dst[i]), written in the same pass (the fp64
// reference's inputs, without reading dst again).
void generate_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                               const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                               const inputs::TensorAxes& geometry, double scale, cudaStream_t stream,
                               inputs::InputDomain domain = inputs::InputDomain::any, double* wide = nullptr);

// An input of any dtype, `count` elements of it at `dst`: float32 as above; int64
// integer_value() in `range`, bool mask_value() as one byte 0 or 1 (inputs/discrete_families.hpp,
// the host's generate_host_typed() bit for bit: integer arithmetic and exact comparisons).
// `wide`, when given: also the values widened to fp64 (widen_to_f64), float32 in the same pass.
void generate_typed_inputs_on_device(void* dst, DType dtype, int64_t count, inputs::Family family, const inputs::FamilyParams& params,
                                     uint64_t seed, uint32_t tensor_id, const inputs::TensorAxes& geometry, double scale,
                                     IntegerRange range, cudaStream_t stream, inputs::InputDomain domain = inputs::InputDomain::any,
                                     double* wide = nullptr);

// Timing-sample inputs: data/timing_inputs.hpp.

// dst[i] = double(src[i]) (exact) for i in [0, count), asynchronously on `stream`.
void widen_f32_to_f64(const float* src, double* dst, int64_t count, cudaStream_t stream);

// The trusted side's conversion point on the device (tensor/dtype.hpp): element i of `count`
// elements of `dtype` at `src`, widened (exact) to double (the fp64 reference's inputs) or float
// (the fp32/TF32 baselines' and the trivial outputs' copies of an int64 or bool input).
void widen_to_f64(const void* src, DType dtype, double* dst, int64_t count, cudaStream_t stream);
void widen_to_f32(const void* src, DType dtype, float* dst, int64_t count, cudaStream_t stream);

// values[i] (each an fp32 value widened) rounded to bfloat16 in place, as graph/operand_rounding.hpp's
// round_to_bf16: the precision check's rounded operands (verify/precision_signature.hpp).
void round_to_bf16_in_place(double* values, int64_t count, cudaStream_t stream);

}  // namespace kbv::cuda
