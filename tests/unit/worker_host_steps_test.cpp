// worker_host_steps_test.cpp — the evaluator's summary of the worker's host steps per call
// (eval/worker_host_steps.hpp): medians per kind and step, and nothing a worker sends beyond
// the bounds reaches the report.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "eval/worker_host_steps.hpp"

namespace kbv::eval {
namespace {

nlohmann::json call(double begin_window, double run) {
  return {{"trace", "cupti"}, {"host_steps_s", {{"begin_window", begin_window}, {"run", run}}}};
}

TEST(WorkerHostSteps, MediansPerKindAndStep) {
  WorkerHostSteps steps;
  steps.add("timing_calls", call(1, 10));
  steps.add("timing_calls", call(3, 30));
  steps.add("timing_calls", call(2, 20));
  steps.add("null_calls", call(5, 0));
  const nlohmann::json summary = steps.summary();
  EXPECT_EQ(summary["timing_calls"]["calls"], 3);
  EXPECT_EQ(summary["timing_calls"]["begin_window"], 2.0);
  EXPECT_EQ(summary["timing_calls"]["run"], 20.0);
  EXPECT_EQ(summary["null_calls"]["calls"], 1);
  EXPECT_EQ(summary["null_calls"]["begin_window"], 5.0);
  EXPECT_FALSE(summary.contains("correctness_calls"));
}

TEST(WorkerHostSteps, ACallWithoutStepsIsNotCounted) {
  WorkerHostSteps steps;
  steps.add("timing_calls", nlohmann::json::object());
  steps.add("timing_calls", {{"host_steps_s", "fast"}});
  steps.add("timing_calls", nlohmann::json::array());
  EXPECT_TRUE(steps.summary().empty());
}

TEST(WorkerHostSteps, WhatAWorkerSendsBeyondTheBoundsIsLeftOut) {
  WorkerHostSteps steps;
  nlohmann::json many = nlohmann::json::object();
  for (size_t i = 0; i < 3 * WorkerHostSteps::kMaxStepsPerCall; ++i) many["step_" + std::to_string(100 + i)] = 1.0;
  many[std::string(WorkerHostSteps::kMaxStepNameBytes + 1, 'x')] = 1.0;
  steps.add("timing_calls", {{"host_steps_s", many}});
  steps.add("timing_calls", {{"host_steps_s", {{"negative", -1.0}, {"text", "1"}, {"huge", std::numeric_limits<double>::infinity()}}}});
  const nlohmann::json summary = steps.summary()["timing_calls"];
  EXPECT_EQ(summary["calls"], 2);
  EXPECT_EQ(summary.size(), 1 + WorkerHostSteps::kMaxStepsPerCall) << summary.dump();  // "calls" and the first 16 steps
  EXPECT_FALSE(summary.contains("negative"));
  EXPECT_FALSE(summary.contains("text"));
  EXPECT_FALSE(summary.contains("huge"));
}

}  // namespace
}  // namespace kbv::eval
