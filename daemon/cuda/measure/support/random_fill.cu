// support/random_fill.cu — a grid-stride counter-hash fill (splitmix64 finaliser per element).
#include <algorithm>

#include "common/cuda_error.hpp"
#include "measure/support/random_fill.hpp"

namespace kbv::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

__device__ __forceinline__ uint64_t mix(uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void fill_kernel(float* data, int64_t count, uint64_t seed, float scale) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const uint64_t bits = mix(seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(i));
    // 24 bits to (0, 1) (never 0 or 1), then to (−1, 1) \ {0}.
    const float unit = (static_cast<float>(bits >> 40) + 0.5f) * (1.0f / 16777216.0f);
    data[i] = (2.f * unit - 1.f) * scale;
  }
}

}  // namespace

void fill_random_uniform(float* data, int64_t count, uint64_t seed, float scale,
                         cudaStream_t stream) {
  if (count <= 0) return;
  const int64_t blocks = std::min((count + kThreads - 1) / kThreads, kMaxBlocks);
  fill_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(data, count, seed, scale);
  check_launch("kbv random fill kernel");
}

}  // namespace kbv::cuda
