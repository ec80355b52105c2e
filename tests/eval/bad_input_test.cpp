// bad_input_test.cpp — requests kbv cannot evaluate at all exit with status 2 and an error that
// names the file (or problem) at fault: a text file named .so, a truncated ELF, a shared object
// without kbv's export, a file larger than any candidate, a directory, a missing file, an unknown problem, a problem spec missing
// a required field, a KBV_TIMING_SLOTS out of range.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitEvaluatorSetup = 3;  // cli/command_line.hpp

// The JSON report of a request kbv refused: its verdict and its message.
// kbv's own set-up that failed (problem specs, key) exits 3, kExitEvaluatorSetup: nothing was
// judged, and kbvd and kbv sweep keep the candidate queued for the fix.
void expect_refused(const EvalRun& run, const std::string& must_mention, int exit_code = kExitBadInput) {
  EXPECT_EQ(run.result.exit_code, exit_code) << explain(run);
  EXPECT_NE(run.result.err.find(must_mention), std::string::npos) << "stderr must name " << must_mention << "\n"
                                                                  << explain(run);
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  const std::string verdict = run.report.value("verdict", "");
  EXPECT_TRUE(verdict == "load_error" || verdict == "bad_input") << explain(run);
  const std::string message = run.report.contains("error") ? run.report.value("error", "") : run.report.value("detail", "");
  EXPECT_NE(message.find(must_mention), std::string::npos) << "the JSON message must name " << must_mention << "\n"
                                                           << explain(run);
}

std::vector<std::string> host_relu_args(const std::filesystem::path& candidate) {
  return {candidate.string(), "--problem", "relu", "--device", "host", "--shapes", "small"};
}

TEST(BadInput, TextFileNamedSo) {
  const auto file = hostile_file("bad_not_elf.so");
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  expect_refused(run_kbv_eval(host_relu_args(file)), file.string());
}

TEST(BadInput, TruncatedSharedObject) {
  const auto file = hostile_file("bad_truncated.so");
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  expect_refused(run_kbv_eval(host_relu_args(file)), file.string());
}

// An ELF shared object without kbv's export is no candidate: refused before a worker starts.
TEST(BadInput, SharedObjectWithoutTheKbvExport) {
  const auto file = hostile_candidate("relu_missing_export");
  ASSERT_TRUE(std::filesystem::exists(file)) << file;
  const EvalRun run = run_kbv_eval(host_relu_args(file));
  expect_refused(run, file.string());
  EXPECT_NE(run.report.value("detail", "").find("kbv_plugin_negotiate"), std::string::npos) << explain(run);
}

// A key file in a folder that does not exist is a mistyped path, not a request for a new key: a
// new key would silently change every hidden family (issue #22). Nothing is created.
TEST(BadInput, KeyFileInAMissingFolderIsRefused) {
  const TempDir dir;
  const auto key = dir.path() / "no-such-folder" / "secret.key";
  Command command;
  command.argv = {kbv_binary().string(), "eval", host_candidate("relu").string(), "--shapes", "small", "--no-timing", "--json",
                  "--key-file", key.string()};
  const CommandResult result = run_command(command);
  EXPECT_EQ(result.exit_code, kExitEvaluatorSetup) << result.out << result.err;
  EXPECT_NE(result.err.find("kbv keygen --key-file"), std::string::npos) << result.err;
  EXPECT_FALSE(std::filesystem::exists(key.parent_path())) << "a folder was created for the key";
}

// KBV_TIMING_SLOTS, the operator's diagnostic switch (eval/evaluator.hpp, timing_slots()): a value
// out of range refuses the request, naming the variable and the range; one in range is used and
// reported.
TEST(BadInput, TimingSlotsOutOfRangeAreRefusedWithTheRange) {
  for (const std::string value : {"0", "5", "two", ""}) {
    const EvalRun run = run_kbv_eval(host_relu_args(host_candidate("relu")), {{"KBV_TIMING_SLOTS", value}});
    expect_refused(run, "KBV_TIMING_SLOTS");
    EXPECT_NE(run.result.err.find("from 1 to 4"), std::string::npos) << value << "\n" << explain(run);
  }
}

TEST(TimingSlots, TheReportSaysHowManySetsTheSamplesRotatedThrough) {
  const EvalRun one = run_kbv_eval(host_relu_args(host_candidate("relu")), {{"KBV_TIMING_SLOTS", "1"}});
  ASSERT_TRUE(one.report.is_object()) << explain(one);
  EXPECT_EQ(one.report.value("verdict", ""), "pass") << explain(one);
  EXPECT_EQ(one.report["environment"].value("timing_slots", -1), 1) << explain(one);
  const EvalRun kbvs = run_kbv_eval(host_relu_args(host_candidate("relu")));
  ASSERT_TRUE(kbvs.report.is_object()) << explain(kbvs);
  EXPECT_EQ(kbvs.report["environment"].value("timing_slots", -1), 4) << explain(kbvs);
}

TEST(BadInput, DirectoryGivenAsACandidate) {
  const TempDir dir;
  const EvalRun run = run_kbv_eval(host_relu_args(dir.path()));
  expect_refused(run, dir.path().string());
  EXPECT_NE(run.result.err.find("is a directory"), std::string::npos) << explain(run);
}

// A real candidate grown to 2 GiB (sparse: no disk): refused by its size before any check reads it
// whole or any copy is made.
TEST(BadInput, AFileLargerThanAnyCandidateIsRefusedBeforeItIsRead) {
  TempDir dir;
  const auto huge = dir.path() / "libhuge.so";
  std::filesystem::copy_file(host_candidate("relu"), huge);
  std::filesystem::resize_file(huge, std::uintmax_t{2} << 30);
  const EvalRun run = run_kbv_eval(host_relu_args(huge));
  expect_refused(run, huge.string());
  EXPECT_NE(run.result.err.find("MiB"), std::string::npos) << explain(run);
}

TEST(BadInput, MissingFile) {
  const TempDir dir;
  const auto file = dir.path() / "no_such_candidate.so";
  expect_refused(run_kbv_eval(host_relu_args(file)), file.string());
}

TEST(BadInput, UnknownProblem) {
  const EvalRun run = run_kbv_eval(
      {host_candidate("relu").string(), "--problem", "no_such_problem", "--device", "host", "--shapes", "small"});
  expect_refused(run, "no_such_problem");
}

// relu.yaml without its `outputs:` entry, alone in a directory that KBV_PROBLEMS_DIR names.
TEST(BadInput, ProblemSpecMissingAField) {
  const TempDir dir;
  std::ifstream original(problems_dir() / "relu.yaml");
  ASSERT_TRUE(original) << problems_dir() / "relu.yaml";
  std::ostringstream kept;
  bool in_outputs = false, removed = false;
  for (std::string line; std::getline(original, line);) {
    // `outputs:` starts the field; its list items are indented; the next top-level key ends it.
    const bool top_level = !line.empty() && line[0] != ' ' && line[0] != '-' && line[0] != '#';
    if (top_level) in_outputs = line.rfind("outputs:", 0) == 0;
    if (in_outputs) {
      removed = true;
      continue;
    }
    kept << line << "\n";
  }
  ASSERT_TRUE(removed) << "relu.yaml has no top-level outputs: field to remove";
  const auto broken = dir.path() / "relu.yaml";
  std::ofstream(broken) << kept.str();
  const EvalRun run = run_kbv_eval(host_relu_args(host_candidate("relu")), {{"KBV_PROBLEMS_DIR", dir.path().string()}});
  expect_refused(run, broken.string(), kExitEvaluatorSetup);
  EXPECT_NE(run.result.err.find("outputs"), std::string::npos) << "stderr must name the missing field\n" << explain(run);
}

}  // namespace
}  // namespace kbv::test
