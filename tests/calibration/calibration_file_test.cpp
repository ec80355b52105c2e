// tests/calibration/calibration_file_test.cpp — the PyTorch calibration file: read back what was
// written, bad files named by file and field, runs merged by GPU, driver and torch version, and
// the default path.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "calibration/torch_calibration.hpp"
#include "io/whole_file.hpp"

namespace kbv::calibration {
namespace {

const std::filesystem::path kRecorded = std::filesystem::path(KBV_TEST_CALIBRATION_DATA) / "h200_torch_2.11.json";

Calibration one_run(const std::string& torch, const std::string& problem, double ratio, const std::string& when) {
  Calibration run;
  run.device_name = "NVIDIA H200";
  run.driver = "580.65.06 (CUDA 13.0)";
  run.torch_version = torch;
  run.measured_at = when;
  CalibrationEntry entry;
  entry.problem = problem;
  entry.shape_set = "default";
  entry.spec_sha256 = "abc";
  entry.measured_at = when;
  entry.forward = "graph";
  entry.library["tf32"] = {1e-3, "x: kbv\n"};
  entry.ratios["eager_tf32"] = ratio;
  entry.errors["compiled_tf32"] = "not asked for in this run";
  run.entries.push_back(entry);
  return run;
}

std::string error_of(const nlohmann::json& json) {
  try {
    (void)calibration_from_json(json, "cal.json");
  } catch (const CalibrationFileError& error) {
    return error.what();
  }
  return "";
}

TEST(CalibrationFile, TheRecordedFileLoadsAndRoundTrips) {
  const CalibrationFile file = load_calibration_file(kRecorded);
  ASSERT_EQ(file.calibrations.size(), 3u);
  const Calibration& h200 = file.calibrations[1];
  EXPECT_EQ(h200.torch_version, "2.11.0+cu130");
  const CalibrationEntry* layernorm = h200.find("layernorm", "default");
  ASSERT_NE(layernorm, nullptr);
  EXPECT_NEAR(layernorm->ratios.at("eager_tf32"), 8.33 / 0.255, 1e-9);
  EXPECT_EQ(h200.find("layernorm", "small"), nullptr);
  EXPECT_TRUE(layernorm->library_sources_sha256.empty()) << "recorded before kbv wrote library_sources_sha256";
  EXPECT_EQ(to_json(calibration_from_json(to_json(file), "again")), to_json(file));
  CalibrationFile with_sources = file;  // a newer entry's digest survives the round trip
  with_sources.calibrations[1].entries[0].library_sources_sha256 = std::string(64, 'c');
  const CalibrationFile again = calibration_from_json(to_json(with_sources), "again");
  EXPECT_EQ(again.calibrations[1].entries[0].library_sources_sha256, std::string(64, 'c'));
  EXPECT_FALSE(layernorm->max_duty) << "recorded before kbv paced its timers";
  CalibrationFile paced = file;  // a paced entry's duty survives the round trip
  paced.calibrations[1].entries[0].max_duty = 0.25;
  EXPECT_EQ(calibration_from_json(to_json(paced), "again").calibrations[1].entries[0].max_duty, 0.25);
}

// The GPU runner derives every round's PyTorch speedups from docs/results/torch-baselines.json
// (bench/gpu/README.md): a file it cannot load turns them all null. Round r78 found that after a
// hand merge left two calibrations of one GPU, driver and torch in it.
TEST(CalibrationFile, TheRunnersCommittedCalibrationLoads) {
  const CalibrationFile file = load_calibration_file(KBV_TEST_RESULTS_CALIBRATION);
  EXPECT_FALSE(file.calibrations.empty());
  for (const Calibration& calibration : file.calibrations) EXPECT_FALSE(calibration.entries.empty()) << calibration.device_name;
}

TEST(CalibrationFile, BadFieldsAreNamedWithTheFix) {
  nlohmann::json good = to_json(load_calibration_file(kRecorded));
  EXPECT_EQ(error_of(good), "");
  nlohmann::json bad = good;
  bad["format"] = "kbv.ceilings";
  EXPECT_NE(error_of(bad).find("cal.json: field 'format'"), std::string::npos) << error_of(bad);
  bad = good;
  bad["version"] = 2;
  EXPECT_NE(error_of(bad).find("this kbv reads version 1"), std::string::npos);
  bad = good;
  bad["calibrations"][1]["entries"][0]["ratios"]["eager_tf32"] = -1;
  EXPECT_NE(error_of(bad).find("field 'calibrations[1].entries[0].ratios.eager_tf32': expected a positive number (fix: move cal.json aside"),
            std::string::npos)
      << error_of(bad);
  // Review: a ratio of 1e308 gave an infinite derived speedup (written as null with no reason).
  bad = good;
  bad["calibrations"][1]["entries"][0]["ratios"]["eager_tf32"] = 1e308;
  EXPECT_NE(error_of(bad).find("ratios.eager_tf32': expected a ratio of PyTorch's time to the library's from 0.001 to 1000"), std::string::npos)
      << error_of(bad);
  bad["calibrations"][1]["entries"][0]["ratios"]["eager_tf32"] = 1e-300;
  EXPECT_NE(error_of(bad).find("ratios.eager_tf32': expected a ratio"), std::string::npos) << error_of(bad);
  bad = good;
  bad["calibrations"][1]["entries"][0]["ratios"]["eager_bf16"] = 1.0;
  EXPECT_NE(error_of(bad).find("not a PyTorch baseline kbv knows"), std::string::npos);
  bad = good;
  bad["calibrations"][1]["entries"][0]["library"].erase("fp32");
  EXPECT_NE(error_of(bad).find("library.fp32': missing: ratio eager_fp32 is relative to it"), std::string::npos) << error_of(bad);
  bad = good;
  bad["calibrations"][1]["entries"][0]["max_duty"] = 1.5;
  EXPECT_NE(error_of(bad).find("'calibrations[1].entries[0].max_duty': expected a share of the wall in (0, 1]"), std::string::npos) << error_of(bad);
  bad["calibrations"][1]["entries"][0]["max_duty"] = 0;
  EXPECT_NE(error_of(bad).find("'calibrations[1].entries[0].max_duty': expected a positive number"), std::string::npos) << error_of(bad);
  bad = good;
  bad["calibrations"][0].erase("torch_version");
  EXPECT_NE(error_of(bad).find("'calibrations[0].torch_version': missing"), std::string::npos);
}

TEST(CalibrationFile, DuplicatesAreRefusedWithTheFix) {
  const nlohmann::json good = to_json(load_calibration_file(kRecorded));
  nlohmann::json bad = good;
  bad["calibrations"][1]["entries"].push_back(bad["calibrations"][1]["entries"][0]);  // one problem and shape set twice
  const size_t last = bad["calibrations"][1]["entries"].size() - 1;
  EXPECT_NE(error_of(bad).find("field 'calibrations[1].entries[" + std::to_string(last) + "]': duplicates entries[0]"), std::string::npos)
      << error_of(bad);
  EXPECT_NE(error_of(bad).find("fix: delete one of the two from cal.json"), std::string::npos) << error_of(bad);
  bad = good;
  bad["calibrations"].push_back(bad["calibrations"][1]);  // one GPU, driver and torch twice
  EXPECT_NE(error_of(bad).find("field 'calibrations[3]': duplicates calibrations[1]"), std::string::npos) << error_of(bad);
}

TEST(CalibrationFile, AFolderOrAnUnreadableFileIsNamedAsSuch) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / ("kbv-calibration-folder-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  try {
    (void)load_calibration_file(folder);
    ADD_FAILURE() << "a folder loaded";
  } catch (const CalibrationFileError& error) {
    EXPECT_NE(std::string(error.what()).find("is a directory (fix: point KBV_TORCH_CALIBRATION at the calibration file itself"), std::string::npos)
        << error.what();
  }
  std::filesystem::remove(folder);
  try {
    (void)load_calibration_file(folder / "none.json");
    ADD_FAILURE() << "a missing file loaded";
  } catch (const CalibrationFileError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot open: No such file or directory"), std::string::npos) << error.what();
  }
}

TEST(CalibrationFile, ARerunKeepsTheRatiosItDidNotMeasureOfTheSameProblemAndLibrary) {
  CalibrationFile file;
  Calibration full = one_run("2.11", "relu", 1.0, "2026-12-01T10:00:00Z");
  full.entries[0].ratios["compiled_tf32"] = 0.9;
  full.entries[0].errors.clear();
  full.entries[0].evidence = {{"torch", {{"compiled_tf32", {{"median_s", 9e-4}}}}}};
  merge_calibration(file, full);
  // A rerun without torch.compile: eager measured again, compiled kept with its evidence.
  std::vector<std::string> notes;
  merge_calibration(file, one_run("2.11", "relu", 1.2, "2026-12-02T10:00:00Z"), &notes);
  const CalibrationEntry* relu = file.calibrations[0].find("relu", "default");
  EXPECT_DOUBLE_EQ(relu->ratios.at("eager_tf32"), 1.2);
  EXPECT_DOUBLE_EQ(relu->ratios.at("compiled_tf32"), 0.9);
  EXPECT_FALSE(relu->errors.contains("compiled_tf32"));
  EXPECT_EQ(relu->evidence["torch"]["compiled_tf32"]["median_s"], 9e-4);
  EXPECT_EQ(relu->evidence["kept_from_earlier_run"]["compiled_tf32"]["measured_at"], "2026-12-01T10:00:00Z");
  ASSERT_EQ(notes.size(), 1u);
  // A second rerun keeps it again, still dated when it was measured (review: it took the first rerun's date).
  merge_calibration(file, one_run("2.11", "relu", 1.25, "2026-12-02T12:00:00Z"));
  EXPECT_EQ(file.calibrations[0].find("relu", "default")->evidence["kept_from_earlier_run"]["compiled_tf32"]["measured_at"], "2026-12-01T10:00:00Z");
  relu = file.calibrations[0].find("relu", "default");
  EXPECT_NE(notes[0].find("relu default: compiled_tf32 of 2026-12-01T10:00:00Z kept (this run: not asked for in this run)"), std::string::npos) << notes[0];
  // The problem changed since: the old ratio no longer describes it, and is dropped, said so.
  Calibration changed = one_run("2.11", "relu", 1.3, "2026-12-03T10:00:00Z");
  changed.entries[0].spec_sha256 = "def";
  notes.clear();
  merge_calibration(file, changed, &notes);
  relu = file.calibrations[0].find("relu", "default");
  EXPECT_FALSE(relu->ratios.contains("compiled_tf32"));
  EXPECT_EQ(relu->errors.at("compiled_tf32"), "not asked for in this run");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("dropped"), std::string::npos) << notes[0];
  // Review: an unpaced run's ratio kept beside a paced rerun's was reported with the rerun's pacing.
  Calibration unpaced = one_run("2.11", "relu", 1.0, "2026-12-04T10:00:00Z");
  unpaced.entries[0].ratios["compiled_tf32"] = 0.9;
  unpaced.entries[0].errors.clear();
  merge_calibration(file, unpaced);
  Calibration paced = one_run("2.11", "relu", 1.1, "2026-12-05T10:00:00Z");
  paced.entries[0].max_duty = 0.25;
  notes.clear();
  merge_calibration(file, paced, &notes);
  relu = file.calibrations[0].find("relu", "default");
  EXPECT_FALSE(relu->ratios.contains("compiled_tf32"));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("pacing changed since"), std::string::npos) << notes[0];
}

TEST(CalibrationFile, ARunMergesIntoItsGpuDriverAndTorchVersion) {
  CalibrationFile file;
  merge_calibration(file, one_run("2.11", "relu", 1.0, "2026-12-01T10:00:00Z"));
  merge_calibration(file, one_run("2.11", "gelu", 2.0, "2026-12-01T11:00:00Z"));
  merge_calibration(file, one_run("2.11", "relu", 1.5, "2026-12-01T12:00:00Z"));  // replaces relu
  merge_calibration(file, one_run("2.10", "relu", 3.0, "2026-11-01T10:00:00Z"));  // another torch: its own calibration
  ASSERT_EQ(file.calibrations.size(), 2u);
  const Calibration& newer = file.calibrations[0];
  ASSERT_EQ(newer.entries.size(), 2u);
  EXPECT_DOUBLE_EQ(newer.find("relu", "default")->ratios.at("eager_tf32"), 1.5);
  EXPECT_DOUBLE_EQ(newer.find("gelu", "default")->ratios.at("eager_tf32"), 2.0);
  EXPECT_EQ(newer.measured_at, "2026-12-01T12:00:00Z");
  EXPECT_DOUBLE_EQ(file.calibrations[1].find("relu", "default")->ratios.at("eager_tf32"), 3.0);
}

// Review: two runs writing one file (one per GPU) each rewrote the copy they read at their start,
// and the last one's entries were all the file kept. Each merge now re-reads the file under a lock.
TEST(CalibrationFile, ConcurrentRunsKeepEachOthersEntries) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("kbv-calibration-shared-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(path);
  constexpr int kRuns = 2, kProblemsEach = 15;
  std::vector<pid_t> children;
  for (int run = 0; run < kRuns; ++run) {
    const pid_t child = ::fork();
    if (child == 0) {
      for (int p = 0; p < kProblemsEach; ++p)
        merge_into_calibration_file(path, one_run("2.11", "p" + std::to_string(run) + "_" + std::to_string(p), 1.0 + p, "2026-12-05T10:00:00Z"));
      ::_exit(0);
    }
    children.push_back(child);
  }
  for (const pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const CalibrationFile merged = load_calibration_file(path);
  ASSERT_EQ(merged.calibrations.size(), 1u);
  EXPECT_EQ(merged.calibrations[0].entries.size(), static_cast<size_t>(kRuns * kProblemsEach));
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + ".lock");
}

TEST(CalibrationFile, SavingReplacesTheFileWhole) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / ("kbv-calibration-" + std::to_string(::getpid()) + ".json");
  CalibrationFile file;
  merge_calibration(file, one_run("2.11", "relu", 1.25, "2026-12-01T10:00:00Z"));
  save_calibration_file(file, path);
  const CalibrationFile read = load_calibration_file(path);
  EXPECT_EQ(to_json(read), to_json(file));
  EXPECT_EQ(read.calibrations[0].entries[0].errors.at("compiled_tf32"), "not asked for in this run");
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
    EXPECT_FALSE(entry.path().filename().string().starts_with(std::string(io::kTemporaryPrefix) + path.filename().string()))
        << "temporary left behind: " << entry.path();
  std::filesystem::remove(path);
  EXPECT_THROW(save_calibration_file(file, "/nonexistent/dir/torch-baselines.json"), std::runtime_error);
}

TEST(CalibrationFile, TheDefaultPathIsTheEnvironmentsOrTheStateDirectorys) {
  ::setenv("KBV_TORCH_CALIBRATION", "/tmp/elsewhere.json", 1);
  EXPECT_EQ(default_torch_calibration_path(), "/tmp/elsewhere.json");
  ::unsetenv("KBV_TORCH_CALIBRATION");
  ::setenv("XDG_STATE_HOME", "/tmp/state", 1);
  EXPECT_EQ(default_torch_calibration_path(), "/tmp/state/kbv/torch-baselines.json");
}

}  // namespace
}  // namespace kbv::calibration
