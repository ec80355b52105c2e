// ops/common/baseline/softmax_resident_f32.cuh — softmax and log_softmax of long contiguous rows
// with each row read from DRAM once: a 1024-thread block holds its row on chip, half in registers
// and half in shared memory, while it reduces (max, Σ exp) and writes the result.
//
// The two-pass row kernel (softmax_f32.cuh) reads a row twice and counts on L2 for the second
// read; at KernelBench L1 #23's rows of 65536 floats (256 KiB) it ran at 2.1 TB/s (1.014 ms for
// 4096 rows on the H200) where torch.compile took 0.662 ms. Holding the row took 0.549 ms
// (3.9 TB/s, the best of 13 variants within 2.5 %: clusters of 2–8 blocks with distributed shared
// memory, persistent grids; H200 2026-12-04, a standalone variant bench).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/device_math.cuh"

namespace kbv::ops::baseline {

constexpr int kResidentThreads = 1024;
constexpr int kResidentRegisterVectors = 8;  // float4 per thread in registers…
constexpr int kResidentSharedVectors = 8;    // …and in shared memory (128 KiB per block)
// The longest row one block holds: 1024 threads × 16 float4 = 65536 floats.
constexpr int64_t kResidentRowCapacity =
    int64_t{kResidentThreads} * (kResidentRegisterVectors + kResidentSharedVectors) * 4;
// Shorter rows than this stay with the two-pass kernel: they are read from L2 the second time
// and a block of 1024 threads would be mostly idle (measured at 65536 only).
constexpr int64_t kResidentMinExtent = kResidentRowCapacity / 4;
constexpr size_t kResidentSharedBytes = size_t{kResidentThreads} * kResidentSharedVectors * sizeof(float4);

namespace resident_detail {

__device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }
__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ float4 exp4(float4 v, float shift) {
  return make_float4(__expf(v.x - shift), __expf(v.y - shift), __expf(v.z - shift), __expf(v.w - shift));
}
__device__ __forceinline__ float4 neg_inf4() { return make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY); }
__device__ __forceinline__ void copy_async16(float4* shared, const float4* global) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global));
}
__device__ __forceinline__ void wait_async_copies() { asm volatile("cp.async.wait_all;\n" ::); }

}  // namespace resident_detail

// One block per row (grid = rows, up to 2^31 − 1 walked in turn): thread t holds the row's float4
// t, t + 1024, …; the first kResidentRegisterVectors in registers, the rest in its own shared
// slots (cp.async, no register staging). Softmax: each value becomes exp(x − m_t) in place (m_t the
// thread's max), then y = that · exp(m_t − M) / S with the block's (M, S). log_softmax keeps x and
// writes x − (M + log S). exp is __expf (MUFU ex2; a few ulp, far inside the exact class's 1e-4).
// Masked lanes hold −inf: exp(−inf) = 0, and an all −inf row gives NaN, as PyTorch's.
template <bool kLog>
__global__ void __launch_bounds__(kResidentThreads, 1)
    softmax_resident_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t extent) {
  using namespace resident_detail;
  extern __shared__ float4 staged[];  // [kResidentSharedVectors][kResidentThreads]
  __shared__ MaxSum partials[device::kMaxWarpsPerBlock];
  const int vectors = static_cast<int>(extent / 4);
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float4* x4 = reinterpret_cast<const float4*>(x + row * extent);
    float4* y4 = reinterpret_cast<float4*>(y + row * extent);
    const int base = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int k = 0; k < kResidentSharedVectors; ++k) {
      const int i = base + (kResidentRegisterVectors + k) * kResidentThreads;
      float4* slot = &staged[k * kResidentThreads + threadIdx.x];
      if (i < vectors) copy_async16(slot, x4 + i);
      else *slot = neg_inf4();
    }
    float4 v[kResidentRegisterVectors];
#pragma unroll
    for (int k = 0; k < kResidentRegisterVectors; ++k) {
      const int i = base + k * kResidentThreads;
      v[k] = i < vectors ? __ldcs(x4 + i) : neg_inf4();
    }

    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < kResidentRegisterVectors; ++k) m = fmaxf(m, max4(v[k]));
    wait_async_copies();  // each thread reads back only the slots it filled: no barrier
    // unroll 1 on the shared loops: one float4 live beside the register-resident ones (full
    // unrolling spilled at the 64-register cap of 1024 threads).
#pragma unroll 1
    for (int k = 0; k < kResidentSharedVectors; ++k) m = fmaxf(m, max4(staged[k * kResidentThreads + threadIdx.x]));
    const float shift = m == -INFINITY ? 0.f : m;
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < kResidentRegisterVectors; ++k) {
      const float4 e = exp4(v[k], shift);
      if constexpr (!kLog) v[k] = e;
      s += sum4(e);
    }
#pragma unroll 1
    for (int k = 0; k < kResidentSharedVectors; ++k) {
      float4& slot = staged[k * kResidentThreads + threadIdx.x];
      const float4 e = exp4(slot, shift);
      if constexpr (!kLog) slot = e;
      s += sum4(e);
    }
    const MaxSum total = device::block_max_sum({m, s}, partials);

    const auto finish = [&](float4 value) {
      if constexpr (kLog) {
        const float offset = total.max + logf(total.sum);
        return make_float4(value.x - offset, value.y - offset, value.z - offset, value.w - offset);
      } else {
        const float scale = (m == -INFINITY ? 0.f : __expf(m - total.max)) / total.sum;
        return make_float4(value.x * scale, value.y * scale, value.z * scale, value.w * scale);
      }
    };
#pragma unroll
    for (int k = 0; k < kResidentRegisterVectors; ++k) {
      const int i = base + k * kResidentThreads;
      if (i < vectors) __stcs(y4 + i, finish(v[k]));
    }
#pragma unroll 1
    for (int k = 0; k < kResidentSharedVectors; ++k) {
      const int i = base + (kResidentRegisterVectors + k) * kResidentThreads;
      if (i < vectors) __stcs(y4 + i, finish(staged[k * kResidentThreads + threadIdx.x]));
    }
  }
}

// Whether rows of `extent` take the resident kernel (float4-aligned x and y checked by the caller).
inline bool resident_rows(int64_t extent) {
  return extent % 4 == 0 && extent >= kResidentMinExtent && extent <= kResidentRowCapacity;
}

// Allows the kernel its 128 KiB of dynamic shared memory (once per process and kind).
template <bool kLog>
void allow_resident_shared_memory() {
  static const bool done = [] {
    cuda::check(cudaFuncSetAttribute(softmax_resident_kernel<kLog>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(kResidentSharedBytes)),
                "cudaFuncSetAttribute (resident softmax shared memory)");
    return true;
  }();
  (void)done;
}

template <bool kLog>
void launch_softmax_resident(const float* x, float* y, int64_t rows, int64_t extent, cudaStream_t stream) {
  allow_resident_shared_memory<kLog>();
  softmax_resident_kernel<kLog><<<row_blocks(rows), kResidentThreads, kResidentSharedBytes, stream>>>(x, y, rows, extent);
}

}  // namespace kbv::ops::baseline
