// data/device_inputs.cu — kernels that generate inputs from families.hpp and widen them to fp64.
// Compiled with --fmad=false (see CMakeLists.txt) so the device evaluates the family formulas
// with the same roundings as the host.
#include "data/device_inputs.hpp"

#include "common/cuda_error.hpp"
#include "data/launch.cuh"

namespace kbv::cuda {
namespace {

__global__ void generate_kernel(float* dst, int64_t count, inputs::Family family,
                                inputs::FamilyParams params, uint64_t seed, uint32_t tensor_id,
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

}  // namespace

void generate_inputs_on_device(float* dst, int64_t count, inputs::Family family,
                               const inputs::FamilyParams& params, uint64_t seed, uint32_t tensor_id,
                               const inputs::TensorAxes& geometry, double scale, cudaStream_t stream,
                               inputs::InputDomain domain) {
  if (count <= 0) return;
  const inputs::TensorAxes axes = inputs::structured_axes(geometry, params.structure, tensor_id);
  generate_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(
      dst, count, family, params, seed, tensor_id, axes, scale, domain);
  check_launch("generate_kernel");
}

void widen_f32_to_f64(const float* src, double* dst, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  widen_kernel<<<detail::grid_for(count), detail::kBlockThreads, 0, stream>>>(src, dst, count);
  check_launch("widen_kernel");
}

}  // namespace kbv::cuda
