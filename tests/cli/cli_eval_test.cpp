// tests/cli/cli_eval_test.cpp — `kbv eval` as a user sees it: several candidates report each
// verdict as it finishes (with a progress line when asked), a missing file is named and the
// others' verdicts stand, --verbose shows the worker's stderr, --problem takes KernelBench's
// L1/19, and the JSON carries schema_version, `*_s` times and only documented top-level fields.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

// `kbv eval ARGS --key-file K` with stderr into stdout, so the order of progress lines and
// verdicts is the order kbv wrote them in. Tests about the command line pass --no-timing: a
// verdict decided by timing checks on a loaded machine is not what they test.
CommandResult eval_interleaved(const std::string& args) {
  Command command;
  command.argv = {"/bin/sh", "-c",
                  "exec '" + kbv_binary().string() + "' eval " + args + " --key-file '" + test_key_file().string() + "' --problems-dir '" +
                      problems_dir().string() + "' 2>&1"};
  command.unset_env = {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER"};
  command.timeout = std::chrono::minutes(3);
  return run_command(command);
}

CommandResult eval_text(const std::vector<std::string>& args) {
  Command command;
  command.argv = {kbv_binary().string(), "eval", "--key-file", test_key_file().string(), "--problems-dir", problems_dir().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.unset_env = {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER"};
  command.timeout = std::chrono::minutes(3);
  return run_command(command);
}

// Where `text` first appears in `output` at or after `from`; fails the test when it does not.
size_t position(const std::string& output, const std::string& text, size_t from) {
  const size_t at = output.find(text, from);
  EXPECT_NE(at, std::string::npos) << "'" << text << "' not found after offset " << from << " in:\n" << output;
  return at == std::string::npos ? from : at;
}

TEST(CliEval, SeveralCandidatesReportEachVerdictAsItFinishes) {
  const TempDir dir;
  const std::string missing = (dir.path() / "no_such_candidate.so").string();
  const CommandResult result = eval_interleaved("'" + host_candidate("relu").string() + "' '" + missing + "' '" + host_candidate("gelu").string() +
                                                "' --progress always --no-timing");
  EXPECT_EQ(result.exit_code, 2) << "a missing file is bad input\n" << result.out;
  // Each verdict is printed before the next candidate starts.
  size_t at = position(result.out, "[1/3] evaluating libhost_relu.so", 0);
  at = position(result.out, "libhost_relu.so", at + 1);
  at = position(result.out, "pass", at);
  at = position(result.out, "[2/3] evaluating no_such_candidate.so", at);
  at = position(result.out, missing + ": no such file", at);
  at = position(result.out, "[3/3] evaluating libhost_gelu.so", at);
  at = position(result.out, "libhost_gelu.so", at + 1);
  at = position(result.out, "pass", at);
  at = position(result.out, "2 of 3 candidates passed", at);
  at = position(result.out, "1 could not be evaluated", at);
  position(result.out, missing, at);
}

TEST(CliEval, SeveralCandidatesAsJsonOneObjectEachEvenWithAMissingFile) {
  const TempDir dir;
  const std::string missing = (dir.path() / "gone.so").string();
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), missing, host_candidate("gelu").string(), "--no-timing"});
  EXPECT_EQ(run.result.exit_code, 2) << explain(run);
  std::istringstream lines(run.result.out);
  std::vector<nlohmann::json> reports;
  for (std::string line; std::getline(lines, line);) reports.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(reports.size(), 3u) << run.result.out;
  EXPECT_EQ(reports[0]["verdict"], "pass");
  EXPECT_EQ(reports[1]["candidate"]["path"], missing);
  EXPECT_NE(reports[1]["detail"].get<std::string>().find(missing), std::string::npos) << reports[1].dump();
  EXPECT_EQ(reports[2]["verdict"], "pass");
  EXPECT_NE(run.result.err.find(missing), std::string::npos) << "stderr must name the missing file\n" << run.result.err;
}

TEST(CliEval, NoProgressLineOffATerminalUnlessAsked) {
  for (const char* mode : {"", "--progress never"}) {
    const CommandResult result = eval_interleaved("'" + host_candidate("relu").string() + "' --no-timing " + mode);
    EXPECT_EQ(result.exit_code, 0) << result.out;
    EXPECT_EQ(result.out.find("evaluating"), std::string::npos) << "mode '" << mode << "':\n" << result.out;
  }
  const CommandResult wrong = eval_text({host_candidate("relu").string(), "--progress", "sometimes"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("--progress must be auto, always or never"), std::string::npos) << wrong.err;
}

TEST(CliEval, ProgressLineOnATerminal) {
  // script(1) (util-linux) runs kbv on a pseudo-terminal, as a user's shell would.
  Command which;
  which.argv = {"/bin/sh", "-c", "command -v script"};
  const CommandResult found = run_command(which);
  if (found.exit_code != 0) GTEST_SKIP() << "no script(1) to give kbv a terminal";
  Command command;
  command.argv = {found.out.substr(0, found.out.find('\n')), "-qec",
                  "'" + kbv_binary().string() + "' eval '" + host_candidate("relu").string() + "' --key-file '" + test_key_file().string() +
                      "' --problems-dir '" + problems_dir().string() + "' --no-timing",
                  "/dev/null"};
  command.unset_env = {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER"};
  command.timeout = std::chrono::minutes(3);
  const CommandResult result = run_command(command);
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  const size_t progress = position(result.out, "[1/1] evaluating libhost_relu.so", 0);
  position(result.out, "\r\033[K", progress);  // erased before the verdict
  position(result.out, "verdict    PASS", progress);
}

TEST(CliEval, UnoptimisedCandidateGetsANoteInText) {
  const CommandResult result = eval_text({KBV_TEST_UNOPTIMISED_CANDIDATE, "--no-timing"});
  EXPECT_EQ(result.exit_code, 0) << "the note never gates\n" << result.out << result.err;
  const size_t verdict = position(result.out, "verdict    PASS", 0);
  position(result.out, "note       the candidate's host code was compiled without optimisation", verdict);
}

TEST(CliEval, VerbosePrintsTheWorkersStderrUnderTheVerdict) {
  const CommandResult quiet = eval_text({KBV_TEST_STATEFUL_CANDIDATE, "--no-timing"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
  EXPECT_EQ(quiet.out.find("stateful_counter: created"), std::string::npos) << quiet.out;
  const CommandResult verbose = eval_text({KBV_TEST_STATEFUL_CANDIDATE, "--verbose", "--no-timing"});
  ASSERT_EQ(verbose.exit_code, 0) << verbose.out << verbose.err;
  const size_t verdict = position(verbose.out, "verdict    PASS", 0);
  const size_t heading = position(verbose.out, "worker stderr", verdict);
  position(verbose.out, "| candidate[1]: stateful_counter: created", heading);
  position(verbose.out, "stateful_counter: destroyed after", heading);
}

TEST(CliEval, ProblemTakesAKernelBenchReference) {
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), "--problem", "L1/19", "--no-timing"});
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_EQ(run.report["problem"].value("name", ""), "relu");
  const EvalRun unknown = run_kbv_eval({host_candidate("relu").string(), "--problem", "L7/7"});
  EXPECT_EQ(unknown.result.exit_code, 2);
  EXPECT_NE(unknown.result.err.find("no problem is KernelBench L7/7"), std::string::npos) << explain(unknown);
}

// Every key, at any depth, that names a time in another unit than seconds.
void collect_non_second_times(const nlohmann::json& value, const std::string& path, std::vector<std::string>& found) {
  if (!value.is_object()) return;
  for (const auto& [key, child] : value.items()) {
    for (const char* suffix : {"_seconds", "_ms", "_us", "_ns", "_msec", "_usec"})
      if (key.size() > std::strlen(suffix) && key.compare(key.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
        found.push_back(path + key);
    collect_non_second_times(child, path + key + ".", found);
  }
}

TEST(CliEval, JsonCarriesTheSchemaVersionAndSecondsEverywhere) {
  const EvalRun run = run_kbv_eval({host_candidate("relu").string(), "--samples"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("schema_version", 0), 2);
  EXPECT_TRUE(run.report.contains("wall_s")) << run.report.dump();
  std::vector<std::string> found;
  collect_non_second_times(run.report, "", found);
  EXPECT_TRUE(found.empty()) << "time fields not in seconds (*_s): " << ::testing::PrintToString(found);
}

TEST(CliEval, EveryTopLevelFieldIsDocumented) {
  std::ifstream file(KBV_TEST_RESULT_SCHEMA_DOC);
  ASSERT_TRUE(file) << KBV_TEST_RESULT_SCHEMA_DOC;
  const std::string doc((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const EvalRun run = run_kbv_eval({KBV_TEST_STATEFUL_CANDIDATE});  // one that writes to stderr: worker_stderr_tail too
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  for (const auto& [key, value] : run.report.items()) {
    EXPECT_NE(doc.find("`" + key), std::string::npos) << "docs/result-schema.md does not document '" << key << "'";
    if (value.is_object() && key != "environment") {
      for (const auto& [inner, unused] : value.items())
        EXPECT_NE(doc.find(inner), std::string::npos) << "docs/result-schema.md does not document '" << key << "." << inner << "'";
    }
  }
}

TEST(CliEval, RefusedRequestAsJsonCarriesTheSchemaVersion) {
  Command command;
  command.argv = {kbv_binary().string(), "eval", "--json"};
  const CommandResult result = run_command(command);
  EXPECT_EQ(result.exit_code, 2);
  const auto report = nlohmann::json::parse(result.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << result.out;
  EXPECT_EQ(report.value("schema_version", 0), 2);
  EXPECT_EQ(report.value("verdict", ""), "bad_input");
}

}  // namespace
}  // namespace kbv::test
