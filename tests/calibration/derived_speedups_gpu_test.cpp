// tests/calibration/derived_speedups_gpu_test.cpp — on a GPU (label gpu; skipped with the reason
// elsewhere): `kbv eval --device cuda` derives its speedups over PyTorch from a calibration file
// that fits this GPU, driver, problem and library baseline (written here from a first eval's own
// environment, with known ratios: no torch needed), names the calibration it used, and leaves them
// null with the reason when there is none, or its driver or spec hash differ. conv2d_relu_biasadd
// checks that a conv algorithm taken from the cache on the second run (not from cudnnFind, as on
// the first) is not a change of library.
#include <gtest/gtest.h>

#include <fstream>

#include "../cuda/gpu_presence.hpp"
#include "calibration/problem_fingerprint.hpp"
#include "kbv_eval.hpp"
#include "spec/catalog.hpp"

namespace {

using kbv::test::explain;
using kbv::test::run_kbv_eval;

constexpr double kEagerRatio = 3.0, kFp32Ratio = 5.0, kCompiledRatio = 0.5;

kbv::test::EvalRun eval(const std::string& candidate, const std::filesystem::path& calibration, const std::filesystem::path& cache) {
  return run_kbv_eval({(kbv::test::candidate_dir() / "cuda" / candidate).string(), "--device", "cuda", "--shapes", "small", "--timeout-s", "20"},
                      {{"KBV_PROBLEMS_DIR", kbv::test::problems_dir().string()},
                       {"KBV_TORCH_CALIBRATION", calibration.string()},
                       {"KBV_ALGORITHM_CACHE", cache.string()}});
}

// A calibration of this GPU, driver and library, as `report` saw them, with the ratios above.
nlohmann::json calibration_for(const nlohmann::json& report, const std::string& problem) {
  const kbv::ProblemCatalog catalog = kbv::ProblemCatalog::load(kbv::test::problems_dir());
  const nlohmann::json& env = report.at("environment");
  nlohmann::json entry = {{"problem", problem}, {"shape_set", "small"},
                          {"spec_sha256", kbv::calibration::problem_fingerprint(kbv::resolve_problem(catalog.get(problem), "small"))},
                          {"measured_at", "2026-12-01T10:00:00Z"}, {"forward", "graph"},
                          {"library", {{"tf32", {{"median_s", 1e-3}, {"describe", env.at("baseline_tf32")}}},
                                       {"fp32", {{"median_s", 1e-3}, {"describe", env.at("baseline_fp32")}}}}},
                          {"ratios", {{"eager_tf32", kEagerRatio}, {"eager_fp32", kFp32Ratio}, {"compiled_tf32", kCompiledRatio}}}};
  return {{"format", "kbv.torch_calibration"}, {"version", 1},
          {"calibrations", {{{"device_name", env.at("device_name")}, {"driver", env.at("driver")}, {"torch_version", "2.11.0+test"},
                             {"measured_at", "2026-12-01T10:00:00Z"}, {"entries", {entry}}}}}};
}

void write(const std::filesystem::path& path, const nlohmann::json& json) { std::ofstream(path) << json.dump(2); }

void derives_from_a_fitting_calibration(const std::string& candidate, const std::string& problem) {
  if (const std::string why = kbv::cuda::testing::why_no_cuda_device(); !why.empty()) GTEST_SKIP() << why;
  kbv::test::TempDir dir;
  const auto file = dir.path() / "torch-baselines.json", cache = dir.path() / "cudnn.json";
  const auto first = eval(candidate, file, cache);
  ASSERT_EQ(first.report.value("verdict", ""), "pass") << explain(first);
  EXPECT_TRUE(first.report["speedup"]["vs_eager_tf32"].is_null());
  EXPECT_NE(first.report["baselines"]["eager_tf32"]["reason"].get<std::string>().find("no PyTorch calibration at " + file.string()),
            std::string::npos)
      << first.report["baselines"].dump();
  ASSERT_TRUE(first.report["environment"].contains("driver")) << first.report["environment"].dump();

  write(file, calibration_for(first.report, problem));
  const auto second = eval(candidate, file, cache);
  ASSERT_EQ(second.report.value("verdict", ""), "pass") << explain(second);
  const nlohmann::json& speedup = second.report["speedup"];
  ASSERT_TRUE(speedup["vs_eager_tf32"].is_number()) << second.report["baselines"].dump();
  EXPECT_NEAR(speedup["vs_eager_tf32"].get<double>(), speedup["vs_library_tf32"].get<double>() * kEagerRatio, 1e-9);
  EXPECT_NEAR(speedup["vs_eager_fp32"].get<double>(), speedup["vs_library_fp32"].get<double>() * kFp32Ratio, 1e-9);
  EXPECT_NEAR(speedup["vs_compiled_tf32"].get<double>(), speedup["vs_library_tf32"].get<double>() * kCompiledRatio, 1e-9);
  EXPECT_EQ(second.report["baselines"]["calibration"]["torch_version"], "2.11.0+test");
  EXPECT_NEAR(second.report["baselines"]["eager_tf32"]["estimated_median_s"].get<double>(),
              second.report["timing"]["baseline_tf32"]["median_s"].get<double>() * kEagerRatio, 1e-12);
  std::printf("[ figures  ] %s: library TF32 %s, derived eager TF32 %s\n", problem.c_str(), speedup["vs_library_tf32"].dump().c_str(),
              speedup["vs_eager_tf32"].dump().c_str());

  nlohmann::json other_driver = calibration_for(first.report, problem);
  other_driver["calibrations"][0]["driver"] = "1.2.3 (CUDA 9.9)";
  write(file, other_driver);
  const auto third = eval(candidate, file, cache);
  EXPECT_TRUE(third.report["speedup"]["vs_eager_tf32"].is_null());
  EXPECT_NE(third.report["baselines"]["eager_tf32"]["reason"].get<std::string>().find("under driver 1.2.3 (CUDA 9.9), not this one"),
            std::string::npos)
      << third.report["baselines"].dump();
  EXPECT_TRUE(third.report["speedup"]["vs_library_tf32"].is_number()) << "the library baseline stands";

  nlohmann::json changed_spec = calibration_for(first.report, problem);
  changed_spec["calibrations"][0]["entries"][0]["spec_sha256"] = std::string(64, '0');
  write(file, changed_spec);
  const auto fourth = eval(candidate, file, cache);
  EXPECT_TRUE(fourth.report["speedup"]["vs_eager_tf32"].is_null());
  EXPECT_NE(fourth.report["baselines"]["eager_tf32"]["reason"].get<std::string>().find("changed since it was calibrated"), std::string::npos);
}

TEST(DerivedSpeedupsOnGpu, Relu) { derives_from_a_fitting_calibration("libcuda_relu_vec4.so", "relu"); }
TEST(DerivedSpeedupsOnGpu, ConvWithItsAlgorithmFromTheCache) {
  derives_from_a_fitting_calibration("libcuda_conv2d_relu_biasadd_implicit_gemm_tf32.so", "conv2d_relu_biasadd");
}

}  // namespace
