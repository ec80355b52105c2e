// tests/cli/cli_problems_test.cpp — `kbv problems NAME` shows one problem in full, KernelBench's
// "L1/19" finds a problem wherever a problem is named, and a wrong reference lists the known ones.
#include <gtest/gtest.h>

#include <fstream>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

CommandResult problems(const std::vector<std::string>& args) {
  Command command;
  command.argv = {kbv_binary().string(), "problems", "--problems-dir", problems_dir().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  return run_command(command);
}

TEST(CliProblems, NameShowsTheProblemInFull) {
  const CommandResult result = problems({"conv2d_relu_biasadd"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* expected : {"inputs", "x ", "weight", "conv_bias", "outputs", "graph", "conv2d(x, weight, conv_bias)", "attributes",
                               "conv.stride", "tolerance", "shape sets", "default", "small", "level       2", "KernelBench L2/1", "GFLOP"})
    EXPECT_NE(result.out.find(expected), std::string::npos) << "missing '" << expected << "' in:\n" << result.out;
}

TEST(CliProblems, NameAsJsonCarriesEveryPart) {
  const CommandResult result = problems({"conv2d_relu_biasadd", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto problem = nlohmann::json::parse(result.out);
  EXPECT_EQ(problem["kernelbench"], "L2/1");
  EXPECT_EQ(problem["level"], 2);
  EXPECT_EQ(problem["inputs"].size(), 4u);
  EXPECT_EQ(problem["inputs"][0]["name"], "x");
  EXPECT_EQ(problem["inputs"][1]["scale"], "inv_sqrt_fan_in");
  EXPECT_EQ(problem["outputs"][0]["name"], "y");
  EXPECT_EQ(problem["attributes"]["conv.stride"], 1.0);
  for (const char* set : {"default", "small"}) {
    ASSERT_TRUE(problem["shape_sets"].contains(set)) << set;
    EXPECT_GT(problem["shape_sets"][set]["flops"].get<double>(), 0) << set;
    EXPECT_TRUE(problem["shape_sets"][set]["inputs"].contains("weight")) << set;
  }
  EXPECT_EQ(problem["shape_sets"]["default"]["outputs"]["y"], nlohmann::json::array({128, 128, 126, 126}));
}

TEST(CliProblems, KernelBenchReferenceFindsTheProblem) {
  const CommandResult result = problems({"L1/19", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["name"], "relu");
}

TEST(CliProblems, UnknownKernelBenchReferenceListsTheKnownOnes) {
  const CommandResult result = problems({"L9/999"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no problem is KernelBench L9/999"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("L1/19 relu"), std::string::npos) << result.err;
}

TEST(CliProblems, UnknownNameListsTheProblems) {
  const CommandResult result = problems({"relux"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown problem 'relux'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("relu,"), std::string::npos) << result.err;
}

TEST(CliProblems, ListShowsKernelBenchReferences) {
  const CommandResult text = problems({});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("L1/19"), std::string::npos) << text.out;
  const auto list = nlohmann::json::parse(problems({"--json"}).out);
  ASSERT_TRUE(list.is_array());
  bool found = false;
  for (const auto& entry : list) found |= entry["name"] == "relu" && entry["kernelbench"] == "L1/19";
  EXPECT_TRUE(found) << list.dump();
}

TEST(CliProblems, ExportAcceptsAKernelBenchReference) {
  const TempDir dir;
  Command command;
  command.argv = {kbv_binary().string(), "export", "--problem", "L1/19", "--out", (dir.path() / "x").string(), "--problems-dir", problems_dir().string()};
  const CommandResult result = run_command(command);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream manifest(dir.path() / "x" / "manifest.json");
  EXPECT_EQ(nlohmann::json::parse(manifest)["problem"], "relu");
}

}  // namespace
}  // namespace kbv::test
