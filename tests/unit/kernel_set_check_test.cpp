// kernel_set_check_test.cpp — the phase-detection rule over traced kernel names: a timed call
// must repeat a set that a correctness call launched on the same family; correctness calls may
// launch anything (their outputs are checked), one-time kernels of a first call included.
#include <gtest/gtest.h>

#include "eval/kernel_set_check.hpp"

namespace {

using kbv::eval::KernelSetCheck;
using Names = KernelSetCheck::Names;

TEST(KernelSetCheck, TimedCallsRepeatingCorrectnessPass) {
  KernelSetCheck check;
  check.learn("uniform01", {"init_workspace", "relu_kernel"});  // a first call's one-time kernel
  for (int call = 0; call < 3; ++call) check.learn("uniform01", {"relu_kernel"});
  for (int call = 0; call < 30; ++call) EXPECT_FALSE(check.check("uniform01", {"relu_kernel"})) << "timed call " << call + 1;
  EXPECT_EQ(check.traced_calls(), 34);
  EXPECT_EQ(check.distinct_sets(), 2u);
}

// redteam phase_kernels.cu: the same relu under another name once the correctness calls are over.
TEST(KernelSetCheck, ASetFirstSeenWhileTimingIsReportedWithTheDifference) {
  KernelSetCheck check;
  for (const char* family : {"uniform01", "normal", "sparse"})
    for (int call = 0; call < 3; ++call) check.learn(family, {"relu_kernel"});
  const auto difference = check.check("normal", {"timing_phase_relu_kernel"});
  ASSERT_TRUE(difference);
  EXPECT_EQ(*difference, " +timing_phase_relu_kernel -relu_kernel");
}

// An honest candidate that picks its kernel by its inputs' values: each family's timed calls
// repeat that family's set, however the families differ.
TEST(KernelSetCheck, KernelsChosenByFamilyPass) {
  KernelSetCheck check;
  for (int call = 0; call < 3; ++call) {
    check.learn("uniform01", {"copy_nonnegative_kernel"});
    check.learn("normal", {"relu_kernel"});
  }
  EXPECT_FALSE(check.check("uniform01", {"copy_nonnegative_kernel"}));
  EXPECT_FALSE(check.check("normal", {"relu_kernel"}));
  EXPECT_EQ(check.distinct_sets(), 2u);
}

// …but a family's timed call may not borrow another family's set: that code was never checked
// on this family's inputs.
TEST(KernelSetCheck, AnotherFamilysSetIsNotEnough) {
  KernelSetCheck check;
  check.learn("uniform01", {"copy_nonnegative_kernel"});
  check.learn("normal", {"relu_kernel"});
  EXPECT_EQ(check.check("normal", {"copy_nonnegative_kernel"}), " +copy_nonnegative_kernel -relu_kernel");
}

TEST(KernelSetCheck, DroppingOrAddingOneKernelIsAChange) {
  KernelSetCheck check;
  check.learn("normal", {"a", "b"});
  EXPECT_EQ(check.check("normal", {"a"}), " -b");
  EXPECT_EQ(check.check("normal", {"a", "b", "c"}), " +c");
  EXPECT_EQ(check.check("normal", {}), " -a -b");  // no kernels at all is a set too
}

// The difference is reported against the nearest set the family saw.
TEST(KernelSetCheck, TheDifferenceIsFromTheNearestSet) {
  KernelSetCheck check;
  check.learn("normal", {"x", "y", "z"});
  check.learn("normal", {"a", "b"});
  EXPECT_EQ(check.check("normal", {"a", "b", "c"}), " +c");
}

TEST(KernelSetCheck, AFamilyWithNoCorrectnessCallHasNothingToRepeat) {
  KernelSetCheck check;
  check.learn("uniform01", {"a"});
  EXPECT_EQ(check.check("large", {"a"}), " +a");
}

}  // namespace
