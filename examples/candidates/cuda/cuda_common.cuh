// cuda_common.cuh — what the honest CUDA candidates share: the call's stream, launch-error
// reporting, grid sizing for grid-stride loops, and argument checks.
#pragma once

#include <kbv/plugin.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace cuda_candidate {

// The stream kbv times; every launch goes on it (never the default or a private stream).
inline cudaStream_t stream_of(const kbv::Call& call) { return static_cast<cudaStream_t>(call.stream()); }

// KBV_STATUS_OK if the last launch was accepted, otherwise the CUDA error as the error text.
inline kbv_status launch_status(const char* kernel) {
  const cudaError_t error = cudaGetLastError();
  if (error == cudaSuccess) return KBV_STATUS_OK;
  kbv::set_error(std::string(kernel) + " launch failed: " + cudaGetErrorString(error));
  return KBV_STATUS_DEVICE_ERROR;
}

// Records `why` and says whether `ok`; callers return KBV_STATUS_INVALID_ARGUMENT when false.
inline bool expect(bool ok, const std::string& why) {
  if (!ok) kbv::set_error(why);
  return ok;
}

// True when the call has exactly these tensor counts and every tensor is fp32 device memory.
inline bool expect_f32(const kbv::Call& call, uint32_t inputs, uint32_t outputs) {
  if (!expect(call.num_inputs() == inputs && call.num_outputs() == outputs,
              "expected " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) + " outputs"))
    return false;
  for (uint32_t i = 0; i < inputs + outputs; ++i) {
    const kbv::Tensor t = i < inputs ? call.input(i) : call.output(i - inputs);
    if (!expect(t.dtype() == KBV_DTYPE_F32 && t.raw().device == KBV_DEVICE_CUDA,
                std::string("tensor ") + t.name() + " is not fp32 CUDA memory"))
      return false;
  }
  return true;
}

// Blocks for a grid-stride loop over `work` items: enough to fill the GPU several times over,
// never more than the work needs. kBlocksCap bounds the launch for multi-gigabyte tensors
// (each thread then strides); 65536 blocks of 256 threads saturate any current GPU.
constexpr int64_t kBlocksCap = 65536;
inline unsigned grid_for(int64_t work, int threads) {
  return static_cast<unsigned>(std::clamp<int64_t>((work + threads - 1) / threads, 1, kBlocksCap));
}

// A [outer, extent, inner] view around `axis` (negative counts from the end).
struct AxisSplit {
  int64_t outer = 1, extent = 1, inner = 1;
  bool valid = false;
};
inline AxisSplit split_at_axis(const kbv::Tensor& tensor, double axis_attribute) {
  const auto rank = static_cast<int64_t>(tensor.rank());
  auto axis = static_cast<int64_t>(axis_attribute);
  if (axis < 0) axis += rank;
  AxisSplit split;
  if (axis < 0 || axis >= rank) return split;
  for (int64_t d = 0; d < axis; ++d) split.outer *= tensor.dim(static_cast<uint32_t>(d));
  split.extent = tensor.dim(static_cast<uint32_t>(axis));
  for (int64_t d = axis + 1; d < rank; ++d) split.inner *= tensor.dim(static_cast<uint32_t>(d));
  split.valid = true;
  return split;
}

inline bool aligned16(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; }

}  // namespace cuda_candidate
