// daemon/ops/common/baseline/batched_transpose.cu — the batched transpose (see
// batched_transpose.hpp): batched_transpose.cuh's kernel with the channel bias, if any, as its
// epilogue (transpose::ColumnBias).
#include "ops/common/baseline/batched_transpose.hpp"

#include "common/cuda_error.hpp"
#include "ops/common/baseline/batched_transpose.cuh"

namespace kbv::ops::baseline {

void launch_batched_transpose(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const float* bias,
                              cudaStream_t stream, TransposeForm form) {
  transpose::launch(src, dst, batch, rows, cols, transpose::ColumnBias{bias}, stream, form);
  cuda::check_launch("kbv batched transpose kernel");
}

}  // namespace kbv::ops::baseline
