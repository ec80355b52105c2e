// daemon/ops/common/baseline/pad_copy.cu — the padded GEMM's copy kernels: grid-stride over the
// written elements, reads and writes coalesced, the row found by a division (32-bit where every
// index fits: a 64-bit one costs the GPU several times more).
#include <algorithm>
#include <stdexcept>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/pad_copy.hpp"

namespace kbv::ops::baseline {
namespace {

constexpr int kThreads = 256;
// Enough blocks to fill an H200 several times over (132 SMs × 8 blocks of 256), few enough that
// each thread loops; the copies are bandwidth-bound.
constexpr int64_t kMaxBlocks = 4096;

unsigned blocks_for(int64_t work) { return static_cast<unsigned>(std::clamp<int64_t>((work + kThreads - 1) / kThreads, 1, kMaxBlocks)); }

template <class Index>
__global__ void pad_matrix_kernel(float4* dst, Index dst_quads, Index quads_per_row, const float* src, Index rows, Index cols) {
  for (Index q = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; q < dst_quads; q += static_cast<Index>(blockDim.x) * gridDim.x) {
    const Index row = q / quads_per_row;
    const Index col = (q - row * quads_per_row) * 4;
    float value[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) value[k] = row < rows && col + k < cols ? src[row * cols + col + k] : 0.f;
    dst[q] = make_float4(value[0], value[1], value[2], value[3]);
  }
}

// Four consecutive elements of the dense result per thread and iteration (whole quads;
// crop_matrix_elements_kernel the rest), written as one float4 (the result is dense and 16-byte
// aligned, so quad q starts at an aligned address whatever the row length), read one by one (a
// source row of src_cols floats starts wherever the crop puts it), with one division per quad
// rather than per element: the one-element kernel moved matmul_irregular's 194 MB result at
// 2.19 TB/s where a copy reaches ~3 (r81, H100); this one 2.75 (r83).
template <class Index>
__global__ void crop_matrix_kernel(float4* dst, Index quads, Index cols, const float* src, Index src_cols) {
  for (Index q = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; q < quads; q += static_cast<Index>(blockDim.x) * gridDim.x) {
    const Index first = q * 4;
    Index row = first / cols, col = first - row * cols;
    float value[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      value[k] = src[row * src_cols + col];
      if (++col == cols) col = 0, ++row;
    }
    dst[q] = make_float4(value[0], value[1], value[2], value[3]);
  }
}

// Elements first … count − 1 of the result one by one: the last count % 4 (a float4 there would
// write past the result), or all of them where the result is not 16-byte aligned.
template <class Index>
__global__ void crop_matrix_elements_kernel(float* dst, Index first, Index count, Index cols, const float* src, Index src_cols) {
  for (Index i = first + static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += static_cast<Index>(blockDim.x) * gridDim.x) {
    const Index row = i / cols;
    dst[i] = src[row * src_cols + (i - row * cols)];
  }
}

// Whether every index of a matrix of `elements` fits 32 bits.
bool fits_32_bits(int64_t elements) { return elements < (int64_t{1} << 32); }

}  // namespace

void pad_matrix(float* dst, int64_t dst_rows, int64_t dst_cols, const float* src, int64_t rows, int64_t cols, cudaStream_t stream) {
  if (dst_cols % 4 != 0 || reinterpret_cast<uintptr_t>(dst) % 16 != 0 || rows > dst_rows || cols > dst_cols)
    throw std::invalid_argument("pad_matrix: the padded matrix must be at least as large, with rows of a multiple of 4 floats at a "
                                "16-byte aligned address");
  const int64_t quads = dst_rows * dst_cols / 4;
  if (quads == 0) return;
  auto* out = reinterpret_cast<float4*>(dst);
  if (fits_32_bits(dst_rows * dst_cols) && fits_32_bits(rows * cols))
    pad_matrix_kernel<uint32_t><<<blocks_for(quads), kThreads, 0, stream>>>(out, static_cast<uint32_t>(quads), static_cast<uint32_t>(dst_cols / 4),
                                                                         src, static_cast<uint32_t>(rows), static_cast<uint32_t>(cols));
  else
    pad_matrix_kernel<uint64_t><<<blocks_for(quads), kThreads, 0, stream>>>(out, static_cast<uint64_t>(quads), static_cast<uint64_t>(dst_cols / 4),
                                                                         src, static_cast<uint64_t>(rows), static_cast<uint64_t>(cols));
  cuda::check_launch("pad_matrix_kernel");
}

void crop_matrix(float* dst, int64_t rows, int64_t cols, const float* src, int64_t src_cols, cudaStream_t stream) {
  if (cols > src_cols) throw std::invalid_argument("crop_matrix: the source rows are shorter than the result's");
  const int64_t count = rows * cols;
  if (count == 0) return;
  const int64_t quads = reinterpret_cast<uintptr_t>(dst) % 16 == 0 ? count / 4 : 0, by_quads = quads * 4;
  auto launch = [&]<class Index>(Index) {
    if (quads > 0)
      crop_matrix_kernel<Index><<<blocks_for(quads), kThreads, 0, stream>>>(reinterpret_cast<float4*>(dst), static_cast<Index>(quads),
                                                                            static_cast<Index>(cols), src, static_cast<Index>(src_cols));
    if (by_quads < count)
      crop_matrix_elements_kernel<Index><<<blocks_for(count - by_quads), kThreads, 0, stream>>>(
          dst, static_cast<Index>(by_quads), static_cast<Index>(count), static_cast<Index>(cols), src, static_cast<Index>(src_cols));
  };
  if (fits_32_bits(rows * src_cols))
    launch(uint32_t{});
  else
    launch(uint64_t{});
  cuda::check_launch("crop_matrix_kernel");
}

}  // namespace kbv::ops::baseline
