// data/device_inputs.cu — kernels that generate inputs from families.hpp (float32) and
// discrete_families.hpp (int64, bool) and widen them to fp64 or fp32.
// Compiled with --fmad=false (see CMakeLists.txt) so the device evaluates the family formulas
// with the same roundings as the host.
#include "data/device_inputs.hpp"

#include "common/cuda_error.hpp"
#include "data/family_dispatch.hpp"
#include "data/launch.cuh"
#include "inputs/discrete_families.hpp"

namespace kbv::cuda {
namespace {

// One kernel per family (data/family_dispatch.hpp); the same generate_element as the host's.
template <inputs::Family family>
__global__ void generate_kernel(float* dst, int64_t count, inputs::FamilyParams params, uint64_t seed, uint32_t tensor_id,
                                inputs::TensorAxes axes, double scale, inputs::InputDomain domain) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) {
    dst[i] = inputs::generate_element(family, params, seed, tensor_id, static_cast<uint64_t>(i),
                                      axes, scale, domain);
  }
}

__global__ void widen_kernel(const float* src, double* dst, int64_t count) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) {
    dst[i] = static_cast<double>(src[i]);
  }
}

// round_to_bf16 (graph/operand_rounding.hpp) on the device: the fp32 value to bfloat16, nearest
// even, NaN kept.
__global__ void round_to_bf16_kernel(double* values, int64_t count) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) {
    const float value = static_cast<float>(values[i]);
    uint32_t bits = __float_as_uint(value);
    if (!isnan(value)) bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    values[i] = static_cast<double>(__uint_as_float(bits));
  }
}

__global__ void generate_integer_kernel(int64_t* dst, int64_t count, inputs::Family family, inputs::FamilyParams params, uint64_t seed,
                                        uint32_t tensor_id, inputs::TensorAxes axes, int64_t low, int64_t high) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride())
    dst[i] = inputs::integer_value(family, params, seed, tensor_id, static_cast<uint64_t>(i), axes, low, high);
}

__global__ void generate_mask_kernel(uint8_t* dst, int64_t count, inputs::Family family, inputs::FamilyParams params, uint64_t seed,
                                     uint32_t tensor_id, inputs::TensorAxes axes) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride())
    dst[i] = inputs::mask_value(family, params, seed, tensor_id, static_cast<uint64_t>(i), axes);
}

template <class Wide, class Narrow>
__global__ void widen_typed_kernel(const Narrow* src, Wide* dst, int64_t count) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) dst[i] = static_cast<Wide>(src[i]);
}

template <class Wide>
void widen_typed(const void* src, DType dtype, Wide* dst, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  const unsigned blocks = detail::grid_for(count);
  switch (dtype) {
    case DType::float32:
      widen_typed_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(static_cast<const float*>(src), dst, count);
      break;
    case DType::int64:
      widen_typed_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(static_cast<const int64_t*>(src), dst, count);
      break;
    case DType::boolean:  // one byte 0 or 1, as the generator writes it
      widen_typed_kernel<<<blocks, detail::kBlockThreads, 0, stream>>>(static_cast<const uint8_t*>(src), dst, count);
      break;
  }
  check_launch("widen_typed_kernel");
}

}  // namespace

void generate_typed_inputs_on_device(void* dst, DType dtype, int64_t count, inputs::Family family, const inputs::FamilyParams& params,
                                     uint64_t seed, uint32_t tensor_id, const inputs::TensorAxes& geometry, double scale,
                                     IntegerRange range, cudaStream_t stream, inputs::InputDomain domain) {
  if (dtype == DType::float32)
    return generate_inputs_on_device(static_cast<float*>(dst), count, family, params, seed, tensor_id, geometry, scale, stream, domain);
  if (count <= 0) return;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  if (dtype == DType::int64) {
    generate_integer_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(
        static_cast<int64_t*>(dst), count, family, params, seed, tensor_id, axes, range.low, range.high);
    check_launch("generate_integer_kernel");
    return;
  }
  generate_mask_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(static_cast<uint8_t*>(dst), count, family, params,
                                                                                       seed, tensor_id, axes);
  check_launch("generate_mask_kernel");
}

void widen_to_f64(const void* src, DType dtype, double* dst, int64_t count, cudaStream_t stream) {
  widen_typed(src, dtype, dst, count, stream);
}

void widen_to_f32(const void* src, DType dtype, float* dst, int64_t count, cudaStream_t stream) {
  widen_typed(src, dtype, dst, count, stream);
}

void generate_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                               const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                               const inputs::TensorAxes& geometry, double scale, cudaStream_t stream,
                               inputs::InputDomain domain) {
  if (count <= 0) return;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  launch_for_family(
      family,
      [&](auto constant) {
        generate_kernel<decltype(constant)::value>
            <<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(dst, count, params, seed, tensor_id, axes, scale, domain);
      },
      "generate_inputs_on_device");
  check_launch("generate_kernel");
}

void widen_f32_to_f64(const float* src, double* dst, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  widen_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(src, dst, count);
  check_launch("widen_kernel");
}

void round_to_bf16_in_place(double* values, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  round_to_bf16_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(values, count);
  check_launch("round_to_bf16_kernel");
}

}  // namespace kbv::cuda
