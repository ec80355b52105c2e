// daemon/ops/common/baseline/batched_transpose.cu — the batched transpose kernel (see
// batched_transpose.hpp): 32×32 tiles through shared memory, so that both the reads and the
// writes of a warp are contiguous (CUDA C++ Best Practices Guide, "Shared Memory in Matrix
// Multiplication" / the transpose example: a naive transpose writes with a stride of `rows`).
#include "ops/common/baseline/batched_transpose.hpp"

#include <algorithm>

#include "common/cuda_error.hpp"

namespace kbv::ops::baseline {
namespace {

constexpr int kTile = 32;
constexpr int kTileRowsPerPass = 8;  // a 32×8 block moves a 32×32 tile in four passes
// Grid limits (CUDA: gridDim.y and gridDim.z at most 65535): the tile rows and the batch loop
// over what does not fit.
constexpr int64_t kMaxGridYZ = 65535;

__global__ void batched_transpose_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols,
                                         const float* __restrict__ bias) {
  __shared__ float tile[kTile][kTile + 1];  // +1: the column reads hit 32 different banks
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTile;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    const float* from = src + b * rows * cols;
    float* to = dst + b * rows * cols;
    for (int64_t row_tile = blockIdx.y; row_tile < row_tiles; row_tile += gridDim.y) {
      const int64_t row0 = row_tile * kTile;
      for (int r = threadIdx.y; r < kTile; r += kTileRowsPerPass) {
        const int64_t i = row0 + r, j = col0 + threadIdx.x;
        if (i < rows && j < cols) tile[r][threadIdx.x] = from[i * cols + j];
      }
      __syncthreads();
      for (int c = threadIdx.y; c < kTile; c += kTileRowsPerPass) {
        const int64_t j = col0 + c, i = row0 + threadIdx.x;
        if (i < rows && j < cols) to[j * rows + i] = bias != nullptr ? tile[threadIdx.x][c] + bias[j] : tile[threadIdx.x][c];
      }
      __syncthreads();  // the tile is read before the next one is written
    }
  }
}

}  // namespace

void launch_batched_transpose(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const float* bias,
                              cudaStream_t stream) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  const dim3 block(kTile, kTileRowsPerPass);
  const dim3 grid(static_cast<unsigned>((cols + kTile - 1) / kTile), static_cast<unsigned>(std::min((rows + kTile - 1) / kTile, kMaxGridYZ)),
                  static_cast<unsigned>(std::min(batch, kMaxGridYZ)));
  batched_transpose_kernel<<<grid, block, 0, stream>>>(src, dst, batch, rows, cols, bias);
  cuda::check_launch("kbv batched transpose kernel");
}

}  // namespace kbv::ops::baseline
