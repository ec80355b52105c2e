// tests/cuda/measure/channel_norm_plan_test.cpp — the host logic of the norms' CUDA baselines (no
// GPU): how the Welford kernels cover each statistics set, and when batchnorm and instancenorm
// call cuDNN, as PyTorch decides.
#include <gtest/gtest.h>

#include "ops/common/baseline/channel_norm_f32.hpp"
#include "ops/common/baseline/cudnn_batch_norm.hpp"

namespace kbv::ops::baseline {
namespace {

constexpr int kH200Sms = 132;

TEST(ChannelNormPlan, BatchNormOverLargePlanesTakesOneBlockPerSegment) {
  // KernelBench L1 #33 without weight and bias: 64 channel sets of 64 planes of 512·512.
  const ChannelNormPlan plan = plan_channel_norm(ChannelSets::per_channel_over_batch({64, 64, 512, 512}), kH200Sms);
  EXPECT_FALSE(plan.columns);
  EXPECT_EQ(plan.pieces_per_segment, 1);
  EXPECT_EQ(plan.piece_length, 512 * 512);
  EXPECT_EQ(plan.partials_per_set, 64);
  EXPECT_EQ(plan.threads, 256);
}

TEST(ChannelNormPlan, RankTwoBatchNormIsReadAsColumns) {
  // Linear → BatchNorm1d (KernelBench L2 #33: [1024, 8192]): one element per segment.
  const ChannelNormPlan plan = plan_channel_norm(ChannelSets::per_channel_over_batch({1024, 8192}), kH200Sms);
  EXPECT_TRUE(plan.columns);
  EXPECT_EQ(plan.row_chunks, 32);  // 1024 rows / 32 rows per chunk at least
  EXPECT_EQ(plan.rows_per_chunk, 32);
  EXPECT_EQ(plan.partials_per_set, 32);
}

TEST(ChannelNormPlan, FewLongGroupsAreSplitIntoPieces) {
  // KernelBench L1 #35: 112·8 groups of 8·512·512 elements, 1056 blocks wanted.
  const ChannelNormPlan plan = plan_channel_norm(ChannelSets::per_group({112, 64, 512, 512}, 8), kH200Sms);
  EXPECT_EQ(plan.pieces_per_segment, 2);
  EXPECT_EQ(plan.piece_length, 4 * 512 * 512);
  EXPECT_EQ(plan.partials_per_set, 2);
  // One group of 4·128·128 on a whole GPU: split down to pieces of at least 16384.
  const ChannelNormPlan one = plan_channel_norm(ChannelSets::per_group({1, 4, 128, 128}, 1), kH200Sms);
  EXPECT_EQ(one.pieces_per_segment, 4);
  EXPECT_EQ(one.piece_length, 16384);
}

TEST(ChannelNormPlan, ShortGroupsTakeOneWarp) {
  const ChannelNormPlan plan = plan_channel_norm(ChannelSets::per_group({8, 32}, 4), kH200Sms);
  EXPECT_FALSE(plan.columns);
  EXPECT_EQ(plan.threads, 32);
  EXPECT_EQ(plan.partials_per_set, 1);
}

TEST(CudnnBatchNorm, ChosenAsPyTorchChoosesIt) {
  EXPECT_TRUE(pytorch_batch_norm_uses_cudnn({64, 64, 512, 512}, true, 1e-5));    // L1 #33
  EXPECT_FALSE(pytorch_batch_norm_uses_cudnn({64, 64, 512, 512}, false, 1e-5));  // no weight and bias
  EXPECT_FALSE(pytorch_batch_norm_uses_cudnn({1024, 512}, true, 1e-5));          // rank 2: native
  EXPECT_FALSE(pytorch_batch_norm_uses_cudnn({16, 64, 2048, 2048}, true, 1e-5)); // 2³² elements
  EXPECT_FALSE(pytorch_batch_norm_uses_cudnn({880802, 2, 2}, true, 1e-5));       // too many rows
  EXPECT_TRUE(pytorch_batch_norm_uses_cudnn({880801, 2, 2}, true, 1e-5));
}

}  // namespace
}  // namespace kbv::ops::baseline
