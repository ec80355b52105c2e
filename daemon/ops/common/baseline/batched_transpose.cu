// daemon/ops/common/baseline/batched_transpose.cu — the batched transpose (see
// batched_transpose.hpp): batched_transpose.cuh's kernel with the channel bias, if any, as its
// epilogue.
#include "ops/common/baseline/batched_transpose.hpp"

#include "common/cuda_error.hpp"
#include "ops/common/baseline/batched_transpose.cuh"

namespace kbv::ops::baseline {
namespace {

// Adds bias[column] to each value; nothing when bias is null. Through the wide form only as the
// input's plain pass (batched_transpose.cuh, WideMapping says why four_lines).
struct ColumnBias {
  static constexpr transpose::WideMapping kWideMapping = transpose::WideMapping::four_lines;
  const float* bias;
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kLanes], const int64_t (&columns)[transpose::kLanes]) const {
    if (bias == nullptr) return;
KBV_UNROLL
    for (int l = 0; l < transpose::kLanes; ++l) values[l] += bias[columns[l]];
  }
  __host__ __device__ __forceinline__ void operator()(float (&values)[transpose::kVector], int64_t column) const {
    if (bias == nullptr) return;
    const float b = bias[column];
KBV_UNROLL
    for (int k = 0; k < transpose::kVector; ++k) values[k] += b;
  }
};

}  // namespace

void launch_batched_transpose(const float* src, float* dst, int64_t batch, int64_t rows, int64_t cols, const float* bias,
                              cudaStream_t stream, TransposeForm form) {
  transpose::launch(src, dst, batch, rows, cols, ColumnBias{bias}, stream, form == TransposeForm::wide_where_it_fits);
  cuda::check_launch("kbv batched transpose kernel");
}

}  // namespace kbv::ops::baseline
