// kernels/geometry.cpp — host-side launch geometry: broadcast coalescing, layernorm row
// splitting, SM count.
#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <vector>

#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {

BroadcastGeometry make_broadcast_geometry(const Shape& a, const Shape& b, const Shape& out) {
  if (op_support::broadcast_shapes("broadcast", a, b) != out)
    throw std::invalid_argument("shapes " + kbv::to_string(a) + " and " + kbv::to_string(b) +
                                " do not broadcast to " + kbv::to_string(out));
  const std::vector<int64_t> sa = op_support::broadcast_strides(a, out);
  const std::vector<int64_t> sb = op_support::broadcast_strides(b, out);

  // Keep dims of size > 1, merging dim d into the kept dim after it when both operands step
  // through them as one contiguous run: stride[d] == stride[next] * dims[next].
  std::vector<int64_t> dims, stride_a, stride_b;  // innermost first while building
  for (size_t d = out.size(); d-- > 0;) {
    if (out[d] == 1) continue;
    if (!dims.empty() && sa[d] == stride_a.back() * dims.back() &&
        sb[d] == stride_b.back() * dims.back()) {
      dims.back() *= out[d];
      continue;
    }
    dims.push_back(out[d]);
    stride_a.push_back(sa[d]);
    stride_b.push_back(sb[d]);
  }
  if (dims.empty()) {  // a single element
    dims.push_back(1);
    stride_a.push_back(0);
    stride_b.push_back(0);
  }
  if (dims.size() > static_cast<size_t>(kMaxBroadcastRank))
    throw std::invalid_argument("broadcast of " + kbv::to_string(a) + " with " + kbv::to_string(b) +
                                " needs " + std::to_string(dims.size()) +
                                " dims after coalescing; the CUDA kernel handles " +
                                std::to_string(kMaxBroadcastRank));
  BroadcastGeometry geometry;
  geometry.rank = static_cast<int>(dims.size());
  for (int d = 0; d < geometry.rank; ++d) {  // back to outermost first
    const size_t from = dims.size() - 1 - static_cast<size_t>(d);
    geometry.dims[d] = dims[from];
    geometry.stride_a[d] = stride_a[from];
    geometry.stride_b[d] = stride_b[from];
  }
  geometry.count = numel(out);
  return geometry;
}

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
