// kernels/geometry.cpp — host-side launch geometry: layernorm row splitting, SM count.
#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <vector>

#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {

namespace {
// Blocks wanted per SM before long rows are split: 8 blocks of 256 threads fill an SM's
// 2048 thread slots (sm_90), which memory-bound code needs to hide DRAM latency.
constexpr int64_t kLayerNormBlocksPerSm = 8;
// Rows at least this many times the SM count fill the GPU one block per row.
constexpr int64_t kLayerNormRowsPerSmForFused = 2;
// A chunk shorter than this spends more on combining partial moments than it saves.
constexpr int64_t kLayerNormMinChunkCols = 16384;
constexpr int64_t kPartialFloats = 3;  // mean, m2, count
}  // namespace

LayerNormGeometry plan_layernorm(int64_t rows, int64_t cols, int sm_count) {
  LayerNormGeometry geometry;
  geometry.rows = rows;
  geometry.cols = cols;
  const int64_t sms = std::max(sm_count, 1);
  int64_t chunks = 1;
  if (rows < kLayerNormRowsPerSmForFused * sms) {
    const int64_t wanted = (kLayerNormBlocksPerSm * sms + rows - 1) / rows;
    const int64_t most = std::max<int64_t>(1, cols / kLayerNormMinChunkCols);
    chunks = std::clamp<int64_t>(wanted, 1, most);
  }
  int64_t chunk_cols = (cols + chunks - 1) / chunks;
  chunk_cols = (chunk_cols + 3) / 4 * 4;
  geometry.chunk_cols = chunk_cols;
  geometry.chunks = (cols + chunk_cols - 1) / chunk_cols;
  return geometry;
}

size_t layernorm_scratch_bytes(const LayerNormGeometry& geometry) {
  if (geometry.chunks <= 1) return 0;
  return static_cast<size_t>(geometry.rows * geometry.chunks * kPartialFloats) * sizeof(float);
}

int current_sm_count() {
  constexpr int kMaxDevices = 64;
  static std::array<std::atomic<int>, kMaxDevices> cached{};  // 0 = not asked yet
  int device = 0;
  measure::check(cudaGetDevice(&device), "cudaGetDevice");
  const bool cacheable = device >= 0 && device < kMaxDevices;
  if (cacheable) {
    const int known = cached[static_cast<size_t>(device)].load(std::memory_order_relaxed);
    if (known > 0) return known;
  }
  int count = 0;
  measure::check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
                 "cudaDeviceGetAttribute(MultiProcessorCount)");
  if (cacheable) cached[static_cast<size_t>(device)].store(count, std::memory_order_relaxed);
  return count;
}

}  // namespace kbv::cuda::kernels
