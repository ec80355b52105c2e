// tests/cuda/measure/batched_transpose_test.cpp — the batched transpose around channels-last
// convolutions (ops/common/baseline/batched_transpose.cu) on the device: both of its forms (the
// wide one, asked for, where the sides are multiples of 4 and the buffers aligned; the 32×32 one
// otherwise), with and without the channel bias, at full and partial tiles, equal to the
// transpose done here.
#include <string>
#include <tuple>
#include <vector>

#include "gpu_test_support.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/common/baseline/batched_transpose.hpp"

namespace kbv::cuda::measure_testing {
namespace {

struct TransposeCase {
  int64_t batch, rows, cols;
  bool bias;
  size_t src_offset = 0;  // floats past an aligned allocation: 1 keeps the wide form out
};

class BatchedTransposeTest : public GpuTest, public ::testing::WithParamInterface<std::tuple<TransposeCase, ops::baseline::TransposeForm>> {};

TEST_P(BatchedTransposeTest, MatchesTheHostTransposePlusBias) {
  const auto [c, form] = GetParam();
  const size_t count = static_cast<size_t>(c.batch * c.rows * c.cols);
  const std::vector<float> src = random_values(count + c.src_offset, 31);
  const std::vector<float> bias = random_values(static_cast<size_t>(c.cols), 32);
  const measure::DeviceMemory d_src = upload(src), d_bias = upload(bias);
  const measure::DeviceMemory d_dst(count * sizeof(float), "transposed");
  measure::check(cudaMemset(d_dst.get(), 0xff, count * sizeof(float)), "cudaMemset");
  ops::baseline::launch_batched_transpose(d_src.as<float>() + c.src_offset, d_dst.as<float>(), c.batch, c.rows, c.cols,
                                          c.bias ? d_bias.as<float>() : nullptr, nullptr, form);
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const std::vector<float> dst = download(d_dst.get(), count);
  int mismatches = 0;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t i = 0; i < c.rows; ++i)
      for (int64_t j = 0; j < c.cols; ++j) {
        const float want = src[c.src_offset + static_cast<size_t>((b * c.rows + i) * c.cols + j)] + (c.bias ? bias[static_cast<size_t>(j)] : 0.f);
        const float got = dst[static_cast<size_t>((b * c.cols + j) * c.rows + i)];
        if (got != want && ++mismatches <= 5) ADD_FAILURE() << "at " << b << "," << i << "," << j << ": " << got << ", expected " << want;
      }
  EXPECT_EQ(mismatches, 0);
}

INSTANTIATE_TEST_SUITE_P(
    BothForms, BatchedTransposeTest,
    ::testing::Combine(::testing::Values(TransposeCase{3, 64, 128, false}, TransposeCase{2, 68, 132, true}, TransposeCase{2, 15876, 128, true},
                                         TransposeCase{1, 4, 4, true}, TransposeCase{2, 37, 40, true}, TransposeCase{2, 64, 64, false, 1},
                                         TransposeCase{70000, 4, 8, true}),
                       ::testing::Values(ops::baseline::TransposeForm::narrow, ops::baseline::TransposeForm::wide_where_it_fits)),
    [](const ::testing::TestParamInfo<std::tuple<TransposeCase, ops::baseline::TransposeForm>>& param_info) {
      const TransposeCase& c = std::get<0>(param_info.param);
      const bool narrow = std::get<1>(param_info.param) == ops::baseline::TransposeForm::narrow;
      return std::to_string(c.batch) + "x" + std::to_string(c.rows) + "x" + std::to_string(c.cols) + (c.bias ? "_bias" : "") +
             (c.src_offset ? "_unaligned" : "") + (narrow ? "_narrow" : "_wide");
    });

}  // namespace
}  // namespace kbv::cuda::measure_testing
