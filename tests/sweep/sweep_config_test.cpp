// tests/sweep/sweep_config_test.cpp — the sweep YAML: fields and defaults, errors that name
// file, line, field and fix, and a bad candidate source left out while the others stay.
#include "sweep/sweep_config.hpp"

#include <gtest/gtest.h>

namespace kbv::sweep {
namespace {

const std::filesystem::path kFile = "/etc/kbv/sweep.yaml";

std::string error_of(const std::string& yaml) {
  try {
    parse_sweep_config(yaml, kFile);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(SweepConfig, ReadsEveryField) {
  const auto c = parse_sweep_config(R"(
name: nightly
output_dir: sweeps/nightly
problems_dir: /opt/problems
mode: standalone
epoch: 12
candidates:
  - folder: incoming/a
    recursive: true
    model: model-a
    problem: relu
    tags: [night, l1]
  - glob: /srv/*/b/*.so
  - plain/folder
filters: {problems: [relu, gelu], levels: [1, 2], tags: [night], models: [model-a]}
reverify: {epochs: 2}
budget: {wall_s: 3600, evaluations: 500}
kbvd: {socket: /run/k.sock, poll_interval_s: 0.5}
standalone: {device: cuda, gpus: [0, 2], jobs: 3, timeout_s: 600, shapes: small, key_file: k.key, extra_args: [--timeout-s, "5"]}
)",
                                    kFile);
  EXPECT_EQ(c.name, "nightly");
  EXPECT_EQ(c.output_dir, "/etc/kbv/sweeps/nightly") << "relative to the file's folder";
  EXPECT_EQ(c.problems_dir, "/opt/problems");
  EXPECT_EQ(c.mode, Mode::standalone);
  ASSERT_TRUE(c.epoch.has_value());
  EXPECT_EQ(*c.epoch, 12u);
  ASSERT_EQ(c.sources.size(), 3u);
  EXPECT_EQ(c.sources[0].kind, CandidateSource::Kind::folder);
  EXPECT_EQ(c.sources[0].pattern, "/etc/kbv/incoming/a");
  EXPECT_TRUE(c.sources[0].recursive);
  EXPECT_EQ(c.sources[0].model, "model-a");
  EXPECT_EQ(c.sources[0].problem, "relu");
  EXPECT_EQ(c.sources[0].tags, (std::vector<std::string>{"night", "l1"}));
  EXPECT_EQ(c.sources[1].kind, CandidateSource::Kind::glob);
  EXPECT_EQ(c.sources[1].pattern, "/srv/*/b/*.so");
  EXPECT_EQ(c.sources[2].pattern, "/etc/kbv/plain/folder") << "a bare string is a folder";
  EXPECT_EQ(c.filters.problems, (std::vector<std::string>{"relu", "gelu"}));
  EXPECT_EQ(c.filters.levels, (std::vector<int>{1, 2}));
  EXPECT_EQ(c.filters.tags, (std::vector<std::string>{"night"}));
  EXPECT_EQ(c.filters.models, (std::vector<std::string>{"model-a"}));
  EXPECT_EQ(c.reverify_epochs, 2);
  EXPECT_EQ(c.budget.wall_s, 3600);
  EXPECT_EQ(c.budget.evaluations, 500);
  EXPECT_EQ(c.kbvd.socket, "/run/k.sock");
  EXPECT_EQ(c.kbvd.poll_interval_s, 0.5);
  EXPECT_EQ(c.standalone.device, "cuda");
  EXPECT_EQ(c.standalone.gpus, (std::vector<int>{0, 2}));
  EXPECT_EQ(c.standalone.jobs, 3);
  EXPECT_EQ(c.standalone.timeout_s, 600);
  EXPECT_EQ(c.standalone.shapes, "small");
  EXPECT_EQ(c.standalone.key_file, "/etc/kbv/k.key");
  EXPECT_EQ(c.standalone.extra_args, (std::vector<std::string>{"--timeout-s", "5"}));
  EXPECT_TRUE(c.issues.empty());
}

TEST(SweepConfig, TheShippedExampleParses) {
  const auto c = load_sweep_config(std::filesystem::path(KBV_TEST_SOURCE_DIR) / "configs" / "sweep.yaml");
  EXPECT_EQ(c.name, "nightly");
  EXPECT_EQ(c.mode, Mode::kbvd);
  EXPECT_EQ(c.sources.size(), 2u);
  EXPECT_TRUE(c.standalone.gpus.empty()) << "auto";
  EXPECT_TRUE(c.kbvd.socket.empty()) << "the default socket";
  EXPECT_TRUE(c.issues.empty());
}

TEST(SweepConfig, DefaultsAreTheDocumentedOnes) {
  const auto c = parse_sweep_config("output_dir: /tmp/out\n", kFile);
  EXPECT_EQ(c.name, "sweep");
  EXPECT_EQ(c.mode, Mode::kbvd);
  EXPECT_FALSE(c.epoch.has_value()) << "the current epoch";
  EXPECT_EQ(c.reverify_epochs, 4);
  EXPECT_EQ(c.budget.wall_s, 0);
  EXPECT_EQ(c.budget.evaluations, 0);
  EXPECT_EQ(c.standalone.device, "host");
  EXPECT_EQ(c.standalone.jobs, 1);
  EXPECT_TRUE(c.filters.empty());
  EXPECT_TRUE(c.sources.empty());
}

TEST(SweepConfig, MalformedYamlNamesFileAndLine) {
  const auto error = error_of("output_dir: /tmp\ncandidates:\n  - folder: [unclosed\n");
  EXPECT_NE(error.find("/etc/kbv/sweep.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("(syntax)"), std::string::npos) << error;
  EXPECT_NE(error.find("fix: correct the YAML syntax"), std::string::npos) << error;
}

TEST(SweepConfig, UnknownFieldNamesItAndListsTheKnownOnes) {
  const auto error = error_of("output_dir: /tmp\nfilter:\n  problems: [relu]\n");
  EXPECT_NE(error.find("/etc/kbv/sweep.yaml:2: filter: unknown field"), std::string::npos) << error;
  EXPECT_NE(error.find("filters"), std::string::npos) << "the fix lists the right name: " << error;
  const auto nested = error_of("output_dir: /tmp\nbudget: {evaluation: 3}\n");
  EXPECT_NE(nested.find("budget.evaluation: unknown field"), std::string::npos) << nested;
}

TEST(SweepConfig, WrongValuesNameFieldAndFix) {
  EXPECT_NE(error_of("candidates: []\n").find("output_dir: is missing"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nmode: fast\n").find("mode: 'fast' is not a mode; fix: use kbvd or standalone"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nepoch: soon\n").find("epoch: 'soon' is not a whole number"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nbudget: {wall_s: -1}\n").find("budget.wall_s: -1 is below the minimum 0"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nfilters: {levels: [one]}\n").find("filters.levels: 'one' is not a whole number"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {device: tpu}\n").find("standalone.device: 'tpu' is not a device"), std::string::npos);
  EXPECT_NE(error_of("name: my sweep\noutput_dir: /t\n").find("name: 'my sweep' is not a plain name"), std::string::npos);
  EXPECT_NE(error_of("").find("(document): is empty"), std::string::npos);
  // A list, or a plain value, where the file's fields belong: the document is named, not "".
  EXPECT_NE(error_of("- a\n- b\n").find("sweep.yaml:1: (document): must be a mapping of fields"), std::string::npos) << error_of("- a\n- b\n");
  EXPECT_NE(error_of("just words\n").find("(document): must be a mapping of fields"), std::string::npos);
  // Review: one GPU twice had two evaluations time each other; -1 reached kbv eval as --gpu -1.
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {gpus: [0, 0]}\n").find("GPU 0 is not a distinct ordinal"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {gpus: [-1]}\n").find("GPU -1 is not a distinct ordinal"), std::string::npos);
}

// Red-team: jobs of 2^32 wrapped to 0 and the sweep waited forever; nan disabled the timeout;
// 1e308 overflowed the deadline; a key that is a list aborted kbv; a second key was ignored.
TEST(SweepConfig, NumbersAreFiniteAndBoundedAndKeysAreWordsGivenOnce) {
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {jobs: 4294967296}\n").find("standalone.jobs: 4294967296 is above the maximum 4096"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {batch: 2147483648}\n").find("standalone.batch: 2147483648 is above the maximum"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nstandalone: {timeout_s: nan}\n").find("standalone.timeout_s: 'nan' is not a finite number"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nbudget: {wall_s: inf}\n").find("budget.wall_s: 'inf' is not a finite number"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nbudget: {wall_s: 1e308}\n").find("budget.wall_s: 1e+308 is above the maximum"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nreverify: {epochs: 99999999999}\n").find("reverify.epochs: 99999999999 is above the maximum"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\n? [a, b]\n: 1\n").find("(document): a key that is a list or a mapping"), std::string::npos);
  EXPECT_NE(error_of("output_dir: /t\nstandalone:\n  ? {x: 1}\n  : 1\n").find("standalone: a key that is a list or a mapping"), std::string::npos);
  const auto twice = error_of("output_dir: /first\noutput_dir: /second\n");
  EXPECT_NE(twice.find("/etc/kbv/sweep.yaml:2: output_dir: given twice (first at line 1)"), std::string::npos) << twice;
}

TEST(SweepConfig, ABadSourceIsLeftOutAndTheOthersStay) {
  const auto c = parse_sweep_config(R"(
output_dir: /tmp/out
candidates:
  - folder: /a
  - folder: /b
    glob: /c/*.so
  - folder: /d
    tags: {x: 1}
  - glob: /e/*.so
    recursive: true
  - folder: /f
)",
                                    kFile);
  ASSERT_EQ(c.sources.size(), 2u);
  EXPECT_EQ(c.sources[0].pattern, "/a");
  EXPECT_EQ(c.sources[1].pattern, "/f");
  ASSERT_EQ(c.issues.size(), 3u);
  EXPECT_EQ(c.issues[0].field, "candidates[1]");
  EXPECT_EQ(c.issues[0].file, "/etc/kbv/sweep.yaml:5");
  EXPECT_NE(c.issues[0].problem.find("exactly one of folder and glob"), std::string::npos);
  EXPECT_EQ(c.issues[1].field, "candidates[2].tags");
  EXPECT_EQ(c.issues[2].field, "candidates[3].recursive");
  for (const auto& issue : c.issues) EXPECT_FALSE(issue.fix.empty()) << issue.text();
}

}  // namespace
}  // namespace kbv::sweep
