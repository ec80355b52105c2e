// honest_host_test.cpp — every honest host example passes `kbv eval --device host --shapes
// small`, and every bundled problem has one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

class HonestHostCandidate : public ::testing::TestWithParam<std::string> {};

TEST_P(HonestHostCandidate, PassesOnSmallShapes) {
  const std::string problem = GetParam();
  const EvalRun run =
      run_kbv_eval({host_candidate(problem).string(), "--problem", problem, "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, 0) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["hack_pattern"].is_null()) << explain(run);
  ASSERT_TRUE(run.report["candidate"].is_object()) << explain(run);
  EXPECT_EQ(run.report["candidate"].value("problem", ""), problem) << explain(run);
  EXPECT_EQ(run.report["candidate"].value("device", ""), "host") << explain(run);
  ASSERT_TRUE(run.report["problem"].is_object()) << explain(run);
  EXPECT_EQ(run.report["problem"].value("shape_set", ""), "small") << explain(run);
  ASSERT_TRUE(run.report["families"].is_array()) << explain(run);
  EXPECT_FALSE(run.report["families"].empty()) << explain(run);
  for (const auto& family : run.report["families"]) {
    if (family.value("gating", false)) {
      EXPECT_TRUE(family.value("passed", false)) << family.dump();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, HonestHostCandidate, ::testing::ValuesIn(host_candidate_problems()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

TEST(HonestHostCandidates, CoverEveryBundledProblem) {
  const std::vector<std::string> examples = host_candidate_problems();
  int problems = 0;
  for (const auto& entry : std::filesystem::directory_iterator(problems_dir())) {
    if (entry.path().extension() != ".yaml") continue;
    ++problems;
    const std::string problem = entry.path().stem().string();
    EXPECT_NE(std::find(examples.begin(), examples.end(), problem), examples.end())
        << "problems/" << problem << ".yaml has no honest host example in examples/candidates/host";
  }
  EXPECT_GT(problems, 0) << "no problem specs in " << problems_dir();
}

// Every class of hidden families gates (no bundled problem has a degenerate class), and the
// report says which family tested each: JSON `classes` and `degenerate_classes`, the text
// report's `classes` line, and `kbv problems`' column. relu walks past its degenerate families.
TEST(EvalClasses, EveryClassGatesOnAFamilyOfItsOwnAndIsReported) {
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), "--problem", "relu", "--device", "host", "--shapes", "small", "--no-timing"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  ASSERT_TRUE(run.report["degenerate_classes"].is_array()) << explain(run);
  EXPECT_TRUE(run.report["degenerate_classes"].empty()) << explain(run);
  const nlohmann::json& classes = run.report["classes"];
  ASSERT_EQ(classes.size(), 6u) << explain(run);
  std::map<std::string, std::string> class_of_family;
  for (const auto& family : run.report["families"]) {
    if (family.value("hidden", false)) {
      ASSERT_TRUE(family.contains("class")) << family.dump();
      class_of_family[family.value("family", "")] = family.value("class", "");
      // A hidden family that cannot gate is not run: the class's next family is.
      if (!family.value("gating", true)) {
        EXPECT_EQ(family.value("trials", -1), 0) << family.dump();
      }
    }
  }
  for (const auto& entry : classes) {
    ASSERT_TRUE(entry["gating_family"].is_string()) << entry.dump();
    EXPECT_FALSE(entry.value("degenerate", true)) << entry.dump();
    EXPECT_EQ(class_of_family[entry["gating_family"].get<std::string>()], entry.value("class", "")) << entry.dump();
  }

  Command text;
  text.argv = {kbv_binary().string(), "eval", host_candidate("relu").string(), "--shapes", "small", "--no-timing", "--key-file", test_key_file().string()};
  text.env = {{"KBV_PROBLEMS_DIR", problems_dir().string()}};
  const CommandResult summary = run_command(text);
  EXPECT_NE(summary.out.find("\nclasses    "), std::string::npos) << summary.out;
  for (const char* name : {"sign=", "shape=", "magnitude=", "small=", "rare=", "structure="}) EXPECT_NE(summary.out.find(name), std::string::npos) << summary.out;
  EXPECT_EQ(summary.out.find("untested"), std::string::npos) << summary.out;
  EXPECT_EQ(summary.out.find("\nprecision  "), std::string::npos) << "relu has no product: " << summary.out;
  text.argv[2] = host_candidate("matmul_square").string();
  const CommandResult checked = run_command(text);
  EXPECT_NE(checked.out.find("\nprecision  bf16 check: least ratio "), std::string::npos) << checked.out;

  Command problems;
  problems.argv = {kbv_binary().string(), "problems", "--json", "--classes"};
  problems.env = {{"KBV_PROBLEMS_DIR", problems_dir().string()}};
  const CommandResult listing = run_command(problems);
  ASSERT_EQ(listing.exit_code, 0) << listing.err;
  const nlohmann::json list = nlohmann::json::parse(listing.out);
  ASSERT_FALSE(list.empty());
  for (const auto& problem : list) {
    // A GPU-only problem has no small set to find degenerate classes at: null, with its reason.
    if (problem.contains("gpu_only") && problem["gpu_only"].is_string()) {
      EXPECT_TRUE(problem["degenerate_classes"].is_null()) << problem.dump();
      continue;
    }
    ASSERT_TRUE(problem["degenerate_classes"].is_array()) << problem.dump();
    // kbv's curated problems have none; an imported problem may (KernelBench L2 #56: sigmoid then
    // sum, where tiny inputs give a constant output), and then its reason names the trivial output.
    if (problem["file"].get<std::string>().find("/kernelbench/") == std::string::npos) {
      EXPECT_TRUE(problem["degenerate_classes"].empty()) << problem.dump();
    }
    for (const auto& entry : problem["degenerate_classes"]) EXPECT_NE(entry.value("reason", "").find("passes"), std::string::npos) << entry.dump();
  }
}

// --samples puts every kept timing sample in the report, index for index across the contenders,
// and the summary's extremes are theirs; without it the report has none.
// environment.worker_host_steps_s: the worker's own account of its calls, per kind (on the host
// a call is its run(), with its thread's CPU time and the exchange's), medians over every call of
// that kind.
TEST(EvalWorkerSteps, EveryCallKindTheWorkerAnsweredIsSummarised) {
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), "--problem", "relu", "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const nlohmann::json& steps = run.report["environment"]["worker_host_steps_s"];
  ASSERT_TRUE(steps.is_object()) << run.report["environment"].dump(2);
  for (const char* kind : {"correctness_calls", "timing_calls"}) {
    ASSERT_TRUE(steps.contains(kind)) << kind << ": " << steps.dump();
    EXPECT_GT(steps[kind].value("calls", 0), 0) << kind;
    EXPECT_GE(steps[kind].value("run", -1.0), 0.0) << kind;
  }
  // Warm-up and throttled calls are answered too: at least as many as the samples kept.
  EXPECT_GE(steps["timing_calls"].value("calls", 0), run.report["timing"]["candidate"].value("samples", 0));
  // The exchange's CPU split (worker/exchange_cpu.hpp), for the calls and the null calls alike:
  // what the CPU-time floor subtracts set beside what a call costs.
  for (const char* kind : {"correctness_calls", "timing_calls", "null_calls"}) {
    ASSERT_TRUE(steps.contains(kind)) << kind << ": " << steps.dump();
    for (const char* step : {"run_cpu", "message_besides_run_cpu", "since_last_answer_cpu"})
      EXPECT_GE(steps[kind].value(step, -1.0), 0.0) << kind << "." << step << ": " << steps[kind].dump();
  }
  EXPECT_LT(steps["null_calls"].value("run_cpu", 1.0), steps["timing_calls"].value("run_cpu", 0.0)) << "a null call runs nothing";
}

TEST(EvalSamples, EveryKeptSampleIsReportedWhenAsked) {
  const std::vector<std::string> args = {host_candidate("relu").string(), "--problem", "relu", "--device", "host", "--shapes", "small"};
  std::vector<std::string> with_samples = args;
  with_samples.push_back("--samples");
  const EvalRun run = run_kbv_eval(with_samples);
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  ASSERT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  const nlohmann::json& samples = run.report["timing"]["samples"];
  ASSERT_TRUE(samples.is_object()) << explain(run);
  const auto kept = run.report["timing"]["candidate"].value("samples", 0);
  EXPECT_GE(kept, 10);
  for (const char* key : {"candidate_s", "baseline_fp32_s", "sm_clock_ratio", "baselines_first", "family"}) {
    ASSERT_TRUE(samples.contains(key)) << key << " missing: " << samples.dump().substr(0, 300);
    EXPECT_EQ(samples[key].size(), static_cast<size_t>(kept)) << key;
  }
  const auto candidate = samples["candidate_s"].get<std::vector<double>>();
  EXPECT_EQ(*std::min_element(candidate.begin(), candidate.end()), run.report["timing"]["candidate"].value("min_s", -1.0));
  EXPECT_EQ(*std::max_element(candidate.begin(), candidate.end()), run.report["timing"]["candidate"].value("max_s", -1.0));
  const auto families = samples["family"].get<std::vector<std::string>>();
  for (const std::string& family : families) EXPECT_FALSE(family.empty());
  // timing.by_family: every family the samples came from, with its share of them.
  const nlohmann::json& by_family = run.report["timing"]["by_family"];
  ASSERT_TRUE(by_family.is_object()) << explain(run);
  int counted = 0;
  for (const auto& [family, figures] : by_family.items()) {
    EXPECT_EQ(figures["candidate"].value("samples", 0), std::count(families.begin(), families.end(), family)) << family;
    counted += figures["candidate"].value("samples", 0);
  }
  EXPECT_EQ(counted, kept);
  EXPECT_TRUE(run.report["timing"]["noise_within_families"].contains("candidate")) << explain(run);

  const EvalRun plain = run_kbv_eval(args);
  ASSERT_TRUE(plain.report.is_object()) << explain(plain);
  EXPECT_FALSE(plain.report["timing"].contains("samples")) << explain(plain);
}

}  // namespace
}  // namespace kbv::test
