// rank0_output_test.cpp — a problem whose output has rank 0 (a loss: shape [], one element;
// tests/eval/problems/smooth_l1_mean.yaml) through what handles outputs on the host: the loader and shape resolution, the host graph, the
// host data plane's checks of the baseline and of trivial outputs (the reference's mean is not
// one there: a one-element output is its own mean), and the class probes, which must find a
// loss no more degenerate than its inputs make it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "eval/class_probe.hpp"
#include "eval/data_plane.hpp"
#include "eval/host_data_plane.hpp"
#include "graph/run_graph.hpp"
#include "inputs/epoch_plan.hpp"
#include "spec/catalog.hpp"
#include "spec/problem.hpp"

namespace {

class Rank0OutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path file = std::filesystem::path(KBV_TEST_OWN_PROBLEMS_DIR) / "smooth_l1_mean.yaml";
    problem_ = kbv::resolve_problem(kbv::load_problem_file(file), "small");
  }

  kbv::ResolvedProblem problem_;
};

TEST_F(Rank0OutputTest, ResolvesToOneElementAndCountsItsBytes) {
  ASSERT_EQ(problem_.output_shapes.size(), 1u);
  EXPECT_EQ(problem_.output_shapes[0], kbv::Shape{});
  EXPECT_EQ(kbv::numel(problem_.output_shapes[0]), 1);
  EXPECT_EQ(problem_.compulsory_bytes, 4.0 * (2 * 4 * 33 + 1));
  EXPECT_EQ(problem_.flops, 3.0 * 4 * 33);
}

TEST_F(Rank0OutputTest, TheHostGraphWritesTheOneElement) {
  std::vector<double> predictions(4 * 33), targets(4 * 33);
  double expected = 0;
  for (size_t i = 0; i < predictions.size(); ++i) {
    predictions[i] = 0.05 * static_cast<double>(i);
    targets[i] = 1.0;
    const double d = std::fabs(predictions[i] - targets[i]);
    expected += (d < 1 ? 0.5 * d * d : d - 0.5) / static_cast<double>(predictions.size());
  }
  const auto outputs = kbv::run_reference_f64(problem_, {predictions.data(), targets.data()});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, kbv::Shape{});
  ASSERT_EQ(outputs[0].data.size(), 1u);
  EXPECT_NEAR(outputs[0].data[0], expected, 1e-12);
}

TEST_F(Rank0OutputTest, TheReferenceMeanIsNoTrivialOutputOfAOneElementOutput) {
  EXPECT_TRUE(kbv::eval::every_output_is_one_element(problem_));
  const auto relu = kbv::resolve_problem(kbv::load_problem_file(std::filesystem::path(KBV_PROBLEMS_DIR) / "relu.yaml"), "small");
  EXPECT_FALSE(kbv::eval::every_output_is_one_element(relu));
}

// On the public family the fp32 baseline passes, and neither zeros nor a copy of an input does.
TEST_F(Rank0OutputTest, TheHostDataPlaneChecksTheBaselineAndTrivialOutputs) {
  const auto plane = kbv::eval::make_host_data_plane(problem_);
  plane->allocate(1);
  const auto key = kbv::inputs::SecretKey::from_bytes({});
  const auto draw = kbv::inputs::draw_family(key, 0, problem_.problem.name, kbv::inputs::Family::uniform01, 1);
  plane->prepare(0, draw, draw.trial_seeds.front());
  const kbv::CompareResult baseline = plane->check_baseline(0);
  EXPECT_TRUE(baseline.passed) << baseline.summary();
  EXPECT_EQ(baseline.elements, 1);
  EXPECT_TRUE(plane->trivial_outputs_that_pass(0).empty());
}

TEST_F(Rank0OutputTest, NoClassIsDegenerate) {
  for (const kbv::eval::ClassProbe& probe : kbv::eval::probe_classes(problem_))
    EXPECT_FALSE(probe.degenerate()) << probe.reason();
}

}  // namespace
