// ops/common/strided_copy.cuh — the one CUDA kernel of every layout op: it runs a plan's strided
// copies (ops/common/strided_copy.hpp), several per launch, one thread per element with the
// box index decomposed into each copy's dims. Instantiated in fp64 by the CUDA reference
// (ops/common/reference/strided_copy_f64.cu) and in fp32 by the CUDA baseline
// (ops/common/baseline/strided_copy_step.cu). Like PyTorch's copy and cat kernels
// (TensorIterator's OffsetCalculator, CatArrayBatchedCopy), it does 32-bit index arithmetic
// when every tensor is small enough, 64-bit otherwise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>

#include "common/cuda_error.hpp"
#include "ops/common/strided_copy.hpp"

namespace kbv::ops::layout {

// Copies one launch carries, in its parameters: 16 descriptors and source pointers are 3.7 KiB,
// within the 4 KiB CUDA guarantees a kernel's parameters (CUDA C++ Programming Guide, "Function
// Parameters"). A cat of DenseNet-201's 49 inputs is four launches; PyTorch's
// CatArrayBatchedCopy also batches its inputs into few launches.
constexpr int kCopiesPerLaunch = 16;
constexpr int kCopyThreads = 256;
// Blocks per copy at most; the grid-stride loop covers the rest. 1024 × 256 threads are about
// the 270 thousand an H200 holds resident (132 SMs × 2048), so a large copy fills the device.
constexpr int64_t kMaxCopyBlocks = 1024;
// 32-bit indices when every element index, plus a grid's worth of stride, stays below 2^31.
constexpr int64_t kNarrowIndexLimit =
    std::numeric_limits<int32_t>::max() - kMaxCopyBlocks * kCopyThreads;

template <class T>
struct CopyBatch {
  StridedCopy copies[kCopiesPerLaunch];
  const T* sources[kCopiesPerLaunch];  // copies[k] reads sources[k]
  T* destination;
};
static_assert(sizeof(CopyBatch<double>) <= 4096, "a copy batch must fit a kernel's parameters");

// blockIdx.y picks the copy; __grid_constant__ lets threads read the batch in place (indexing a
// by-value parameter array otherwise copies it to local memory).
template <class T, class Index>
__global__ void __launch_bounds__(kCopyThreads)
    strided_copy_kernel(const __grid_constant__ CopyBatch<T> batch) {
  const StridedCopy& copy = batch.copies[blockIdx.y];
  const T* __restrict__ source = batch.sources[blockIdx.y];
  T* __restrict__ destination = batch.destination;
  Index count = 1;
  for (int d = 0; d < copy.rank; ++d) count *= static_cast<Index>(copy.dims[d]);
  const Index stride = static_cast<Index>(gridDim.x) * static_cast<Index>(blockDim.x);
  for (Index i = static_cast<Index>(blockIdx.x) * static_cast<Index>(blockDim.x) +
                 static_cast<Index>(threadIdx.x);
       i < count; i += stride) {
    Index rest = i;
    Index in = static_cast<Index>(copy.in_offset);
    Index out = static_cast<Index>(copy.out_offset);
    for (int d = copy.rank - 1; d >= 0; --d) {
      const Index extent = static_cast<Index>(copy.dims[d]);
      const Index coordinate = rest % extent;
      rest /= extent;
      in += coordinate * static_cast<Index>(copy.in_strides[d]);
      out += coordinate * static_cast<Index>(copy.out_strides[d]);
    }
    destination[out] = source[in];
  }
}

// Enqueues `copies` on `stream`, kCopiesPerLaunch per launch: copy k reads inputs[copy.input]
// and writes `output`. `largest_numel` is the most elements any of the tensors holds; it picks
// the index width. Throws CudaError when a launch fails.
template <class T>
void launch_strided_copies(std::span<const StridedCopy> copies, std::span<const T* const> inputs,
                           T* output, int64_t largest_numel, cudaStream_t stream) {
  const bool narrow = largest_numel <= kNarrowIndexLimit;
  for (size_t first = 0; first < copies.size(); first += kCopiesPerLaunch) {
    const size_t count = std::min<size_t>(kCopiesPerLaunch, copies.size() - first);
    CopyBatch<T> batch{};
    int64_t most = 1;
    for (size_t k = 0; k < count; ++k) {
      batch.copies[k] = copies[first + k];
      batch.sources[k] = inputs[static_cast<size_t>(batch.copies[k].input)];
      most = std::max(most, element_count(batch.copies[k]));
    }
    batch.destination = output;
    const dim3 grid(static_cast<unsigned>(std::clamp<int64_t>(
                        (most + kCopyThreads - 1) / kCopyThreads, 1, kMaxCopyBlocks)),
                    static_cast<unsigned>(count));
    if (narrow)
      strided_copy_kernel<T, int32_t><<<grid, kCopyThreads, 0, stream>>>(batch);
    else
      strided_copy_kernel<T, int64_t><<<grid, kCopyThreads, 0, stream>>>(batch);
    cuda::check_launch("strided_copy_kernel");
  }
}

}  // namespace kbv::ops::layout
