// tests/calibration/derived_speedups_test.cpp — speedups over PyTorch derived from a recorded H200
// calibration (data/h200_torch_2.11.json: torch 2.11 and 2.10 on an H200, and an A100), and
// every way a calibration can be missing or stale leaving them null with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "calibration/derived_speedups.hpp"
#include "calibration/recalibration.hpp"
#include "calibration/torch_calibration.hpp"

namespace kbv::calibration {
namespace {

const std::filesystem::path kRecorded = std::filesystem::path(KBV_TEST_CALIBRATION_DATA) / "h200_torch_2.11.json";

// An H200 evaluation of layernorm at its default shapes whose candidate ran 0.2 ms against the
// library's 0.26 ms (TF32) and 0.25 ms (FP32), interleaved.
DerivationInputs layernorm_on_h200() {
  DerivationInputs in;
  in.device = "cuda";
  in.device_name = "NVIDIA H200";
  in.driver = "580.65.06 (CUDA 13.0)";
  in.problem = "layernorm";
  in.shape_set = "default";
  in.spec_sha256 = "recorded-layernorm-0123456789abcdef";
  in.library_describe = {{"tf32", "layernorm node: kbv library tf32\n"}, {"fp32", "layernorm node: kbv library fp32\n"}};
  in.library_median_s = {{"tf32", 0.26e-3}, {"fp32", 0.25e-3}};
  in.candidate_median_s = 0.2e-3;
  return in;
}

void expect_all_null(const DerivedSpeedups& derived, const std::string& reason_part) {
  ASSERT_EQ(derived.baselines.size(), torch_baselines().size());
  for (const auto& [name, baseline] : derived.baselines) {
    EXPECT_FALSE(baseline.speedup) << name;
    EXPECT_NE(baseline.reason.find(reason_part), std::string::npos) << name << ": " << baseline.reason;
  }
  nlohmann::json speedup = nlohmann::json::object();
  derived.add_speedups(speedup);
  for (const auto& baseline : torch_baselines()) EXPECT_TRUE(speedup.at("vs_" + std::string(baseline.name)).is_null());
}

TEST(DerivedSpeedups, ScaleTheInterleavedLibrarySpeedupByTheNewestFittingCalibration) {
  const DerivedSpeedups derived = derive_speedups(layernorm_on_h200(), kRecorded);
  ASSERT_TRUE(derived.calibration.is_object());
  EXPECT_EQ(derived.calibration["torch_version"], "2.11.0+cu130");  // newer than the 2.10 calibration on the same GPU and driver
  EXPECT_EQ(derived.calibration["file"], kRecorded.string());
  EXPECT_EQ(derived.calibration["measured_at"], "2026-12-01T10:00:00Z");
  const DerivedBaseline& eager = derived.baselines.at("eager_tf32");
  ASSERT_TRUE(eager.speedup) << eager.reason;
  // (0.26 / 0.2) × (8.33 / 0.255): eager TF32 LayerNorm is 32.7× the library's time on the H200.
  EXPECT_NEAR(*eager.speedup, 0.26 / 0.2 * (8.33 / 0.255), 1e-9);
  EXPECT_NEAR(*eager.ratio, 8.33 / 0.255, 1e-9);
  EXPECT_NEAR(*eager.estimated_median_s, 0.26e-3 * 8.33 / 0.255, 1e-12);
  EXPECT_TRUE(eager.reason.empty());
  // eager FP32 is relative to the FP32 library baseline, compile to the TF32 one.
  EXPECT_NEAR(*derived.baselines.at("eager_fp32").speedup, 0.25 / 0.2 * (8.33 / 0.255), 1e-9);
  EXPECT_NEAR(*derived.baselines.at("compiled_tf32").speedup, 0.26 / 0.2 * (0.318 / 0.255), 1e-9);
  nlohmann::json speedup = nlohmann::json::object();
  derived.add_speedups(speedup);
  EXPECT_NEAR(speedup["vs_eager_tf32"].get<double>(), *eager.speedup, 1e-12);
  const nlohmann::json report = derived.to_json();
  EXPECT_EQ(report["eager_tf32"]["library"], "tf32");
  EXPECT_TRUE(report["eager_tf32"]["reason"].is_null());
  EXPECT_EQ(report["eager_fp32"]["library"], "fp32");
}

TEST(DerivedSpeedups, AWantedTorchVersionPicksItsCalibrationOrSaysWhichExist) {
  DerivationInputs in = layernorm_on_h200();
  in.torch_version = "2.10.0+cu128";
  const DerivedSpeedups older = derive_speedups(in, kRecorded);
  ASSERT_TRUE(older.baselines.at("eager_tf32").speedup) << older.baselines.at("eager_tf32").reason;
  EXPECT_NEAR(*older.baselines.at("eager_tf32").ratio, 9.0 / 0.255, 1e-9);
  in.torch_version = "2.12.0";
  const DerivedSpeedups none = derive_speedups(in, kRecorded);
  EXPECT_TRUE(none.calibration.is_null());
  expect_all_null(none, "with torch 2.12.0");
  expect_all_null(none, "2.10.0+cu128, 2.11.0+cu130");
}

TEST(DerivedSpeedups, TheHostDeviceHasOnlyTheLibraryBaseline) {
  DerivationInputs in = layernorm_on_h200();
  in.device = "host";
  expect_all_null(derive_speedups(in, kRecorded), "calibrated on CUDA GPUs");
}

TEST(DerivedSpeedups, NoFileNamesThePathAndTheFix) {
  const DerivedSpeedups derived = derive_speedups(layernorm_on_h200(), "/nonexistent/torch-baselines.json");
  EXPECT_TRUE(derived.calibration.is_null());
  expect_all_null(derived, "no PyTorch calibration at /nonexistent/torch-baselines.json");
  expect_all_null(derived, "kbv calibrate --torch");
}

TEST(DerivedSpeedups, AnotherGpuOrDriverIsNeverUsed) {
  DerivationInputs in = layernorm_on_h200();
  in.device_name = "NVIDIA H100 80GB HBM3";
  const DerivedSpeedups other_gpu = derive_speedups(in, kRecorded);
  expect_all_null(other_gpu, "no calibration for this NVIDIA H100 80GB HBM3");
  expect_all_null(other_gpu, "GPUs it holds: NVIDIA A100-SXM4-80GB, NVIDIA H200");
  in = layernorm_on_h200();
  in.driver = "590.10.01 (CUDA 13.1)";
  expect_all_null(derive_speedups(in, kRecorded), "under driver 580.65.06 (CUDA 13.0), not this one");
}

// Review: cuBLAS or cuDNN upgraded under the same driver runs other kernels than the ratio was
// measured against. A calibration that names its libraries is used only with the same ones; one
// written before kbv recorded them is used, and the result says they were not recorded.
TEST(DerivedSpeedups, OtherCudaLibrariesThanCalibratedAreNeverUsed) {
  DerivationInputs in = layernorm_on_h200();
  in.library_versions = "cudart 13000, cublasLt 130200, cudnn 91100";
  const DerivedSpeedups legacy = derive_speedups(in, kRecorded);
  EXPECT_TRUE(legacy.baselines.at("eager_tf32").speedup) << legacy.baselines.at("eager_tf32").reason;
  EXPECT_NE(legacy.calibration["libraries"].get<std::string>().find("not recorded"), std::string::npos);

  nlohmann::json json;
  std::ifstream(kRecorded) >> json;
  for (auto& calibration : json["calibrations"]) calibration["libraries"] = "cudart 13000, cublasLt 130100, cudnn 91000";
  const auto path = std::filesystem::temp_directory_path() / ("kbv-calibration-libraries-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << json.dump();
  expect_all_null(derive_speedups(in, path), "with other CUDA libraries (cudart 13000, cublasLt 130100, cudnn 91000; this evaluation runs "
                                             "cudart 13000, cublasLt 130200, cudnn 91100)");
  in.library_versions = "cudart 13000, cublasLt 130100, cudnn 91000";
  const DerivedSpeedups same = derive_speedups(in, path);
  EXPECT_TRUE(same.baselines.at("eager_tf32").speedup) << same.baselines.at("eager_tf32").reason;
  EXPECT_EQ(same.calibration["libraries"], "cudart 13000, cublasLt 130100, cudnn 91000");
  std::filesystem::remove(path);
}

// A partial recalibration on newer CUDA libraries is a calibration of its own: its problems take
// its entries, every other problem keeps the earlier calibration's entry of the same torch version
// (review: only the newest calibration was searched, so recalibrating 5 problems on an H200 left
// the other 10 with no entry). Another torch version's entries are not mixed in.
TEST(DerivedSpeedups, APartialRecalibrationLeavesTheOtherProblemsTheirEarlierEntries) {
  nlohmann::json json;
  std::ifstream(kRecorded) >> json;
  nlohmann::json* newest = nullptr;
  for (auto& calibration : json["calibrations"])
    if (calibration["device_name"] == "NVIDIA H200" && calibration["torch_version"] == "2.11.0+cu130") newest = &calibration;
  ASSERT_NE(newest, nullptr);
  nlohmann::json partial = *newest;
  partial["libraries"] = "cudart 13000, cublasLt 130100, cudnn 91400";
  partial["measured_at"] = "2026-12-05T18:00:00Z";
  nlohmann::json entries = nlohmann::json::array();
  for (auto entry : partial["entries"])
    if (entry["problem"] == "layernorm") {
      entry["measured_at"] = "2026-12-05T18:00:00Z";
      entries.push_back(entry);
    }
  ASSERT_EQ(entries.size(), 1u);
  partial["entries"] = entries;
  json["calibrations"].push_back(partial);
  const auto path = std::filesystem::temp_directory_path() / ("kbv-calibration-partial-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << json.dump();

  DerivationInputs in = layernorm_on_h200();
  in.library_versions = "cudart 13000, cublasLt 130100, cudnn 91400";
  const DerivedSpeedups recalibrated = derive_speedups(in, path);
  EXPECT_EQ(recalibrated.calibration["measured_at"], "2026-12-05T18:00:00Z") << "the newer entry of the recalibrated problem";
  EXPECT_EQ(recalibrated.calibration["libraries"], "cudart 13000, cublasLt 130100, cudnn 91400");

  // Every other problem of the recorded 2.11 calibration still has its entry there.
  nlohmann::json* older_other = nullptr;
  for (auto& entry : (*newest)["entries"])
    if (entry["problem"] != "layernorm") older_other = &entry;
  ASSERT_NE(older_other, nullptr) << "the recorded file needs a second problem";
  in.problem = (*older_other)["problem"];
  in.shape_set = (*older_other)["shape_set"];
  in.spec_sha256 = (*older_other)["spec_sha256"];
  in.library_describe.clear();
  const DerivedSpeedups other = derive_speedups(in, path);
  EXPECT_EQ(other.calibration["torch_version"], "2.11.0+cu130");
  EXPECT_EQ(other.calibration["measured_at"], (*older_other)["measured_at"]) << other.calibration.dump();
  std::filesystem::remove(path);
}

TEST(DerivedSpeedups, AProblemOrShapeSetNotCalibratedSaysHowToCalibrateIt) {
  DerivationInputs in = layernorm_on_h200();
  in.problem = "conv2d";
  expect_all_null(derive_speedups(in, kRecorded), "no entry for problem conv2d at shapes default (fix: kbv calibrate --torch --problem conv2d --shapes default)");
  in = layernorm_on_h200();
  in.shape_set = "small";
  expect_all_null(derive_speedups(in, kRecorded), "at shapes small");
}

TEST(DerivedSpeedups, ASpecThatChangedSinceCalibrationIsStale) {
  DerivationInputs in = layernorm_on_h200();
  in.spec_sha256 = "0000000000000000000000000000000000000000000000000000000000000000";
  const DerivedSpeedups derived = derive_speedups(in, kRecorded);
  EXPECT_TRUE(derived.calibration.is_object());  // which calibration was looked at stays visible
  expect_all_null(derived, "graph or shapes changed since it was calibrated");
}

TEST(DerivedSpeedups, ALibraryBaselineThatChangedStalesOnlyTheBaselinesMeasuredAgainstIt) {
  DerivationInputs in = layernorm_on_h200();
  in.library_describe["tf32"] = "layernorm node: a fused kernel\n";
  const DerivedSpeedups derived = derive_speedups(in, kRecorded);
  EXPECT_FALSE(derived.baselines.at("eager_tf32").speedup);
  EXPECT_FALSE(derived.baselines.at("compiled_tf32").speedup);
  EXPECT_NE(derived.baselines.at("eager_tf32").reason.find("library tf32 baseline for layernorm is not the one calibrated"), std::string::npos);
  EXPECT_TRUE(derived.baselines.at("eager_fp32").speedup) << derived.baselines.at("eager_fp32").reason;
}

TEST(DerivedSpeedups, HowAConvAlgorithmWasChosenIsNotAChangeOfLibrary) {
  const std::string found = "conv (conv2d): cudnnConvolutionForward algo=IMPLICIT_PRECOMP_GEMM math=TENSOR_OP workspace=0B stride=1 "
                            "chosen by cudnnFind (0.61 s) + kbv channel-bias add kernel\nrelu (relu): kbv float4 kernel\n";
  const std::string cached = "conv (conv2d): cudnnConvolutionForward algo=IMPLICIT_PRECOMP_GEMM math=TENSOR_OP workspace=0B stride=1 "
                             "chosen by cached cudnnFind choice (/tmp/run1/cudnn-conv-algorithms.json) + kbv channel-bias add kernel\n"
                             "relu (relu): kbv float4 kernel\n";
  EXPECT_EQ(library_identity(found), library_identity(cached));
  EXPECT_EQ(library_identity("conv: algo=GEMM chosen by cudnnFind"), "conv: algo=GEMM");
  const std::string other = "conv (conv2d): cudnnConvolutionForward algo=WINOGRAD math=TENSOR_OP workspace=0B stride=1 chosen by cudnnFind\n";
  EXPECT_NE(library_identity(found), library_identity(other));

  DerivationInputs in = layernorm_on_h200();
  in.library_describe["tf32"] = "layernorm node: kbv library tf32 chosen by the algorithm cache\n";
  EXPECT_TRUE(derive_speedups(in, kRecorded).baselines.at("eager_tf32").speedup);
}

// The recorded calibration with the torch 2.11 H200 layernorm entry changed by `edit`, in a
// temporary file.
std::filesystem::path recorded_with_layernorm_entry(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json json;
  std::ifstream(kRecorded) >> json;
  for (auto& calibration : json["calibrations"])
    if (calibration["device_name"] == "NVIDIA H200" && calibration["torch_version"] == "2.11.0+cu130")
      for (auto& entry : calibration["entries"])
        if (entry["problem"] == "layernorm") edit(entry);
  const auto path = std::filesystem::temp_directory_path() / ("kbv-calibration-edited-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << json.dump();
  return path;
}

// A kernel changed under an unchanged description (the same "kbv … kernel" text) is caught by the
// digest of the library's sources the calibration recorded; an entry without one (calibrated
// before kbv recorded it) is still used, and the result says it was identified by description.
TEST(DerivedSpeedups, ALibraryWhoseSourcesChangedSinceCalibrationIsStale) {
  DerivationInputs in = layernorm_on_h200();
  in.library_sources_sha256 = "aaaa0000000000000000000000000000000000000000000000000000000000aa";
  const std::filesystem::path matching =
      recorded_with_layernorm_entry([&](nlohmann::json& entry) { entry["library_sources_sha256"] = in.library_sources_sha256; });
  const DerivedSpeedups same = derive_speedups(in, matching);
  EXPECT_TRUE(same.baselines.at("eager_tf32").speedup) << same.baselines.at("eager_tf32").reason;
  EXPECT_EQ(same.calibration["library_sources"], "match");

  in.library_sources_sha256 = "bbbb1111111111111111111111111111111111111111111111111111111111bb";
  const DerivedSpeedups changed = derive_speedups(in, matching);
  expect_all_null(changed, "kbv's library baseline code for layernorm changed since it was calibrated (sources aaaa00000000 then, bbbb11111111 now");
  expect_all_null(changed, "fix: kbv calibrate --torch --problem layernorm --shapes default");
  EXPECT_EQ(changed.calibration["library_sources"], "changed");
  std::filesystem::remove(matching);

  const DerivedSpeedups legacy = derive_speedups(in, kRecorded);
  EXPECT_TRUE(legacy.baselines.at("eager_tf32").speedup) << legacy.baselines.at("eager_tf32").reason;
  EXPECT_NE(legacy.calibration["library_sources"].get<std::string>().find("identified by its description only"), std::string::npos);
}

// A calibration made before kbv paced its timers says so, and each ratio shows the clocks its
// two sides ran at; a paced one names its duty. The clocks come from the entry's evidence: here
// the 2026-12-04 H200 bmm figures (library TF32 at 1680 and 1605 MHz, eager TF32 at 1980).
TEST(DerivedSpeedups, TheResultSaysHowTheCalibrationWasPacedAndWhetherItsClocksAgreed) {
  const DerivationInputs in = layernorm_on_h200();
  const nlohmann::json unpaced = derive_speedups(in, kRecorded).to_json();
  EXPECT_TRUE(unpaced["calibration"]["max_duty"].is_null());
  EXPECT_EQ(unpaced["calibration"]["pacing"].get<std::string>().rfind("none: calibrated before kbv paced its timers", 0), 0u)
      << unpaced["calibration"]["pacing"];
  EXPECT_TRUE(unpaced["eager_tf32"]["clocks_mhz"].is_null()) << "the recorded entry has no clock readings";

  const std::filesystem::path paced = recorded_with_layernorm_entry([](nlohmann::json& entry) {
    entry["max_duty"] = 0.25;
    entry["evidence"]["library"] = {{"tf32", {{"before", {{"sm_clock_mhz_median", 1680.0}}}, {"after", {{"sm_clock_mhz_median", 1605.0}}}}},
                                    {"fp32", {{"before", {{"sm_clock_mhz_median", 1980.0}}}, {"after", {{"sm_clock_mhz_median", 1980.0}}}}}};
    entry["evidence"]["torch"]["eager_tf32"]["sm_clock_mhz_median"] = 1980.0;
    entry["evidence"]["torch"]["eager_fp32"]["sm_clock_mhz_median"] = 1965.0;
  });
  const DerivedSpeedups derived = derive_speedups(in, paced);
  std::filesystem::remove(paced);
  const nlohmann::json report = derived.to_json();
  EXPECT_EQ(report["calibration"]["max_duty"], 0.25);
  EXPECT_EQ(report["calibration"]["pacing"], "both timers paced to a GPU duty of at most 0.25");
  EXPECT_EQ(report["eager_tf32"]["clocks_mhz"], (nlohmann::json{{"library", 1642.5}, {"torch", 1980.0}, {"agree", false}}));
  EXPECT_EQ(report["eager_fp32"]["clocks_mhz"]["agree"], true) << "one 15 MHz NVML step apart";
  EXPECT_TRUE(report["compiled_tf32"]["clocks_mhz"].is_null()) << "no clock recorded for torch.compile";
  EXPECT_TRUE(derived.baselines.at("eager_tf32").speedup) << "the clocks are shown, the speedup still derived";
  EXPECT_FALSE(report["eager_tf32"]["ratio_kept_from_earlier_run"].get<bool>());

  // An unpaced run (--max-duty 1) says so, and a ratio a rerun kept carries its own date.
  const std::filesystem::path kept = recorded_with_layernorm_entry([](nlohmann::json& entry) {
    entry["max_duty"] = 1.0;
    entry["evidence"]["kept_from_earlier_run"]["eager_fp32"] = {{"measured_at", "2026-11-30T09:00:00Z"}, {"library_median_s", 1e-3}, {"why", "x"}};
  });
  const nlohmann::json kept_report = derive_speedups(in, kept).to_json();
  std::filesystem::remove(kept);
  EXPECT_EQ(kept_report["calibration"]["pacing"].get<std::string>().rfind("none: timed unpaced (--max-duty 1)", 0), 0u) << kept_report["calibration"];
  EXPECT_EQ(kept_report["eager_fp32"]["ratio_measured_at"], "2026-11-30T09:00:00Z");
  EXPECT_TRUE(kept_report["eager_fp32"]["ratio_kept_from_earlier_run"].get<bool>());
  EXPECT_EQ(kept_report["eager_tf32"]["ratio_measured_at"], kept_report["calibration"]["measured_at"]);
}

TEST(DerivedSpeedups, ABaselineThatFailedInTheCalibrationCarriesItsError) {
  DerivationInputs in = layernorm_on_h200();
  in.problem = "softmax";
  in.spec_sha256 = "recorded-softmax-0123456789abcdef";
  in.library_describe = {{"tf32", "softmax node: kbv library tf32\n"}, {"fp32", "softmax node: kbv library fp32\n"}};
  const DerivedSpeedups derived = derive_speedups(in, kRecorded);
  EXPECT_TRUE(derived.baselines.at("eager_tf32").speedup);
  EXPECT_FALSE(derived.baselines.at("compiled_tf32").speedup);
  EXPECT_NE(derived.baselines.at("compiled_tf32").reason.find("BackendCompilerFailed: recorded for the test"), std::string::npos);
}

// A PyTorch forward whose output was a strided view (torch.compile's padded GEMM, r83) was timed
// without the copy to a dense output that kbv asks of every candidate: that baseline's ratio is
// refused with the reason; the others, dense, are used; an entry with no layout recorded is used.
TEST(DerivedSpeedups, ABaselineWhoseForwardReturnedAStridedViewIsRefused) {
  const DerivationInputs in = layernorm_on_h200();
  const std::filesystem::path strided = recorded_with_layernorm_entry([](nlohmann::json& entry) {
    entry["evidence"]["torch"]["compiled_tf32"]["output"] = nlohmann::json::array(
        {{{"shape", {8205, 5921}}, {"strides", {5924, 1}}, {"contiguous", false}}});
    entry["evidence"]["torch"]["eager_tf32"]["output"] = {{"shape", {8205, 5921}}, {"strides", {5921, 1}}, {"contiguous", true}};
  });
  const DerivedSpeedups derived = derive_speedups(in, strided);
  std::filesystem::remove(strided);
  const DerivedBaseline& compiled = derived.baselines.at("compiled_tf32");
  EXPECT_FALSE(compiled.speedup);
  EXPECT_FALSE(compiled.ratio);
  EXPECT_NE(compiled.reason.find("returned a strided view (shape [8205,5921], strides [5924,1])"), std::string::npos) << compiled.reason;
  EXPECT_NE(compiled.reason.find("fix: kbv calibrate --torch --problem layernorm --shapes default"), std::string::npos) << compiled.reason;
  EXPECT_TRUE(derived.baselines.at("eager_tf32").speedup) << derived.baselines.at("eager_tf32").reason;
  EXPECT_TRUE(derived.baselines.at("eager_fp32").speedup) << derived.baselines.at("eager_fp32").reason;
  EXPECT_TRUE(derive_speedups(in, kRecorded).baselines.at("compiled_tf32").speedup);  // no layout recorded
}

TEST(DerivedSpeedups, WithoutInterleavedTimingTheRatioIsShownButNoSpeedup) {
  DerivationInputs in = layernorm_on_h200();
  in.candidate_median_s.reset();
  const DerivedSpeedups derived = derive_speedups(in, kRecorded);
  const DerivedBaseline& eager = derived.baselines.at("eager_tf32");
  EXPECT_FALSE(eager.speedup);
  EXPECT_TRUE(eager.ratio);
  EXPECT_NE(eager.reason.find("no interleaved timing"), std::string::npos);
}

TEST(DerivedSpeedups, AnUnreadableFileIsAReasonNeverAnException) {
  const std::filesystem::path bad = std::filesystem::temp_directory_path() / ("kbv-calibration-bad-" + std::to_string(::getpid()) + ".json");
  std::ofstream(bad) << R"({"format": "kbv.torch_calibration", "version": 1, "calibrations": [{"device_name": "NVIDIA H200"}]})";
  const DerivedSpeedups derived = derive_speedups(layernorm_on_h200(), bad);
  expect_all_null(derived, bad.string() + ": field 'calibrations[0].driver': missing (fix: move " + bad.string() +
                              " aside (or point KBV_TORCH_CALIBRATION, and kbv calibrate --torch's --out, at another file), then rerun kbv calibrate --torch)");
  std::ofstream(bad) << "{ not json";
  expect_all_null(derive_speedups(layernorm_on_h200(), bad), "not valid JSON");
  std::filesystem::remove(bad);
}

TEST(DerivedSpeedups, NoneGivesEveryBaselineTheSameReason) {
  const nlohmann::json report = DerivedSpeedups::none("not timed (--no-timing)").to_json();
  EXPECT_TRUE(report["calibration"].is_null());
  for (const auto& baseline : torch_baselines()) EXPECT_EQ(report[std::string(baseline.name)]["reason"], "not timed (--no-timing)");
}

}  // namespace
// kbv calibrate --torch --stale measures a problem again only when an evaluation could not use its
// entry as it is: the same reasons derive_speedups() gives, and an unpaced entry.
TEST(Recalibration, OnlyWhatAnEvaluationCouldNotUseAsItIsIsMeasuredAgain) {
  const std::vector<std::string> all = {"eager_tf32", "eager_fp32", "compiled_tf32"};
  DerivationInputs in = layernorm_on_h200();
  in.library_median_s.clear();
  in.candidate_median_s.reset();  // timings are not what it asks about
  const std::filesystem::path paced = recorded_with_layernorm_entry([](nlohmann::json& entry) { entry["max_duty"] = 0.25; });
  EXPECT_EQ(recalibration_reason(in, paced, all), std::nullopt);

  const auto unpaced = recalibration_reason(in, kRecorded, all);
  ASSERT_TRUE(unpaced);
  EXPECT_NE(unpaced->find("calibrated unpaced"), std::string::npos) << *unpaced;

  DerivationInputs changed_spec = in;
  changed_spec.spec_sha256 = "another-spec";
  const auto spec = recalibration_reason(changed_spec, paced, all);
  ASSERT_TRUE(spec);
  EXPECT_NE(spec->find("graph or shapes changed"), std::string::npos) << *spec;

  DerivationInputs changed_library = in;
  changed_library.library_describe["tf32"] = "layernorm node: another kernel\n";
  const auto library = recalibration_reason(changed_library, paced, all);
  ASSERT_TRUE(library);
  EXPECT_NE(library->find("is not the one calibrated"), std::string::npos) << *library;
  EXPECT_EQ(recalibration_reason(changed_library, paced, {"eager_fp32"}), std::nullopt) << "the FP32 baseline's entry still fits";

  DerivationInputs other_problem = in;
  other_problem.problem = "rmsnorm_not_calibrated";
  ASSERT_TRUE(recalibration_reason(other_problem, paced, all));
  EXPECT_TRUE(recalibration_reason(in, std::filesystem::temp_directory_path() / "kbv-no-such-calibration.json", all));
  std::filesystem::remove(paced);
}

}  // namespace kbv::calibration
