// tests/unit/kernel_breakdown_test.cpp — timing.candidate_kernels: the worker's kernel timeline
// read defensively, and summarised by position or by name.
#include "eval/kernel_breakdown.hpp"

#include <gtest/gtest.h>

namespace kbv::eval {
namespace {

using nlohmann::json;

std::vector<TracedKernel> call(std::initializer_list<std::tuple<const char*, double, double>> kernels) {
  std::vector<TracedKernel> out;
  for (const auto& [name, duration, gap] : kernels) out.push_back({name, duration, gap});
  return out;
}

TEST(KernelBreakdown, ReadsTheWorkersTimelineWithItsNames) {
  const json observed = {{"kernel_timeline", {{1, 2000, 0}, {0, 3000, 500}, {-1, 10, 0}}}};
  const auto kernels = traced_kernels(observed, {"a", "b"});
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "b");
  EXPECT_DOUBLE_EQ(kernels[0].duration_s, 2e-6);
  EXPECT_EQ(kernels[1].name, "a");
  EXPECT_DOUBLE_EQ(kernels[1].gap_before_s, 5e-7);
  EXPECT_EQ(kernels[2].name, "(unnamed)");
}

TEST(KernelBreakdown, AMalformedTimelineReadsAsNone) {
  for (const json& observed : {json::object(), json{{"kernel_timeline", "x"}}, json{{"kernel_timeline", {{0, 1}}}},
                               json{{"kernel_timeline", {{"0", 1, 2}}}}, json{{"kernel_timeline", {{0, -1, 2}}}},
                               json{{"kernel_timeline", json::array({json::array({0.5, 1, 2})})}}})
    EXPECT_TRUE(traced_kernels(observed, {"a"}).empty()) << observed.dump();
  json too_long = {{"kernel_timeline", json::array()}};
  for (int i = 0; i < 65; ++i) too_long["kernel_timeline"].push_back({0, 1, 0});
  EXPECT_TRUE(traced_kernels(too_long, {"a"}).empty());
}

TEST(KernelBreakdown, NoTracedSampleIsNull) {
  EXPECT_TRUE(candidate_kernels({}).is_null());
  EXPECT_TRUE(candidate_kernels({{}, {}}).is_null());
}

TEST(KernelBreakdown, TheSameSequenceEverySampleIsReportedByPosition) {
  // Two launches of one kernel (hidden layers) then another: positions keep them apart.
  const auto report = candidate_kernels({call({{"hidden", 2.0, 0}, {"hidden", 3.0, 0.1}, {"out", 1.0, 0}}),
                                         call({{"hidden", 2.2, 0}, {"hidden", 3.2, 0.3}, {"out", 1.0, 0}}),
                                         call({{"hidden", 2.1, 0}, {"hidden", 3.1, 0.2}, {"out", 1.2, 0}}),
                                         {}});  // an untraced sample is left out
  EXPECT_EQ(report["by"], "position");
  EXPECT_EQ(report["samples"], 3);
  ASSERT_EQ(report["kernels"].size(), 3u);
  EXPECT_EQ(report["kernels"][1]["name"], "hidden");
  EXPECT_DOUBLE_EQ(report["kernels"][1]["median_s"].get<double>(), 3.1);
  EXPECT_DOUBLE_EQ(report["kernels"][1]["median_gap_before_s"].get<double>(), 0.2);
  EXPECT_NEAR(report["kernel_sum_s"].get<double>(), 6.4, 1e-12);  // calls of 6.0, 6.4 and 6.4
  EXPECT_NEAR(report["gap_sum_s"].get<double>(), 0.2, 1e-12);
}

TEST(KernelBreakdown, SequencesThatDifferAreReportedByNameSlowestFirst) {
  const auto report = candidate_kernels({call({{"a", 1.0, 0}, {"b", 4.0, 0}}), call({{"a", 1.0, 0}, {"a", 1.0, 0}, {"b", 4.0, 0}}),
                                         call({{"b", 5.0, 0}})});
  EXPECT_EQ(report["by"], "name");
  ASSERT_EQ(report["kernels"].size(), 2u);
  EXPECT_EQ(report["kernels"][0]["name"], "b");
  EXPECT_DOUBLE_EQ(report["kernels"][0]["median_s"].get<double>(), 4.0);
  EXPECT_EQ(report["kernels"][1]["name"], "a");
  EXPECT_DOUBLE_EQ(report["kernels"][1]["launches_per_call"].get<double>(), 1.0);  // 1, 2, 0 launches
  EXPECT_DOUBLE_EQ(report["kernels"][1]["median_s"].get<double>(), 1.0);
}

std::string ms(double seconds) { return std::to_string(static_cast<int>(seconds * 1e3 + 0.5)) + " ms"; }

TEST(KernelBreakdown, TextGivesAHeadlineThenEachKernelDemangled) {
  // _ZN9tf32_gemm11gemm_kernelIiEEvT_ is void tf32_gemm::gemm_kernel<int>(int).
  const auto report = candidate_kernels({call({{"_ZN9tf32_gemm11gemm_kernelIiEEvT_", 0.002, 0}, {"kbv_c_kernel", 0.001, 0.001}})});
  const auto lines = candidate_kernels_text(report, ms);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "2 a call, 3 ms running, 1 ms idle between them (CUPTI, medians of 1 timed calls)");
  EXPECT_EQ(lines[1], "#0 2 ms  tf32_gemm::gemm_kernel<int>(int)");
  EXPECT_EQ(lines[2], "#1 1 ms  kbv_c_kernel");
}

TEST(KernelBreakdown, TextCountsWhatItLeavesOutAndCutsLongNames) {
  const std::string long_name(200, 'k');
  std::vector<TracedKernel> kernels;
  for (size_t i = 0; i < kMaxKernelLinesInText + 3; ++i) kernels.push_back({long_name, 0.001, 0});
  const auto lines = candidate_kernels_text(candidate_kernels({kernels}), ms);
  ASSERT_EQ(lines.size(), 1 + kMaxKernelLinesInText + 1);
  EXPECT_EQ(lines.back(), "+3 more (timing.candidate_kernels in --json)");
  EXPECT_EQ(lines[1].size(), std::string("#0 1 ms  ").size() + kMaxKernelNameInText);
}

TEST(KernelBreakdown, TextByNameSaysTheCallsDiffer) {
  const auto lines = candidate_kernels_text(candidate_kernels({call({{"a", 0.001, 0}, {"b", 0.002, 0}}),
                                                              call({{"a", 0.001, 0}, {"a", 0.001, 0}, {"b", 0.002, 0}}),
                                                              call({{"b", 0.002, 0}})}),
                                            ms);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("2 distinct, calls differ; ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], "2 ms x1  b");
}

TEST(KernelBreakdown, NoAccountNoText) {
  EXPECT_TRUE(candidate_kernels_text(nullptr, ms).empty());
  EXPECT_TRUE(candidate_kernels_text(nlohmann::json{{"kernels", "x"}}, ms).empty());
}

}  // namespace
}  // namespace kbv::eval
