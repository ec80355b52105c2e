// ops/common/baseline/batched_transpose.hpp — the layout changes around a channels-last (NHWC)
// cuDNN convolution (cudnn_convolution.cpp): its input and weight from NC(HW) to N(HW)C, and its
// output back from N(HW)C to NC(HW) with the convolution's bias added in the same pass (one read
// and one write of the output instead of a transpose and then a broadcast add).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::baseline {

// Which kernel moves the tiles (batched_transpose.cuh): 32×32 tiles of 4-byte accesses; 64×64
// tiles of float4s where the sides are multiples of 4 and the buffers 16-byte aligned; or tiles of
// 32 source columns × 128 source rows, float4 loads and 4-byte stores, where the columns are a
// multiple of 4 and the source 16-byte aligned (else the 32×32 form). The convolution's weight
// pass asks for the wide form; its input pass and its output passes (the bias alone, or the bias
// and an elementwise chain) the long-row one (batched_transpose.cuh says why).
enum class TransposeForm { narrow, wide_where_it_fits, long_rows_where_it_fits };

// dst[b][j][i] = src[b][i][j], plus bias[j] when `bias` is not null, for every b < batch, i < rows,
// j < cols; src and dst dense and distinct. Enqueued on `stream`.
void launch_batched_transpose(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const float* bias,
                              cudaStream_t stream, TransposeForm form = TransposeForm::narrow);

}  // namespace kbv::ops::baseline
