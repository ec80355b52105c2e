// tests/calibration/torch_entry_test.cpp — the problem description PyTorch's side receives, and
// the calibration entry made from a recorded reply: ratios per math mode, errors, drift.
#include <gtest/gtest.h>

#include "calibration/library_sources.hpp"
#include "spec/catalog.hpp"
#include "torch_entry.hpp"

namespace kbv::calibrate {
namespace {

ResolvedProblem bundled(const std::string& name, const std::string& set = "default") {
  const ProblemCatalog catalog = ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR);
  return resolve_problem(catalog.get(name), set);
}

TEST(TorchEntry, TheDescriptionCarriesShapesScalesAndCompleteAttributes) {
  const nlohmann::json d = problem_description(bundled("matmul_scale_residual"));
  EXPECT_EQ(d["name"], "matmul_scale_residual");
  EXPECT_EQ(d["source"], "kbv");
  ASSERT_EQ(d["inputs"].size(), 3u);
  EXPECT_EQ(d["inputs"][0]["shape"], nlohmann::json({16384, 4096}));
  EXPECT_NEAR(d["inputs"][1]["scale"].get<double>(), 1 / 64.0, 1e-15);  // inv_sqrt_fan_in of 4096
  EXPECT_EQ(d["outputs"][0]["shape"], nlohmann::json({16384, 4096}));
  EXPECT_EQ(d["graph"][1]["op"], "scale");
  EXPECT_DOUBLE_EQ(d["graph"][1]["attrs"]["value"].get<double>(), 0.5);
  const nlohmann::json softmax = problem_description(bundled("softmax"));
  EXPECT_TRUE(softmax["graph"][0]["attrs"].contains("axis")) << "defaults merged in: " << softmax.dump();
}

TEST(TorchEntry, AnImportedProblemWithoutAKernelBenchCheckoutIsSkippedBeforeAnyTiming) {
  const ProblemCatalog catalog = ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR);
  Problem imported = catalog.get("relu");
  EXPECT_FALSE(reason_not_to_calibrate(imported, std::nullopt)) << "a problem written for kbv has its graph as forward";
  imported.source = "kernelbench";
  const auto reason = reason_not_to_calibrate(imported, std::nullopt);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("--kernelbench DIR"), std::string::npos) << *reason;
  EXPECT_FALSE(reason_not_to_calibrate(imported, std::filesystem::path("/opt/KernelBench/KernelBench")));
}

TEST(TorchEntry, ARecordedReplyMakesRatiosAgainstTheLibraryInTheSameMathMode) {
  const ResolvedProblem problem = bundled("layernorm");
  const std::map<std::string, LibraryMeasurement> library = {{"tf32", {0.25e-3, 0.26e-3, "ln tf32\n", {}, {}}},
                                                             {"fp32", {0.24e-3, 0.24e-3, "ln fp32\n", {}, {}}}};
  const nlohmann::json reply = nlohmann::json::parse(R"({"type": "measured", "forward": "graph", "timer": "CUDA events",
      "results": {"eager_tf32": {"median_s": 8.33e-3}, "eager_fp32": {"median_s": 8.3e-3},
                  "compiled_tf32": {"error": "torch.compile(mode=max-autotune-no-cudagraphs) failed: OutOfMemoryError: x"}},
      "compile_s": {}, "gate_overruns": 0})");
  const calibration::CalibrationEntry entry = make_entry(problem, library, reply, "2026-12-01T10:00:00Z");
  EXPECT_EQ(entry.problem, "layernorm");
  EXPECT_EQ(entry.shape_set, "default");
  EXPECT_EQ(entry.forward, "graph");
  EXPECT_EQ(entry.library_sources_sha256, calibration::library_sources_sha256(problem.problem));  // what this build's library is
  EXPECT_DOUBLE_EQ(entry.library.at("tf32").median_s, 0.255e-3);
  EXPECT_EQ(entry.library.at("tf32").describe, "ln tf32\n");
  EXPECT_NEAR(entry.ratios.at("eager_tf32"), 8.33e-3 / 0.255e-3, 1e-9);
  EXPECT_NEAR(entry.ratios.at("eager_fp32"), 8.3e-3 / 0.24e-3, 1e-9);
  EXPECT_FALSE(entry.ratios.count("compiled_tf32"));
  EXPECT_NE(entry.errors.at("compiled_tf32").find("OutOfMemoryError"), std::string::npos);
  EXPECT_NEAR(entry.evidence["library"]["tf32"]["drift"].get<double>(), 0.01 / 0.255, 1e-9);
  EXPECT_NEAR(library_drift(library.at("tf32")), 0.01 / 0.255, 1e-12);
  EXPECT_EQ(entry.max_duty, 1.0) << "an unpaced run says so (none would read as a calibration from before kbv paced)";
  EXPECT_EQ(make_entry(problem, library, reply, "t", 0.25).max_duty, 0.25);
}

TEST(TorchEntry, AResultWithNoSampleOrAnUnknownReplyIsNoRatio) {
  const ResolvedProblem problem = bundled("relu");
  const std::map<std::string, LibraryMeasurement> library = {{"tf32", {1e-3, 1e-3, "r\n", {}, {}}}};
  const nlohmann::json reply = nlohmann::json::parse(R"({"type": "measured", "forward": "graph",
      "results": {"eager_tf32": {"median_s": 0, "samples": 0}, "eager_fp32": {"median_s": 1e-3}}})");
  const calibration::CalibrationEntry entry = make_entry(problem, library, reply, "t");
  EXPECT_NE(entry.errors.at("eager_tf32").find("no sample kept"), std::string::npos);
  EXPECT_NE(entry.errors.at("eager_fp32").find("library fp32 baseline was not timed"), std::string::npos);
  EXPECT_THROW((void)make_entry(problem, library, nlohmann::json{{"type", "hello"}}, "t"), std::invalid_argument);
}

}  // namespace
}  // namespace kbv::calibrate
