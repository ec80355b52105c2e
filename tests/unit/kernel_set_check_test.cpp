// kernel_set_check_test.cpp — the phase-detection rule over traced kernel names: one-time
// kernels of the first call are allowed, any later change from the second call's set is not.
#include <gtest/gtest.h>

#include "eval/kernel_set_check.hpp"

namespace {

using kbv::eval::KernelSetCheck;
using Names = std::vector<std::string>;

TEST(KernelSetCheck, SteadyCallsPass) {
  KernelSetCheck check;
  for (int call = 0; call < 30; ++call) EXPECT_FALSE(check.observe({"relu_kernel"})) << "call " << call + 1;
  EXPECT_EQ(check.traced_calls(), 30);
}

TEST(KernelSetCheck, OneTimeKernelsOfTheFirstCallAreAllowed) {
  KernelSetCheck check;
  EXPECT_FALSE(check.observe({"init_workspace", "relu_kernel"}));
  for (int call = 1; call < 10; ++call) EXPECT_FALSE(check.observe({"relu_kernel"}));
}

// redteam phase_kernels.cu: the same relu under another name after the correctness phase.
TEST(KernelSetCheck, ASwitchAfterTheSecondCallIsReportedWithTheDifference) {
  KernelSetCheck check;
  for (int call = 0; call < 24; ++call) ASSERT_FALSE(check.observe({"relu_kernel"}));
  const auto difference = check.observe({"timing_phase_relu_kernel"});
  ASSERT_TRUE(difference);
  EXPECT_EQ(*difference, " +timing_phase_relu_kernel -relu_kernel");
}

TEST(KernelSetCheck, DroppingOrAddingOneKernelIsAChange) {
  KernelSetCheck dropped;
  for (const Names& names : {Names{"a", "b"}, Names{"a", "b"}}) ASSERT_FALSE(dropped.observe(names));
  EXPECT_EQ(dropped.observe({"a"}), " -b");
  KernelSetCheck added;
  for (const Names& names : {Names{"a"}, Names{"a"}}) ASSERT_FALSE(added.observe(names));
  EXPECT_EQ(added.observe({"a", "c"}), " +c");
}

TEST(KernelSetCheck, NoKernelsAtAllIsASetToo) {
  KernelSetCheck check;
  ASSERT_FALSE(check.observe({"a"}));
  ASSERT_FALSE(check.observe({"a"}));
  EXPECT_EQ(check.observe({}), " -a");
}

}  // namespace
