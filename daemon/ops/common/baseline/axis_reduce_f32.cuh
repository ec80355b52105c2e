// ops/common/baseline/axis_reduce_f32.cuh — the CUDA fp32 baseline of the reductions over
// adjacent axes that sum and mean's kernel (axis_f32.cuh's reduce_like) does not cover: amax,
// amin, logsumexp, norm, argmax, argmin. One kernel per application, as PyTorch eager's one
// reduce kernel, on [outer, extent, inner] (axis_f32.cuh's layout): rows (inner == 1) one block
// per row, float4 loads when aligned, warp-shuffle then shared-memory combine; columns (inner >
// 1) 32 adjacent columns per block with the axis split over 8 thread rows.
//
// A Reducer is a functor type with
//   using State = …;                         float, MaxSum or ArgState (shuffle_xor below)
//   __device__ State empty() const;
//   __device__ void add(State&, float x, int64_t position) const;   position along the extent
//   __device__ State combine(State a, State b) const;                commutative
//   __device__ float finish(State, int64_t extent) const;
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "common/device_buffer.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {

// argmax/argmin's running extreme and its position (the first one on ties).
struct ArgState {
  float value;
  int64_t position;
};

namespace device {

__device__ __forceinline__ float shuffle_xor(float value, int offset) {
  return __shfl_xor_sync(kFullMask, value, offset);
}
__device__ __forceinline__ MaxSum shuffle_xor(MaxSum value, int offset) {
  return {__shfl_xor_sync(kFullMask, value.max, offset), __shfl_xor_sync(kFullMask, value.sum, offset)};
}
__device__ __forceinline__ ArgState shuffle_xor(ArgState value, int offset) {
  return {__shfl_xor_sync(kFullMask, value.value, offset),
          static_cast<int64_t>(__shfl_xor_sync(kFullMask, static_cast<long long>(value.position), offset))};
}

// Combine over the block in a fixed tree (deterministic), returned to every thread. `shared`
// holds kMaxWarpsPerBlock States; the block is a multiple of 32 threads. Every Reducer's
// combine is commutative (ArgReducer breaks ties on the position itself), so the tree's shape
// does not change the result's meaning.
template <class Reducer>
__device__ typename Reducer::State block_combine(const Reducer& reducer, typename Reducer::State value,
                                                 typename Reducer::State* shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const typename Reducer::State other = shuffle_xor(value, offset);
    value = reducer.combine(value, other);
  }
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : reducer.empty();
#pragma unroll
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      const typename Reducer::State other = shuffle_xor(value, offset);
      value = reducer.combine(value, other);
    }
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
}

}  // namespace device

// One block per row; threads stride over it.
template <class Reducer, bool kVector>
__global__ void reduce_rows_kernel(Reducer reducer, const float* __restrict__ x, float* __restrict__ y,
                                   int64_t rows, int64_t extent) {
  using State = typename Reducer::State;
  __shared__ State shared[device::kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    State acc = reducer.empty();
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        reducer.add(acc, v.x, 4 * i);
        reducer.add(acc, v.y, 4 * i + 1);
        reducer.add(acc, v.z, 4 * i + 2);
        reducer.add(acc, v.w, 4 * i + 3);
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x) reducer.add(acc, xr[i], i);
    }
    const State total = device::block_combine(reducer, acc, shared);
    if (threadIdx.x == 0) y[row] = reducer.finish(total, extent);
  }
}

template <class Reducer>
__global__ void reduce_columns_kernel(Reducer reducer, const float* __restrict__ x, float* __restrict__ y,
                                      int64_t outer, int64_t extent, int64_t inner) {
  using State = typename Reducer::State;
  __shared__ State partial[kColumnSlices][kColumnTile];
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kColumnTile + threadIdx.x;
  const bool active = column < inner;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    const float* xo = x + o * extent * inner + column;
    State acc = reducer.empty();
    if (active) {
#pragma unroll 4
      for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices) reducer.add(acc, xo[a * inner], a);
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (active && threadIdx.y == 0) {
      State total = partial[0][threadIdx.x];
#pragma unroll
      for (int s = 1; s < kColumnSlices; ++s) total = reducer.combine(total, partial[s][threadIdx.x]);
      y[o * inner + column] = reducer.finish(total, extent);
    }
    __syncthreads();  // `partial` is rewritten for the next `o`
  }
}

// ---- few long rows: split each row over several blocks, then combine their partial states ----

// One block per row leaves most SMs idle when there are fewer rows than this (an H200 has 132
// SMs; two resident 1024-thread blocks each); a full reduction (torch.mean(x), MSE, a
// Frobenius norm) is a single row. PyTorch's reduce kernel splits such rows too.
constexpr int64_t kSplitBelowRows = 256;
// Elements one block of a split row reduces: 16 per thread of a 1024-thread block.
constexpr int64_t kSplitChunk = 16384;

inline int64_t split_pieces(const AxisSplit& split) {
  if (split.inner != 1 || split.outer >= kSplitBelowRows || split.extent < 2 * kSplitChunk) return 1;
  return (split.extent + kSplitChunk - 1) / kSplitChunk;
}

// Block (piece, row) folds positions [piece·kSplitChunk, …) of its row into partial[row·pieces + piece].
template <class Reducer>
__global__ void reduce_row_pieces_kernel(Reducer reducer, const float* __restrict__ x,
                                         typename Reducer::State* __restrict__ partial, int64_t extent) {
  using State = typename Reducer::State;
  __shared__ State shared[device::kMaxWarpsPerBlock];
  const int64_t row = blockIdx.y, piece = blockIdx.x;
  const float* xr = x + row * extent;
  const int64_t start = piece * kSplitChunk;
  const int64_t end = start + kSplitChunk < extent ? start + kSplitChunk : extent;
  State acc = reducer.empty();
  for (int64_t i = start + threadIdx.x; i < end; i += blockDim.x) reducer.add(acc, xr[i], i);
  const State total = device::block_combine(reducer, acc, shared);
  if (threadIdx.x == 0) partial[row * gridDim.x + piece] = total;
}

template <class Reducer>
__global__ void finish_row_pieces_kernel(Reducer reducer, const typename Reducer::State* __restrict__ partial,
                                         float* __restrict__ y, int64_t pieces, int64_t extent) {
  using State = typename Reducer::State;
  __shared__ State shared[device::kMaxWarpsPerBlock];
  const int64_t row = blockIdx.x;
  State acc = reducer.empty();
  for (int64_t i = threadIdx.x; i < pieces; i += blockDim.x) acc = reducer.combine(acc, partial[row * pieces + i]);
  const State total = device::block_combine(reducer, acc, shared);
  if (threadIdx.x == 0) y[row] = reducer.finish(total, extent);
}

// y[o, i] = reducer over the extent of x[o, :, i]; `what` names the kernel in launch errors.
template <class Reducer>
void reduce_axis_f32(const Reducer& reducer, const AxisSplit& split, const float* x, float* y,
                     cudaStream_t stream, const char* what) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1) {
    const bool vector = vectorizable(split.extent, x, x);
    const int threads = row_threads(vector ? split.extent / 4 : split.extent);
    if (vector)
      reduce_rows_kernel<Reducer, true><<<row_blocks(split.outer), threads, 0, stream>>>(
          reducer, x, y, split.outer, split.extent);
    else
      reduce_rows_kernel<Reducer, false><<<row_blocks(split.outer), threads, 0, stream>>>(
          reducer, x, y, split.outer, split.extent);
  } else {
    reduce_columns_kernel<Reducer><<<column_grid(split), kColumnBlock, 0, stream>>>(
        reducer, x, y, split.outer, split.extent, split.inner);
  }
  cuda::check_launch(what);
}

// ---- the reducers ----

// amax (kMax) or amin: NaN propagates, as torch.amax/amin.
template <bool kMax>
struct ExtremeReducer {
  using State = float;
  __device__ State empty() const { return kMax ? -INFINITY : INFINITY; }
  __device__ State combine(State a, State b) const {
    if (a != a) return a;
    if (b != b) return b;
    return kMax ? fmaxf(a, b) : fminf(a, b);
  }
  __device__ void add(State& acc, float x, int64_t) const { acc = combine(acc, x); }
  __device__ float finish(State acc, int64_t) const { return acc; }
};

// logsumexp: online (max, Σ exp(x − max)), softmax's reduction (online_stats.hpp).
struct LogSumExpReducer {
  using State = MaxSum;
  __device__ State empty() const { return max_sum_empty(); }
  __device__ void add(State& acc, float x, int64_t) const { max_sum_add(acc, x); }
  __device__ State combine(State a, State b) const { return max_sum_combine(a, b); }
  __device__ float finish(State acc, int64_t) const {
    // A non-finite max (all −inf, a +inf, NaN) is the result, as torch.logsumexp gives.
    return isfinite(acc.max) ? acc.max + logf(acc.sum) : (acc.sum != acc.sum ? acc.sum : acc.max);
  }
};

// norm: Σ|x|^p, then its 1/p-th power (squares and sqrt for p = 2, as PyTorch's kernel).
struct NormReducer {
  using State = float;
  float p;
  __device__ State empty() const { return 0.f; }
  __device__ void add(State& acc, float x, int64_t) const {
    acc += p == 2.f ? x * x : (p == 1.f ? fabsf(x) : powf(fabsf(x), p));
  }
  __device__ State combine(State a, State b) const { return a + b; }
  __device__ float finish(State acc, int64_t) const {
    return p == 2.f ? sqrtf(acc) : (p == 1.f ? acc : powf(acc, 1.f / p));
  }
};

// sum, or mean (kMean): the few-long-rows path of sum and mean (their other shapes run
// axis_f32.cuh's reduce_like).
template <bool kMean>
struct SumReducer {
  using State = float;
  __device__ State empty() const { return 0.f; }
  __device__ void add(State& acc, float x, int64_t) const { acc += x; }
  __device__ State combine(State a, State b) const { return a + b; }
  __device__ float finish(State acc, int64_t extent) const { return kMean ? acc / static_cast<float>(extent) : acc; }
};

// argmax (kMax) or argmin: the first position of the extreme; a NaN beats every number (the
// first NaN wins), as torch.argmax/argmin. The result is the position as a float.
template <bool kMax>
struct ArgReducer {
  using State = ArgState;
  __device__ State empty() const { return {kMax ? -INFINITY : INFINITY, INT64_MAX}; }
  // Whether a is chosen over b.
  __device__ static bool wins(State a, State b) {
    const bool a_nan = a.value != a.value, b_nan = b.value != b.value;
    if (a_nan || b_nan) return a_nan && (!b_nan || a.position < b.position);
    if (a.value != b.value) return kMax ? a.value > b.value : a.value < b.value;
    return a.position < b.position;
  }
  __device__ State combine(State a, State b) const { return wins(b, a) ? b : a; }
  __device__ void add(State& acc, float x, int64_t position) const { acc = combine(acc, {x, position}); }
  __device__ float finish(State acc, int64_t) const { return static_cast<float>(acc.position); }
};

// The baseline step of a reduction: one reduce_axis_f32 launch per run, or for few long rows
// (split_pieces > 1) a pieces kernel into a workspace allocated once, then a finishing kernel.
template <class Reducer>
class AxisReduceStep final : public cuda::measure::NodeStep {
 public:
  AxisReduceStep(Reducer reducer, AxisSplit split, std::string op)
      : reducer_(reducer),
        split_(split),
        pieces_(split_pieces(split)),
        partials_(pieces_ > 1 ? static_cast<size_t>(split.outer * pieces_) : 0),
        launch_name_("kbv " + op + " kernel") {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    if (pieces_ == 1) {
      reduce_axis_f32(reducer_, split_, in[0], out, stream, launch_name_.c_str());
      return;
    }
    const dim3 grid(static_cast<unsigned>(pieces_), static_cast<unsigned>(split_.outer));
    reduce_row_pieces_kernel<Reducer><<<grid, kMaxRowThreads, 0, stream>>>(reducer_, in[0], partials_.get(), split_.extent);
    cuda::check_launch(launch_name_.c_str());
    finish_row_pieces_kernel<Reducer><<<row_blocks(split_.outer), row_threads(pieces_), 0, stream>>>(
        reducer_, partials_.get(), out, pieces_, split_.extent);
    cuda::check_launch(launch_name_.c_str());
  }
  std::string describe() const override {
    return launch_name_ + " " + split_text(split_) + (pieces_ > 1 ? " in " + std::to_string(pieces_) + " pieces a row" : "");
  }

 private:
  Reducer reducer_;
  AxisSplit split_;
  int64_t pieces_;
  cuda::DeviceBuffer<typename Reducer::State> partials_;
  std::string launch_name_;
};

template <class Reducer>
std::unique_ptr<cuda::measure::NodeStep> axis_reduce_step(const cuda::measure::NodeContext& node, Reducer reducer,
                                                          AxisSplit split) {
  return std::make_unique<AxisReduceStep<Reducer>>(reducer, split, node.node.op);
}

}  // namespace kbv::ops::baseline
