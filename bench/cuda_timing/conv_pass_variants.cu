// bench/cuda_timing/conv_pass_variants.cu — forms of the wide transpose's output pass beside the
// library's (conv_passes.cpp times them). Round r73 (H100) found the wide pass far from the copy's
// rate: 1.06 ms with the bias alone where a copy of the bytes took 0.69, 0.88 with the bias read
// once per float4 rather than once per lane, and 1.12 with the relu → add chain whichever way its
// operand was read. r82 timed these variants, and the library took the fastest (the two_lines
// mapping, the chain per float4, rolled: 0.765 ms) and, for its plain input pass, four_lines;
// the others stay here so that a round can see where each stands on another GPU or chain:
//  - the warp's mapping onto the 64×64 tile (batched_transpose.cuh, WideMapping);
//  - how often the chain runs: once per float4 (4 values of one channel), or once per thread over
//    its 16 values (two channels, 8 values each: four_lines gives a thread one line for two
//    passes), and its instruction loop unrolled (chain::run_chain: 8 copies of the op switch) or
//    rolled (chain::run_chain_rolled).
// (r88, H200, timed here too the long-row tiles of 32 channels × 128 and 256 pixels: 0.721 and
// 0.730 ms with relu → add, 0.544 with the bias alone; the library took the 128-pixel one for
// its output passes, batched_transpose.cuh, and --conv-passes times it as a library form.)
// And, since the library's long-row output pass with the chain (0.721 ms on the H200, r88) stayed
// well behind the same pass with the bias alone (0.544): the long-row kernel with registers bounded
// for 8 or 6 resident blocks an SM (ptxas: 47 registers with the chain, 32 with the bias alone),
// and with relu → add written out as a generated kernel would have it (ptxas: 48 registers, as
// many as the interpreter's), alone and bounded; with each column's operands staged in shared
// memory before the tile loop (StagedChain); the wide input pass with registers for 8 blocks
// (conv_passes.cpp times it beside the library's forms). r91 (H200): the library's long-row pass
// 0.705 ms with relu → add; bounded to 8 blocks 0.875, to 6 blocks 0.782; operands staged 0.758
// (8 blocks: 0.831); relu → add written out 0.538 (8 blocks: 0.575), about as fast as the bias
// alone (0.520). So neither occupancy nor the operands' loads: the interpreter's per-instruction
// work is the cost, which the chain run once per 2 or 4 columns (the last variants, not yet timed)
// pays a half or a quarter as often. The wide input pass with 8 blocks: 0.347 against the library's
// 0.332.
// Each reads every operand once per channel group, never per lane.
#include <cuda_runtime_api.h>

#include <iterator>
#include <stdexcept>
#include <string>

#include "common/cuda_error.hpp"
#include "conv_pass_variants.hpp"
#include "ops/common/baseline/conv_epilogue.cuh"

namespace kbv::bench {
namespace {

namespace transpose = ops::baseline::transpose;
namespace chain = ops::baseline::chain;
using transpose::kWideThreads;
using transpose::kWideTile;
using transpose::WideTile;

using transpose::kVector;
constexpr int kPasses = transpose::kWidePasses;

template <bool kFourLines>
constexpr transpose::WideMapping kMapping = kFourLines ? transpose::WideMapping::four_lines : transpose::WideMapping::two_lines;

// The bias, then the chain (unless `kBiasOnly`), over kGroups × kPerGroup values, group g all of
// channel columns[g]: each operand read once per group.
template <int kGroups, int kPerGroup, bool kRolled, bool kBiasOnly>
__device__ __forceinline__ void apply_epilogue(const ops::baseline::ChannelChain& epilogue, float (&values)[kGroups * kPerGroup],
                                               const int64_t (&columns)[kGroups]) {
  constexpr int kLanes = kGroups * kPerGroup;
  if (epilogue.bias != nullptr) {
KBV_UNROLL
    for (int g = 0; g < kGroups; ++g) {
      const float b = epilogue.bias[columns[g]];
KBV_UNROLL
      for (int v = 0; v < kPerGroup; ++v) values[g * kPerGroup + v] += b;
    }
  }
  if constexpr (!kBiasOnly) {
    const auto load = [&](int k, float (&operand)[kLanes]) {
KBV_UNROLL
      for (int g = 0; g < kGroups; ++g) {
        const float value = epilogue.pointers[k][columns[g] * epilogue.channel_stride[k]];
KBV_UNROLL
        for (int v = 0; v < kPerGroup; ++v) operand[g * kPerGroup + v] = value;
      }
    };
    if constexpr (kRolled)
      chain::run_chain_rolled<kLanes>(epilogue.code, values, load);
    else
      chain::run_chain<kLanes>(epilogue.code, values, load);
  }
}

// The per-float4 variants: the library's wide kernel (transpose::launch) with this epilogue, which
// picks the mapping and how the chain is run. The narrow form's call is there for the kernel
// template only: launch() below runs the wide form or refuses.
template <bool kFourLines, bool kRolled, bool kBiasOnly>
struct PerFloat4 {
  static constexpr transpose::WideMapping kWideMapping = kMapping<kFourLines>;
  ops::baseline::ChannelChain chain;
  __device__ __forceinline__ void operator()(float (&values)[kVector], int64_t column) const {
    const int64_t columns[1] = {column};
    apply_epilogue<1, kVector, kRolled, kBiasOnly>(chain, values, columns);
  }
  __device__ __forceinline__ void operator()(float (&values)[transpose::kLanes], const int64_t (&columns)[transpose::kLanes]) const {
    apply_epilogue<transpose::kLanes, 1, kRolled, kBiasOnly>(chain, values, columns);
  }
};

// The per-thread variant: the chain once over the thread's 4 float4s (four_lines: two columns,
// passes 0–1 and 2–3), in a kernel of its own around the library's load phase and tile loop.
template <bool kRolled>
__global__ void __launch_bounds__(kWideThreads) per_thread_kernel(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows,
                                                                   int64_t cols, ops::baseline::ChannelChain epilogue) {
  constexpr transpose::WideMapping kFour = transpose::WideMapping::four_lines;
  __shared__ WideTile tile;
  const int t = static_cast<int>(threadIdx.x);
  transpose::for_each_block_tile<kWideTile>(src, dst, batch, rows, cols, [&](const float* from, float* to, int64_t row0, int64_t col0) {
    transpose::load_wide_tile<kFour>(tile, from, rows, cols, row0, col0, t);
    __syncthreads();
    float values[kPasses * kVector];
    int64_t columns[2];
KBV_UNROLL
    for (int p = 0; p < kPasses; ++p) {
      const transpose::WideSlot s = transpose::wide_slot<kFour>(t, p);
      columns[p / 2] = min(col0 + s.line, cols - 1);  // past the edge: read a real channel, write nothing
KBV_UNROLL
      for (int k = 0; k < kVector; ++k) values[p * kVector + k] = tile[s.offset + k][s.line];
    }
    apply_epilogue<2, 2 * kVector, kRolled, false>(epilogue, values, columns);
KBV_UNROLL
    for (int p = 0; p < kPasses; ++p) {
      const transpose::WideSlot s = transpose::wide_slot<kFour>(t, p);
      const int64_t column = col0 + s.line, row = row0 + s.offset;
      if (column >= cols || row >= rows) continue;
      *reinterpret_cast<float4*>(to + column * rows + row) =
          make_float4(values[p * kVector], values[p * kVector + 1], values[p * kVector + 2], values[p * kVector + 3]);
    }
    __syncthreads();
  });
}

// The library's long-row and wide kernels (batched_transpose.cuh: their bodies, move_long_tiles
// and move_wide_tiles) with a minimum of kMinBlocks resident blocks an SM asked of the compiler:
// ptxas gives the long kernel 47 registers with the chain (5 blocks of 256 threads an SM) and 32
// with the bias alone (8 blocks: every thread slot), the wide kernel 40 with the bias (6 blocks). A
// pass at the memory's rate needs bytes in flight; these variants trade registers (spilling where
// they must) for resident warps.
template <int kMinBlocks, class Epilogue>
__global__ void __launch_bounds__(transpose::kLongThreads, kMinBlocks)
    long_kernel_bounded(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols, Epilogue epilogue) {
  __shared__ transpose::LongTile tile;
  transpose::move_long_tiles(tile, src, dst, batch, rows, cols, static_cast<int>(threadIdx.x), epilogue);
}

template <int kMinBlocks, class Epilogue>
__global__ void __launch_bounds__(kWideThreads, kMinBlocks)
    wide_kernel_bounded(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols, Epilogue epilogue) {
  __shared__ WideTile tile;
  transpose::move_wide_tiles(tile, src, dst, batch, rows, cols, static_cast<int>(threadIdx.x), epilogue);
}

// conv2d_relu_biasadd's epilogue written out, as a generated kernel has it (bias, relu, then the
// per-channel operand 0 added): what the interpreter's generality costs in the long-row pass. Only
// right for a relu → add chain; the bench's comparison with the library says whether it was.
struct ReluAddWrittenOut {
  ops::baseline::ChannelChain chain;
  __device__ __forceinline__ void operator()(float (&values)[kVector], int64_t column) const {
    const float b = chain.bias[column], operand = chain.pointers[0][column * chain.channel_stride[0]];
KBV_UNROLL
    for (int k = 0; k < kVector; ++k) {
      const float v = values[k] + b;
      values[k] = (v < 0.f ? 0.f : v) + operand;
    }
  }
};

void require_long(int64_t cols, const float* src) {
  if (!transpose::long_form_fits(cols, src))
    throw std::invalid_argument("the long-row variants need source columns that are a multiple of 4 and a 16-byte aligned source");
}

template <int kMinBlocks>
void launch_long_chain(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const ops::baseline::ChannelChain& epilogue,
                       cudaStream_t stream) {
  require_long(cols, src);
  long_kernel_bounded<kMinBlocks><<<transpose::tile_grid<transpose::kLongRows, transpose::kLongCols>(batch, rows, cols), transpose::kLongThreads, 0,
                                    stream>>>(src, dst, batch, rows, cols, epilogue);
  cuda::check_launch("long-row transpose variant, bounded registers");
}

template <int kMinBlocks>
void launch_long_written_out(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const ops::baseline::ChannelChain& epilogue,
                             cudaStream_t stream) {
  require_long(cols, src);
  if (epilogue.bias == nullptr || epilogue.pointers[0] == nullptr) throw std::invalid_argument("the written-out relu → add needs a bias and an operand");
  long_kernel_bounded<kMinBlocks><<<transpose::tile_grid<transpose::kLongRows, transpose::kLongCols>(batch, rows, cols), transpose::kLongThreads, 0,
                                    stream>>>(src, dst, batch, rows, cols, ReluAddWrittenOut{epilogue});
  cuda::check_launch("long-row transpose variant, relu → add written out");
}

// The long-row kernel with each column's operands staged in shared memory: before its tile loop
// (a block keeps its 32 columns for all its tiles: for_each_block_tile) the block's first threads
// read the bias and each chain input's value for its columns, so the store phase reads shared
// memory where the library's reads global memory twice in a row (the bias, then the chain's
// operand inside the interpreter: two dependent load latencies per column before its stores).
struct StagedOperands {
  float values[1 + cuda::kMaxFusedInputs][transpose::kLongCols];  // [0]: the bias (0 without one), [1 + k]: input k
};

struct StagedChain {
  const chain::ChainCode& code;
  const StagedOperands& staged;
  bool has_bias;
  int64_t col0;
  __device__ __forceinline__ void operator()(float (&values)[kVector], int64_t column) const {
    const int c = static_cast<int>(column - col0);
    if (has_bias) {
      const float b = staged.values[0][c];
KBV_UNROLL
      for (int k = 0; k < kVector; ++k) values[k] += b;
    }
    chain::run_chain_rolled<kVector>(code, values, [&](int k, float (&operand)[kVector]) {
      const float value = staged.values[1 + k][c];
KBV_UNROLL
      for (int v = 0; v < kVector; ++v) operand[v] = value;
    });
  }
};

template <int kMinBlocks>
__global__ void __launch_bounds__(transpose::kLongThreads, kMinBlocks)
    long_kernel_staged(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols,
                       ops::baseline::ChannelChain epilogue, int inputs) {
  __shared__ transpose::LongTile tile;
  __shared__ StagedOperands staged;
  const int t = static_cast<int>(threadIdx.x);
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * transpose::kLongCols;
  if (t < (1 + inputs) * transpose::kLongCols) {
    const int k = t / transpose::kLongCols, c = t % transpose::kLongCols;
    const int64_t column = min(col0 + c, cols - 1);  // past the edge: a real column, never written
    staged.values[k][c] = k == 0 ? (epilogue.bias != nullptr ? epilogue.bias[column] : 0.f)
                                 : epilogue.pointers[k - 1][column * epilogue.channel_stride[k - 1]];
  }
  // The tile loop's first __syncthreads() (after the load phase) orders these writes before any read.
  transpose::move_long_tiles(tile, src, dst, batch, rows, cols, t, StagedChain{epilogue.code, staged, epilogue.bias != nullptr, col0});
}

template <int kMinBlocks>
void launch_long_staged(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const ops::baseline::ChannelChain& epilogue,
                        cudaStream_t stream) {
  require_long(cols, src);
  int inputs = 0;
  while (inputs < static_cast<int>(cuda::kMaxFusedInputs) && epilogue.pointers[inputs] != nullptr) ++inputs;
  long_kernel_staged<kMinBlocks><<<transpose::tile_grid<transpose::kLongRows, transpose::kLongCols>(batch, rows, cols), transpose::kLongThreads, 0,
                                   stream>>>(src, dst, batch, rows, cols, epilogue, inputs);
  cuda::check_launch("long-row transpose variant, operands staged in shared memory");
}

// The long-row kernel with the chain run once for kColumnsPerCall of the thread's 4 columns (4
// values each) instead of once per column: the interpreter's per-instruction work (the
// instruction's fields, the op's switch) paid once for 4·kColumnsPerCall values. r91 (H200) found
// that work to be what the chain's pass pays over the bias alone (0.705 ms against relu → add
// written out, 0.538). ptxas: 2 columns a call 64 registers, 4 columns 100.
template <int kColumnsPerCall>
__global__ void __launch_bounds__(transpose::kLongThreads)
    long_kernel_chain_per_columns(const float* __restrict__ src, float* __restrict__ dst, int64_t batch, int64_t rows, int64_t cols,
                                  ops::baseline::ChannelChain epilogue) {
  constexpr int kColumnsPerThread = transpose::kLongCols / transpose::kLongWarps;  // 4
  static_assert(kColumnsPerThread % kColumnsPerCall == 0, "calls cover the thread's columns");
  __shared__ transpose::LongTile tile;
  const int t = static_cast<int>(threadIdx.x), lane = t % transpose::kWarp, warp = t / transpose::kWarp;
  transpose::for_each_block_tile<transpose::kLongRows, transpose::kLongCols>(
      src, dst, batch, rows, cols, [&](const float* from, float* to, int64_t row0, int64_t col0) {
        transpose::load_long_tile(tile, from, rows, cols, row0, col0, t);
        __syncthreads();
        for (int first = 0; first < kColumnsPerThread; first += kColumnsPerCall) {
          float values[kColumnsPerCall * kVector];
          int64_t columns[kColumnsPerCall];
KBV_UNROLL
          for (int g = 0; g < kColumnsPerCall; ++g) {
            const int c = warp + (first + g) * transpose::kLongWarps;
            columns[g] = min(col0 + c, cols - 1);  // past the edge: a real column's operands, nothing written
KBV_UNROLL
            for (int k = 0; k < kVector; ++k) values[g * kVector + k] = tile[c * transpose::kLongPitch + lane + transpose::kWarp * k];
          }
          apply_epilogue<kColumnsPerCall, kVector, true, false>(epilogue, values, columns);
KBV_UNROLL
          for (int g = 0; g < kColumnsPerCall; ++g) {
            const int64_t column = col0 + warp + (first + g) * transpose::kLongWarps;
            if (column >= cols) continue;
KBV_UNROLL
            for (int k = 0; k < kVector; ++k) {
              const int64_t row = row0 + lane + transpose::kWarp * k;
              if (row < rows) to[column * rows + row] = values[g * kVector + k];
            }
          }
        }
        __syncthreads();
      });
}

template <int kColumnsPerCall>
void launch_long_chain_per_columns(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols,
                                   const ops::baseline::ChannelChain& epilogue, cudaStream_t stream) {
  require_long(cols, src);
  long_kernel_chain_per_columns<kColumnsPerCall><<<transpose::tile_grid<transpose::kLongRows, transpose::kLongCols>(batch, rows, cols),
                                                   transpose::kLongThreads, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
  cuda::check_launch("long-row transpose variant, chain per columns");
}

void require_wide(int64_t rows, int64_t cols, const float* src, const float* dst) {
  if (!transpose::wide_form_fits(rows, cols, src, dst))
    throw std::invalid_argument("the wide variants need sides that are multiples of 4 and 16-byte aligned buffers");
}

template <bool kFourLines, bool kRolled, bool kBiasOnly>
void launch_per_float4(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const ops::baseline::ChannelChain& epilogue,
                       cudaStream_t stream) {
  require_wide(rows, cols, src, dst);
  transpose::launch(src, dst, batch, rows, cols, PerFloat4<kFourLines, kRolled, kBiasOnly>{epilogue}, stream,
                    ops::baseline::TransposeForm::wide_where_it_fits);
  cuda::check_launch("wide transpose variant");
}

template <bool kRolled>
void launch_per_thread(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const ops::baseline::ChannelChain& epilogue,
                       cudaStream_t stream) {
  require_wide(rows, cols, src, dst);
  per_thread_kernel<kRolled><<<transpose::tile_grid<kWideTile>(batch, rows, cols), kWideThreads, 0, stream>>>(src, dst, batch, rows, cols, epilogue);
  cuda::check_launch("wide transpose variant, chain per thread");
}

}  // namespace

using Launch = void (*)(const float*, float*, int64_t, int64_t, int64_t, const ops::baseline::ChannelChain&, cudaStream_t);

// {name, bias only, launcher}, in output_pass_variants()'s order.
struct VariantKernel {
  const char* name;
  bool bias_only;
  Launch launch;
};

constexpr VariantKernel kVariants[] = {
    {"two_lines, bias read once per float4", true, launch_per_float4<false, false, true>},
    {"four_lines, bias read once per float4", true, launch_per_float4<true, false, true>},
    {"two_lines, chain per float4, unrolled", false, launch_per_float4<false, false, false>},
    {"two_lines, chain per float4, rolled (the library's)", false, launch_per_float4<false, true, false>},
    {"four_lines, chain per float4, unrolled", false, launch_per_float4<true, false, false>},
    {"four_lines, chain per float4, rolled", false, launch_per_float4<true, true, false>},
    {"four_lines, chain per thread (16 values), unrolled", false, launch_per_thread<false>},
    {"four_lines, chain per thread (16 values), rolled", false, launch_per_thread<true>},
    {"long rows, chain rolled, registers for 8 blocks an SM", false, launch_long_chain<8>},
    {"long rows, chain rolled, registers for 6 blocks an SM", false, launch_long_chain<6>},
    {"long rows, relu → add written out (a generated kernel's form)", false, launch_long_written_out<1>},
    {"long rows, relu → add written out, registers for 8 blocks an SM", false, launch_long_written_out<8>},
    {"long rows, chain rolled, operands staged in shared memory", false, launch_long_staged<1>},
    {"long rows, chain rolled, operands staged, registers for 8 blocks an SM", false, launch_long_staged<8>},
    {"long rows, chain rolled once per 2 columns (8 values)", false, launch_long_chain_per_columns<2>},
    {"long rows, chain rolled once per 4 columns (16 values: the thread's)", false, launch_long_chain_per_columns<4>},
};

std::vector<PassVariant> output_pass_variants() {
  std::vector<PassVariant> variants;
  for (int i = 0; i < static_cast<int>(std::size(kVariants)); ++i) variants.push_back({kVariants[i].name, kVariants[i].bias_only, i});
  return variants;
}

void run_output_pass_variant(const PassVariant& variant, const ResolvedProblem& problem, const cuda::BaselineUnit& unit, const float* nhwc,
                             float* nchw, int64_t images, int64_t pixels, int64_t channels, const float* bias, const float* const* inputs,
                             size_t input_count, cudaStream_t stream) {
  std::string description;
  ops::baseline::ChannelChain epilogue = ops::baseline::make_channel_chain(problem, unit, description);
  epilogue.bias = bias;
  for (size_t k = 0; k < input_count && k < cuda::kMaxFusedInputs; ++k) epilogue.pointers[k] = inputs[k];
  kVariants[variant.index].launch(nhwc, nchw, images, pixels, channels, epilogue, stream);
}

void run_input_pass_bounded(const float* x, float* xt, int64_t images, int64_t channels, int64_t pixels, cudaStream_t stream) {
  require_wide(channels, pixels, x, xt);
  wide_kernel_bounded<8><<<transpose::tile_grid<kWideTile>(images, channels, pixels), kWideThreads, 0, stream>>>(x, xt, images, channels, pixels,
                                                                                                           transpose::ColumnBias{nullptr});
  cuda::check_launch("wide input transpose variant, bounded registers");
}

}  // namespace kbv::bench
