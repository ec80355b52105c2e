// tests/sweep/candidate_discovery_test.cpp — finding a sweep's candidates: sidecar manifests
// (kbvd's format) and source defaults, filters, and every kind of bad input left out with an
// issue naming file, field and fix while the good candidates stay.
#include "sweep/candidate_discovery.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "sweep_test_files.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using test::TempFolder;
using test::write_text;

class Discovery_ : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_.emplace(ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR));
    host_ = fs::path(KBV_TEST_CANDIDATE_DIR) / "host";
    ASSERT_TRUE(fs::exists(host_ / "libhost_relu.so")) << "build the host example candidates";
  }
  // Copies an example candidate into `folder` as `name`.
  fs::path copy(const std::string& example, const fs::path& folder, const std::string& name) {
    fs::create_directories(folder);
    fs::copy_file(host_ / ("libhost_" + example + ".so"), folder / name, fs::copy_options::overwrite_existing);
    return folder / name;
  }
  SweepConfig config(const std::string& yaml) { return parse_sweep_config(yaml, dir_.path() / "sweep.yaml"); }
  const Issue* issue_about(const Discovery& d, const std::string& file_part) {
    for (const auto& issue : d.issues)
      if (issue.file.find(file_part) != std::string::npos) return &issue;
    return nullptr;
  }

  TempFolder dir_;
  std::optional<ProblemCatalog> catalog_;
  fs::path host_;
};

TEST_F(Discovery_, ManifestFieldsWinAndSourceDefaultsFillTheRest) {
  const auto a = copy("relu", dir_.path() / "a", "k1.so");
  copy("gelu", dir_.path() / "a", "k2.so");
  write_text(a.string() + ".yaml", "model: gpt-x\nsample_id: 17\nproblem: relu\ntags: [t1]\n");
  const auto found = discover_candidates(config("output_dir: out\ncandidates:\n  - folder: a\n    model: fallback\n    problem: gelu\n    tags: [src]\n"), *catalog_);
  ASSERT_TRUE(found.issues.empty()) << found.issues.front().text();
  ASSERT_EQ(found.candidates.size(), 2u);
  std::map<std::string, Candidate> by_name;
  for (const auto& c : found.candidates) by_name[c.name] = c;
  const auto& k1 = by_name.at("k1.so");
  EXPECT_EQ(k1.model, "gpt-x");
  EXPECT_EQ(k1.sample_id, "17");
  EXPECT_EQ(k1.problem, "relu");
  EXPECT_EQ(k1.level, 1);
  EXPECT_EQ(k1.tags, (std::vector<std::string>{"t1", "src"}));
  EXPECT_EQ(k1.source, "candidates[0]");
  EXPECT_EQ(k1.sha256.size(), 64u);
  EXPECT_EQ(k1.key(), k1.sha256 + "-relu");
  const auto& k2 = by_name.at("k2.so");
  EXPECT_EQ(k2.model, "fallback");
  EXPECT_EQ(k2.problem, "gelu");
  EXPECT_EQ(k2.tags, (std::vector<std::string>{"src"}));
}

TEST_F(Discovery_, BadInputIsLeftOutWithFileFieldAndFix) {
  const auto folder = dir_.path() / "c";
  copy("relu", folder, "good.so");
  write_text(folder / "text.so", "not an ELF file at all");
  copy("gelu", folder, "unknown_problem.so");
  write_text(folder / "unknown_problem.so.yaml", "problem: nosuchproblem\n");
  copy("softmax", folder, "bad_manifest.so");
  write_text(folder / "bad_manifest.so.yaml", "model: [not, a, scalar]\n");
  const auto found = discover_candidates(config("output_dir: out\ncandidates:\n  - folder: c\n  - folder: missing\n  - glob: 'c/*.none'\n"), *catalog_);
  ASSERT_EQ(found.candidates.size(), 1u);
  EXPECT_EQ(found.candidates[0].name, "good.so");
  ASSERT_EQ(found.issues.size(), 5u);

  const Issue* text = issue_about(found, "text.so");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->field, "(file)");
  EXPECT_EQ(text->problem, "not an ELF file");
  EXPECT_NE(text->fix.find("kbv_add_candidate"), std::string::npos);

  const Issue* unknown = issue_about(found, "unknown_problem.so.yaml");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->field, "problem");
  EXPECT_NE(unknown->problem.find("'nosuchproblem' is not a known problem"), std::string::npos);
  EXPECT_NE(unknown->fix.find("kbv problems lists all"), std::string::npos) << "the fix says where the problems are listed: " << unknown->fix;

  const Issue* manifest = issue_about(found, "bad_manifest.so.yaml");
  ASSERT_TRUE(manifest);
  EXPECT_EQ(manifest->field, "model");
  EXPECT_FALSE(manifest->fix.empty());

  const Issue* missing = issue_about(found, "sweep.yaml");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->field, "candidates[1].folder");
  EXPECT_NE(missing->problem.find("does not exist"), std::string::npos);
  bool glob_issue = false;
  for (const auto& issue : found.issues) glob_issue |= issue.field == "candidates[2].glob";
  EXPECT_TRUE(glob_issue) << "a glob that matches nothing is reported";
}

TEST_F(Discovery_, FiltersSelectByProblemLevelModelAndTag) {
  const auto folder = dir_.path() / "f";
  for (const auto& [name, problem, model, tag] : std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"relu", "relu", "m1", "x"}, {"gelu", "gelu", "m2", "y"}, {"conv2d_relu_biasadd", "conv2d_relu_biasadd", "m1", "y"}}) {
    const auto so = copy(name, folder, name + ".so");
    write_text(so.string() + ".yaml", "model: " + model + "\nproblem: " + problem + "\ntags: [" + tag + "]\n");
  }
  const auto names = [&](const std::string& filters) {
    const auto found = discover_candidates(config("output_dir: out\ncandidates: [f]\nfilters: " + filters + "\n"), *catalog_);
    std::set<std::string> out;
    for (const auto& c : found.candidates) out.insert(c.name);
    return out;
  };
  EXPECT_EQ(names("{}").size(), 3u);
  EXPECT_EQ(names("{problems: [relu, gelu]}"), (std::set<std::string>{"relu.so", "gelu.so"}));
  EXPECT_EQ(names("{levels: [2]}"), (std::set<std::string>{"conv2d_relu_biasadd.so"}));
  EXPECT_EQ(names("{models: [m1]}"), (std::set<std::string>{"relu.so", "conv2d_relu_biasadd.so"}));
  EXPECT_EQ(names("{tags: [y]}"), (std::set<std::string>{"gelu.so", "conv2d_relu_biasadd.so"}));
  EXPECT_EQ(names("{models: [m1], tags: [y]}"), (std::set<std::string>{"conv2d_relu_biasadd.so"}));
  const auto found = discover_candidates(config("output_dir: out\ncandidates: [f]\nfilters: {problems: [relu], models: [m9]}\n"), *catalog_);
  EXPECT_EQ(found.filtered_out, 3);
}

TEST_F(Discovery_, AProblemFilterCannotSelectACandidateOfUnknownProblem) {
  copy("relu", dir_.path() / "u", "anon.so");
  const auto found = discover_candidates(config("output_dir: out\ncandidates: [u]\nfilters: {problems: [relu, nosuch]}\n"), *catalog_);
  EXPECT_TRUE(found.candidates.empty());
  ASSERT_EQ(found.issues.size(), 2u);
  EXPECT_EQ(found.issues[0].field, "filters.problems") << "the unknown filter value";
  EXPECT_EQ(found.issues[1].field, "problem");
  EXPECT_NE(found.issues[1].fix.find("anon.so.yaml"), std::string::npos) << found.issues[1].fix;
  // Without such a filter it is evaluated as the problem it declares.
  const auto declared = discover_candidates(config("output_dir: out\ncandidates: [u]\n"), *catalog_);
  ASSERT_EQ(declared.candidates.size(), 1u);
  EXPECT_EQ(declared.candidates[0].problem, "");
  EXPECT_EQ(declared.candidates[0].key(), declared.candidates[0].sha256 + "-declared");
}

TEST_F(Discovery_, TheSameBytesAndProblemAreOneCandidate) {
  copy("relu", dir_.path() / "d1", "x.so");
  copy("relu", dir_.path() / "d2", "y.so");
  const auto found = discover_candidates(config("output_dir: out\ncandidates: [d1, d2]\n"), *catalog_);
  EXPECT_EQ(found.candidates.size(), 1u);
  EXPECT_EQ(found.duplicates, 1);
  EXPECT_TRUE(found.issues.empty()) << "the same bytes under no manifest at all: nothing to say";
}

// The same bytes under two models: one evaluation, and an issue naming both paths (review: a copy
// of another's candidate under one's own manifest took or gave its verdict silently).
TEST_F(Discovery_, TheSameBytesUnderTwoModelsIsSaid) {
  copy("relu", dir_.path() / "d1", "x.so");
  copy("relu", dir_.path() / "d2", "y.so");
  test::write_text(dir_.path() / "d1" / "x.so.yaml", "model: alice\n");
  test::write_text(dir_.path() / "d2" / "y.so.yaml", "model: mallory\n");
  const auto found = discover_candidates(config("output_dir: out\ncandidates: [d1, d2]\n"), *catalog_);
  EXPECT_EQ(found.candidates.size(), 1u);
  ASSERT_EQ(found.issues.size(), 1u);
  EXPECT_NE(found.issues[0].text().find("alice"), std::string::npos) << found.issues[0].text();
  EXPECT_NE(found.issues[0].text().find("mallory"), std::string::npos) << found.issues[0].text();
}

// Review: the same bytes under two models, only one manifest naming the problem, were two keys
// ("<sha>-declared" and "<sha>-relu"): both evaluated, the relu cell counted the kernel twice.
TEST_F(Discovery_, TheSameBytesDeclaredAndNamedAreOneCandidate) {
  copy("relu", dir_.path() / "d1", "x.so");
  copy("relu", dir_.path() / "d2", "y.so");
  test::write_text(dir_.path() / "d1" / "x.so.yaml", "model: m1\n");
  test::write_text(dir_.path() / "d2" / "y.so.yaml", "model: m2\nproblem: relu\n");
  const auto found = discover_candidates(config("output_dir: out\ncandidates: [d1, d2]\n"), *catalog_);
  EXPECT_EQ(found.candidates.size(), 1u);
  EXPECT_EQ(found.duplicates, 1);
  ASSERT_EQ(found.issues.size(), 1u);
  EXPECT_NE(found.issues[0].text().find("m2"), std::string::npos) << found.issues[0].text();
  EXPECT_EQ(found.candidates[0].problem, "relu") << "the named one stays, though the declared one came first";
  // The same bytes named for two different problems stay two evaluations (each is judged as its
  // own), and a declared copy joins a named one, in any order.
  copy("relu", dir_.path() / "d3", "z.so");
  test::write_text(dir_.path() / "d1" / "x.so.yaml", "model: m1\nproblem: gelu\n");
  for (const char* order : {"[d1, d2, d3]", "[d3, d1, d2]"}) {
    const auto three = discover_candidates(config(std::string("output_dir: out\ncandidates: ") + order + "\n"), *catalog_);
    EXPECT_EQ(three.candidates.size(), 2u) << order;
    EXPECT_EQ(three.duplicates, 1) << order;
  }
}

TEST(IssueFromMessage, SplitsKbvErrorTexts) {
  const auto a = issue_from_message("/x/c.so", "(file)", "c.so: not an ELF file (fix: rebuild it)", "default");
  EXPECT_EQ(a.problem, "not an ELF file");
  EXPECT_EQ(a.fix, "rebuild it");
  const auto b = issue_from_message("/x/m.yaml", "(manifest)", "/x/m.yaml: tags: must be a list; fix: write 'tags: [a]'", "default");
  EXPECT_EQ(b.problem, "tags: must be a list");
  EXPECT_EQ(b.fix, "write 'tags: [a]'");
  EXPECT_EQ(issue_from_message("f", "g", "plain", "default").fix, "default");
}

}  // namespace
}  // namespace kbv::sweep
