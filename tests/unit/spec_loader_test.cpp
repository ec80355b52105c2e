// spec_loader_test.cpp — problem YAML errors name the file, the field and the fix.
#include <gtest/gtest.h>

#include <fstream>

#include "spec/catalog.hpp"
#include "spec/problem.hpp"

namespace {

class SpecLoaderTest : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("kbv-spec-" + std::to_string(::getpid()) + "-" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

const char* kGoodRelu = R"(name: relu
level: 1
inputs:
  - {name: x, shape: [batch, dim], role: activation}
outputs:
  - {name: y, shape: [batch, dim]}
graph:
  - {name: relu, op: relu, inputs: [x], output: y}
shapes:
  default: {batch: 4, dim: 8}
  small: {batch: 2, dim: 3}
)";

// Expects load_problem_file to throw a SpecError whose text holds every fragment.
void expect_error(const std::filesystem::path& path, std::initializer_list<std::string> fragments) {
  try {
    kbv::load_problem_file(path);
    FAIL() << "expected a SpecError for " << path;
  } catch (const kbv::SpecError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find(path.string()), std::string::npos) << text;
    EXPECT_NE(text.find("fix:"), std::string::npos) << text;
    for (const auto& fragment : fragments) EXPECT_NE(text.find(fragment), std::string::npos) << "missing '" << fragment << "' in: " << text;
  }
}

TEST_F(SpecLoaderTest, LoadsAGoodSpecAndResolvesShapes) {
  const auto problem = kbv::load_problem_file(write("relu.yaml", kGoodRelu));
  EXPECT_EQ(problem.name, "relu");
  const auto resolved = kbv::resolve_problem(problem, "small");
  EXPECT_EQ(resolved.input_shapes.at(0), (kbv::Shape{2, 3}));
  EXPECT_EQ(resolved.output_shapes.at(0), (kbv::Shape{2, 3}));
  EXPECT_DOUBLE_EQ(resolved.compulsory_bytes, 2 * 6 * 4.0);
  EXPECT_GT(problem.tolerance.rel_l2, 0.0);  // defaults from the op's precision class
}

TEST_F(SpecLoaderTest, MissingFieldNamesTheField) {
  std::string text = kGoodRelu;
  text.erase(text.find("outputs:"), text.find("graph:") - text.find("outputs:"));
  expect_error(write("relu.yaml", text), {"'outputs'", "missing"});
}

TEST_F(SpecLoaderTest, UnknownOpListsTheKnownOnes) {
  std::string text = kGoodRelu;
  text.replace(text.find("op: relu"), 8, "op: frobnicate");
  expect_error(write("relu.yaml", text), {"graph[0].op", "frobnicate", "relu"});
}

TEST_F(SpecLoaderTest, UndefinedSymbolNamesTheShapeSet) {
  std::string text = kGoodRelu;
  text.replace(text.find("small: {batch: 2, dim: 3}"), 25, "small: {batch: 2}");
  expect_error(write("relu.yaml", text), {"dim", "small"});
}

TEST_F(SpecLoaderTest, WrongDeclaredOutputShapeIsCaught) {
  std::string text = kGoodRelu;
  text.replace(text.find("{name: y, shape: [batch, dim]}"), 30, "{name: y, shape: [dim, batch]}");
  expect_error(write("relu.yaml", text), {"outputs[0].shape", "graph produces"});
}

TEST_F(SpecLoaderTest, UnknownAttributeIsRejected) {
  std::string text = kGoodRelu;
  text.replace(text.find("output: y}"), 10, "output: y, attrs: {stride: 2}}");
  expect_error(write("relu.yaml", text), {"attrs.stride", "no attribute"});
}

TEST_F(SpecLoaderTest, SyntaxErrorGivesTheLine) {
  expect_error(write("broken.yaml", "name: [unclosed\n"), {"line"});
}

TEST_F(SpecLoaderTest, TensorUsedBeforeItIsProduced) {
  std::string text = kGoodRelu;
  text.replace(text.find("inputs: [x], output"), 11, "inputs: [t9]");
  expect_error(write("relu.yaml", text), {"t9", "earlier node"});
}

TEST_F(SpecLoaderTest, CatalogRejectsUnknownProblemWithTheKnownNames) {
  write("relu.yaml", kGoodRelu);
  const auto catalog = kbv::ProblemCatalog::load(dir_);
  EXPECT_TRUE(catalog.contains("relu"));
  try {
    catalog.get("nope");
    FAIL();
  } catch (const kbv::SpecError& error) {
    EXPECT_NE(std::string(error.what()).find("relu"), std::string::npos);
  }
}

TEST_F(SpecLoaderTest, CatalogRequiresFileNameToMatchProblemName) {
  write("other.yaml", kGoodRelu);
  EXPECT_THROW(kbv::ProblemCatalog::load(dir_), kbv::SpecError);
}

TEST(BundledProblems, AllLoadAndResolveBothShapeSets) {
  const auto catalog = kbv::ProblemCatalog::load(KBV_PROBLEMS_DIR);
  EXPECT_GE(catalog.names().size(), 12u);
  for (const auto& name : catalog.names())
    for (const char* set : {"default", "small"}) {
      const auto resolved = kbv::resolve_problem(catalog.get(name), set);
      EXPECT_GT(resolved.flops, 0) << name << " " << set;
      EXPECT_GT(resolved.compulsory_bytes, 0) << name << " " << set;
    }
}

}  // namespace
