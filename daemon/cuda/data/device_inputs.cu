// data/device_inputs.cu — kernels that generate inputs from families.hpp (float32) and
// discrete_families.hpp (int64, bool) and widen them to fp64 or fp32.
// Compiled with --fmad=false (see CMakeLists.txt) so the device evaluates the family formulas
// with the same roundings as the host.
#include "data/device_inputs.hpp"

#include <algorithm>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/family_dispatch.hpp"
#include "data/launch.cuh"
#include "inputs/discrete_families.hpp"

namespace kbv::cuda {
namespace {

// One kernel per family (data/family_dispatch.hpp); the same generate_element as the host's.
// `wide`, when given: the fp64 widening of every value written, from the same pass.
template <inputs::Family family>
__global__ void generate_kernel(float* dst, double* wide, int64_t count, inputs::FamilyParams params, uint64_t seed, uint32_t tensor_id,
                                inputs::TensorAxes axes, double scale, inputs::InputDomain domain) {
  for (int64_t i = detail::global_thread_index(); i < count; i += detail::grid_stride()) {
    const float value = inputs::generate_element(family, params, seed, tensor_id, static_cast<uint64_t>(i), axes, scale, domain);
    dst[i] = value;
    if (wide) wide[i] = static_cast<double>(value);
  }
}

// The structured families by lines: a line is the run of elements along the innermost axis
// longer than 1 (`inner_axis`; the axes after it have extent 1), and every element of line l
// shares its position along the axes before it. generate_element sums each axis's terms in axis
// order, so an element's sums are its line's (prefix_kernel, once per line) with its position's
// along inner_axis added last: the same additions in the same order, bit for bit. Each thread
// keeps one position's inner terms (add_axis_terms: a Philox block or a pow) for every line it
// walks, where the flat kernel computed every axis's terms for every element (H100, r56: 3–7× a
// plain normal's draw for channel_affine, outliers and trend at KernelBench sizes).
template <inputs::Family family>
__global__ void prefix_kernel(inputs::AxisSums<double>* prefix, uint64_t lines, uint64_t line, inputs::FamilyParams params, uint32_t tensor_id,
                              inputs::TensorAxes axes, uint32_t inner_axis) {
  for (int64_t l = detail::global_thread_index(); l < static_cast<int64_t>(lines); l += detail::grid_stride()) {
    inputs::AxisSums<double> sums;
    const uint64_t first = static_cast<uint64_t>(l) * line;
    for (uint32_t a = 0; a < inner_axis; ++a)
      if (axes.extent[a] > 1) inputs::add_axis_terms(sums, family, params, tensor_id, inputs::axis_position(first, axes, a), axes, a);
    prefix[l] = sums;
  }
}

// sums += one axis's terms computed alone (from zero): x + 0 is x, and a sum that starts at +0
// never becomes −0, so adding an entry equals adding its terms one by one (add_axis_terms).
__device__ inline void add_entry(inputs::AxisSums<double>& sums, const inputs::AxisSums<double>& entry, bool sets_outlier) {
  sums.weights += entry.weights;
  sums.sums.drift += entry.sums.drift;
  sums.sums.offset += entry.sums.offset;
  sums.sums.trend += entry.sums.trend;
  sums.sums.log2_scale += entry.sums.log2_scale;
  if (sets_outlier) sums.sums.outlier = entry.sums.outlier;
}

template <inputs::Family family>
__global__ void generate_lines_kernel(float* dst, double* wide, const inputs::AxisSums<double>* prefix, uint64_t lines, uint64_t line,
                                      inputs::FamilyParams params, uint64_t seed, uint32_t tensor_id, inputs::TensorAxes axes,
                                      uint32_t inner_axis, double scale, inputs::InputDomain domain) {
  const bool sets_outlier = family == inputs::Family::outliers && inner_axis == axes.lead;
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < line; p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    inputs::AxisSums<double> inner;
    inputs::add_axis_terms(inner, family, params, tensor_id, p, axes, inner_axis);
    for (uint64_t l = blockIdx.y; l < lines; l += gridDim.y) {
      inputs::AxisSums<double> sums = prefix[l];
      add_entry(sums, inner, sets_outlier);
      const uint64_t index = l * line + p;
      const auto r = inputs::philox_block(seed, tensor_id, index, inputs::kElementStream);
      const double value = inputs::structured_value<double>(family, params, r[0], r[1], inputs::mean_terms(sums));
      const float written = static_cast<float>(inputs::within_domain(domain, value) * scale);
      dst[index] = written;
      if (wide) wide[index] = static_cast<double>(written);
    }
  }
}

// The lines path's limits: a line at least a warp long (shorter lines leave lanes idle and the
// flat kernel is as fast), and a line table of at most 64 MiB (48 bytes a line: a
// [16, 64, 256, 256] input's 262 144 lines take 12.6 MB).
constexpr uint64_t kMinLineForLines = 32;
constexpr uint64_t kMaxPrefixTableBytes = 64ull << 20;

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

// The int64 and bool draws (inputs/discrete_families.hpp).
void generate_discrete(void* dst, DType dtype, int64_t count, inputs::Family family, const inputs::FamilyParams& params, uint64_t seed,
                       uint32_t tensor_id, const inputs::TensorAxes& geometry, IntegerRange range, cudaStream_t stream) {
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

}  // namespace

void generate_typed_inputs_on_device(void* dst, DType dtype, int64_t count, inputs::Family family, const inputs::FamilyParams& params,
                                     uint64_t seed, uint32_t tensor_id, const inputs::TensorAxes& geometry, double scale,
                                     IntegerRange range, cudaStream_t stream, inputs::InputDomain domain, double* wide) {
  if (dtype == DType::float32)
    return generate_inputs_on_device(static_cast<float*>(dst), count, family, params, seed, tensor_id, geometry, scale, stream, domain, wide);
  if (count <= 0) return;
  generate_discrete(dst, dtype, count, family, params, seed, tensor_id, geometry, range, stream);
  if (wide) widen_typed(dst, dtype, wide, count, stream);
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
                               inputs::InputDomain domain, double* wide) {
  if (count <= 0) return;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  const uint32_t inner_axis = inputs::innermost_long_axis(axes);
  const uint64_t line = inner_axis < axes.rank ? axes.extent[inner_axis] : 1;
  const uint64_t lines = static_cast<uint64_t>(count) / line;
  if (inputs::is_structured(family) && line >= kMinLineForLines && lines * line == static_cast<uint64_t>(count) &&
      lines * sizeof(inputs::AxisSums<double>) <= kMaxPrefixTableBytes) {
    auto prefix = DeviceBuffer<inputs::AxisSums<double>>::on_stream(lines, stream);
    // As many blocks as the flat kernel, spread over the line (x) and the lines (y).
    const unsigned blocks_x = detail::grid_for(static_cast<int64_t>(line));
    const unsigned blocks_y = static_cast<unsigned>(std::clamp<uint64_t>(detail::grid_for(count) / blocks_x, 1, std::min<uint64_t>(lines, 65535)));
    launch_for_family(
        family,
        [&](auto constant) {
          constexpr inputs::Family kFamily = decltype(constant)::value;
          if constexpr (inputs::is_structured(kFamily)) {
            prefix_kernel<kFamily><<<detail::grid_for(static_cast<int64_t>(lines)), detail::kBlockThreads, 0, stream>>>(
                prefix.get(), lines, line, params, tensor_id, axes, inner_axis);
            generate_lines_kernel<kFamily><<<dim3(blocks_x, blocks_y), detail::kBlockThreads, 0, stream>>>(
                dst, wide, prefix.get(), lines, line, params, seed, tensor_id, axes, inner_axis, scale, domain);
          }
        },
        "generate_inputs_on_device");
    check_launch("generate_lines_kernel");
    return;
  }
  launch_for_family(
      family,
      [&](auto constant) {
        generate_kernel<decltype(constant)::value>
            <<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(dst, wide, count, params, seed, tensor_id, axes, scale, domain);
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
