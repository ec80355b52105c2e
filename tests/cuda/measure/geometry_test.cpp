// tests/cuda/measure/geometry_test.cpp — launch geometry computed on the host: broadcast
// coalescing, layernorm row splitting and the layout ops' copy steps (no GPU).
#include <gtest/gtest.h>

#include "ops/cat/cat.hpp"
#include "ops/common/baseline/broadcast.hpp"
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/flatten/flatten.hpp"
#include "ops/layernorm/baseline.hpp"

namespace kbv::cuda::kernels {
namespace {

using ops::baseline::BroadcastGeometry;
using ops::baseline::make_broadcast_geometry;
using ops::layernorm::LayerNormGeometry;
using ops::layernorm::layernorm_scratch_bytes;
using ops::layernorm::plan_layernorm;

TEST(BroadcastGeometry, ChannelBiasCoalescesToThreeDims) {
  const Shape out{128, 128, 126, 126};
  const BroadcastGeometry g = make_broadcast_geometry(out, {128, 1, 1}, out);
  ASSERT_EQ(g.rank, 3);
  EXPECT_EQ(g.dims[0], 128);
  EXPECT_EQ(g.dims[1], 128);
  EXPECT_EQ(g.dims[2], 126 * 126);
  EXPECT_EQ(g.stride_a[0], 128 * 126 * 126);
  EXPECT_EQ(g.stride_a[1], 126 * 126);
  EXPECT_EQ(g.stride_a[2], 1);
  EXPECT_EQ(g.stride_b[0], 0);
  EXPECT_EQ(g.stride_b[1], 1);
  EXPECT_EQ(g.stride_b[2], 0);
  EXPECT_EQ(g.count, 128 * 128 * 126 * 126);
}

TEST(BroadcastGeometry, SameShapeIsOneContiguousDim) {
  const BroadcastGeometry g = make_broadcast_geometry({4, 5, 6}, {4, 5, 6}, {4, 5, 6});
  ASSERT_EQ(g.rank, 1);
  EXPECT_EQ(g.dims[0], 120);
  EXPECT_EQ(g.stride_a[0], 1);
  EXPECT_EQ(g.stride_b[0], 1);
}

TEST(BroadcastGeometry, OuterProductKeepsBothDims) {
  const BroadcastGeometry g = make_broadcast_geometry({5, 1}, {1, 7}, {5, 7});
  ASSERT_EQ(g.rank, 2);
  EXPECT_EQ(g.stride_a[0], 1);
  EXPECT_EQ(g.stride_a[1], 0);
  EXPECT_EQ(g.stride_b[0], 0);
  EXPECT_EQ(g.stride_b[1], 1);
}

TEST(BroadcastGeometry, ScalarOutputIsOneElement) {
  const BroadcastGeometry g = make_broadcast_geometry({1}, {1, 1}, {1, 1});
  ASSERT_EQ(g.rank, 1);
  EXPECT_EQ(g.dims[0], 1);
  EXPECT_EQ(g.count, 1);
}

TEST(BroadcastGeometry, RefusesWrongOutputShape) {
  EXPECT_THROW(make_broadcast_geometry({3, 4}, {4}, {3, 5}), std::exception);
}

TEST(LayerNormPlan, FewLongRowsSplitIntoChunks) {
  // KernelBench LayerNorm: 16 rows of 64·256·256 on 132 SMs (H200).
  const LayerNormGeometry g = plan_layernorm(16, 64 * 256 * 256, 132);
  EXPECT_GT(g.chunks, 1);
  EXPECT_EQ(g.chunk_cols % 4, 0);
  EXPECT_GE(g.chunks * g.chunk_cols, g.cols);
  EXPECT_LT((g.chunks - 1) * g.chunk_cols, g.cols);
  EXPECT_GE(g.rows * g.chunks, 8 * 132);  // 8 blocks of 256 threads per SM
  EXPECT_EQ(layernorm_scratch_bytes(g), static_cast<size_t>(16 * g.chunks * 3) * sizeof(float));
}

TEST(LayerNormPlan, ManyRowsUseOneFusedKernel) {
  const LayerNormGeometry g = plan_layernorm(8192, 1024, 132);
  EXPECT_EQ(g.chunks, 1);
  EXPECT_EQ(layernorm_scratch_bytes(g), 0u);
}

TEST(LayerNormPlan, ShortRowsAreNotSplitEvenWhenFew) {
  const LayerNormGeometry g = plan_layernorm(4, 2048, 132);
  EXPECT_EQ(g.chunks, 1);
}

// The step a layout node gets, by its describe(): the whole in-order copy of a flatten is one
// cudaMemcpyAsync; 40 inputs of a cat are 40 copies in three launches of 16.
std::string copy_step_text(const std::string& op, const std::vector<Shape>& inputs,
                           const Attrs& attrs) {
  const ops::layout::CopyPlan plan =
      op == "cat" ? ops::cat::plan(inputs, attrs) : ops::flatten::plan(inputs, attrs);
  const Node node{"node", op, {}, "out", attrs};
  const measure::NodeContext context{node, inputs, plan.output};
  return ops::baseline::make_copy_step(context, plan, "eager")->describe();
}

TEST(StridedCopyStep, AnInOrderCopyIsOneMemcpy) {
  EXPECT_EQ(copy_step_text("flatten", {{2, 3, 4}}, {{"start_axis", 1}}),
            "cudaMemcpyAsync of 24 floats (eager)");
}

TEST(StridedCopyStep, FortyCatInputsAreThreeLaunches) {
  const std::string text = copy_step_text("cat", std::vector<Shape>(40, {2, 3, 4}), {{"axis", 1}});
  EXPECT_EQ(text, "kbv strided copy kernel: 40 copies of rank <= 2 in 3 launch(es), 32-bit indices "
                  "(eager)");
}

}  // namespace
}  // namespace kbv::cuda::kernels
