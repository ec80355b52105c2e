// tests/unit/duty_pace_test.cpp — the pause after a sample that keeps the GPU busy at most
// max_duty of the wall (core/timing/duty_pace.hpp), and the calibration preset that sets it.
#include <gtest/gtest.h>

#include <variant>

#include "timing/duty_pace.hpp"
#include "timing/stop_rule.hpp"

namespace kbv::timing {
namespace {

TEST(DutyPace, IdlesUntilTheSampleIsItsDutyOfTheWall) {
  // 1 ms of timed work, 0.2 ms of wall around it already: at 0.25 the sample's wall is 4 ms.
  EXPECT_DOUBLE_EQ(duty_pause_seconds(1e-3, 1.2e-3, 0.25), 4e-3 - 1.2e-3);
  // A sample that already idled long enough (PyTorch's launch gate) waits no more.
  EXPECT_DOUBLE_EQ(duty_pause_seconds(1e-3, 5e-3, 0.25), 0.0);
}

TEST(DutyPace, NoPacingAtFullDutyOrOnNonsense) {
  EXPECT_DOUBLE_EQ(duty_pause_seconds(1e-3, 1e-3, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(duty_pause_seconds(1e-3, 1e-3, 0.0), 0.0) << "0 would be an endless pause";
  EXPECT_DOUBLE_EQ(duty_pause_seconds(1e-3, 1e-3, -0.5), 0.0);
  EXPECT_DOUBLE_EQ(duty_pause_seconds(0.0, 1e-3, 0.25), 0.0) << "a sample that timed nothing";
}

TEST(DutyPace, OnlyTheCalibrationPresetPaces) {
  EXPECT_DOUBLE_EQ(StopRule::nvbench_defaults().max_duty, 1.0);
  EXPECT_DOUBLE_EQ(StopRule::evaluator_cuda().max_duty, 1.0) << "the evaluator times candidate and library interleaved, one state";
  EXPECT_DOUBLE_EQ(StopRule::evaluator_host(1.0).max_duty, 1.0);
  const StopRule calibration = StopRule::calibration(kCalibrationMaxDuty);
  EXPECT_DOUBLE_EQ(calibration.max_duty, 0.25);
  // Otherwise NVBench's rule, which PyTorch's timer receives as is.
  const StopRule nvbench = StopRule::nvbench_defaults();
  EXPECT_EQ(std::get<StdrelParams>(calibration.criterion).max_noise, std::get<StdrelParams>(nvbench.criterion).max_noise);
  EXPECT_EQ(calibration.max_wall_seconds, nvbench.max_wall_seconds);
  EXPECT_EQ(calibration.warm_up.wall_seconds, nvbench.warm_up.wall_seconds);
}

}  // namespace
}  // namespace kbv::timing
