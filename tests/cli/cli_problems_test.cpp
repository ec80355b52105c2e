// tests/cli/cli_problems_test.cpp — `kbv problems NAME` shows one problem in full (the precision
// check's inputs or why it does not run among it), KernelBench's
// "L1/19" finds a problem wherever a problem is named, a wrong reference lists the known ones,
// and --level / --source filter the list.
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

// An empty problems folder is the folder's fault, said with the fix (exit 2), not "no problem
// matches the filter".
TEST(CliProblems, AnEmptyProblemsFolderIsNamedWithTheFix) {
  const TempDir empty;
  Command command;
  command.argv = {kbv_binary().string(), "problems", "--problems-dir", empty.path().string()};
  const CommandResult result = run_command(command);
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("no problems in " + empty.path().string()), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("fix:"), std::string::npos) << result.err;

  command.argv.push_back("--json");  // the same for a script: not [] with exit 0
  const CommandResult json = run_command(command);
  EXPECT_EQ(json.exit_code, 2) << json.out << json.err;
  EXPECT_EQ(json.out, "");
  EXPECT_NE(json.err.find("no problems in " + empty.path().string()), std::string::npos) << json.err;
}

TEST(CliProblems, NameShowsTheProblemInFull) {
  const CommandResult result = problems({"conv2d_relu_biasadd"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* expected : {"inputs", "x ", "weight", "conv_bias", "outputs", "graph", "conv2d(x, weight, conv_bias)", "attributes",
                               "conv.stride", "tolerance", "shape sets", "default", "small", "level       2", "KernelBench L2/1", "GFLOP"})
    EXPECT_NE(result.out.find(expected), std::string::npos) << "missing '" << expected << "' in:\n" << result.out;
}

// Whether the precision check runs (docs/problem-spec.md, Precision check), on which inputs, or why not.
TEST(CliProblems, NameSaysWhetherThePrecisionCheckRunsAndWhyNot) {
  const CommandResult gemm = problems({"kb_l2_76_gemm_add_relu"});
  ASSERT_EQ(gemm.exit_code, 0) << gemm.err;
  EXPECT_NE(gemm.out.find("reference again with x gemm_weight rounded to bf16"), std::string::npos) << gemm.out;
  const CommandResult mlp = problems({"kb_l3_1_mlp", "--json"});
  ASSERT_EQ(mlp.exit_code, 0) << mlp.err;
  const auto check = nlohmann::json::parse(mlp.out)["precision_check"];
  EXPECT_FALSE(check["runs"].get<bool>());
  EXPECT_NE(check["why_not"].get<std::string>().find("intermediate"), std::string::npos) << check.dump();
  const CommandResult relu = problems({"relu"});
  EXPECT_NE(relu.out.find("not run: no product"), std::string::npos) << relu.out;
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
  EXPECT_EQ(problem["precision_check"]["rounded_inputs"], nlohmann::json::array({"x", "weight"}));
}

TEST(CliProblems, KernelBenchReferenceFindsTheProblem) {
  const CommandResult result = problems({"L1/19", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["name"], "relu");
}

// A curated variant carrying a KernelBench id (softmax at 65536 columns for L1/23, gemm_bias_gelu
// for the first stages of L2/99) does not make the reference ambiguous: it names KernelBench's own
// problem, the import; the variant is reached by name (the reference used to be refused).
TEST(CliProblems, AReferenceClaimedByACuratedVariantNamesKernelBenchsOwn) {
  for (const auto& [ref, own] : {std::pair{"L1/23", "kb_l1_23_softmax"}, std::pair{"L2/99", "kb_l2_99_matmul_gelu_softmax"}}) {
    const CommandResult result = problems({ref, "--json"});
    ASSERT_EQ(result.exit_code, 0) << ref << ": " << result.err;
    EXPECT_EQ(nlohmann::json::parse(result.out)["name"], own) << ref;
  }
}

TEST(CliProblems, UnknownKernelBenchReferenceNamesTheNearestOfItsLevel) {
  const CommandResult result = problems({"L1/999"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no problem is KernelBench L1/999"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the nearest are L1/"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("kbv problems lists all"), std::string::npos) << result.err;
  const CommandResult no_level = problems({"L9/1"});
  EXPECT_EQ(no_level.exit_code, 2);
  EXPECT_NE(no_level.err.find("level 9 has none"), std::string::npos) << no_level.err;
}

TEST(CliProblems, UnknownNameSuggestsTheCloseOnesNotTheWholeCatalog) {
  const CommandResult result = problems({"relux"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown problem 'relux' (fix: did you mean relu"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("kbv problems lists all"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("softmax"), std::string::npos) << "a far name is not listed: " << result.err;
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

// The names `kbv problems ARGS --json` lists, with each one's level and source.
std::vector<nlohmann::json> listed(const std::vector<std::string>& args) {
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const CommandResult result = problems(with_json);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<nlohmann::json> entries;
  for (const auto& entry : nlohmann::json::parse(result.out)) entries.push_back(entry);
  return entries;
}

TEST(CliProblems, LevelAndSourceFilterTheList) {
  const auto all = listed({});
  size_t level2 = 0, imported = 0, curated = 0, imported_level1 = 0;
  for (const auto& entry : all) {
    level2 += entry["level"] == 2;
    imported += entry["source"] == "kernelbench";
    curated += entry["source"] == "curated";
    imported_level1 += entry["source"] == "kernelbench" && entry["level"] == 1;
  }
  ASSERT_GT(level2, 0u);
  ASSERT_GT(imported, 0u);
  ASSERT_GT(curated, 0u);
  EXPECT_EQ(imported + curated, all.size());
  const auto only_level2 = listed({"--level", "2"});
  EXPECT_EQ(only_level2.size(), level2);
  for (const auto& entry : only_level2) EXPECT_EQ(entry["level"], 2) << entry.dump();
  const auto only_imported = listed({"--source", "kernelbench"});
  EXPECT_EQ(only_imported.size(), imported);
  for (const auto& entry : only_imported) {
    EXPECT_EQ(entry["source"], "kernelbench") << entry.dump();
    EXPECT_EQ(entry["name"].get<std::string>().rfind("kb_l", 0), 0u) << entry.dump();
  }
  const auto only_curated = listed({"--source", "curated"});
  EXPECT_EQ(only_curated.size(), curated);
  for (const auto& entry : only_curated) EXPECT_EQ(entry["source"], "curated") << entry.dump();
  EXPECT_EQ(listed({"--level", "1", "--source", "kernelbench"}).size(), imported_level1);
  // Text: the filtered rows only.
  const CommandResult text = problems({"--level", "2", "--source", "curated"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("conv2d_relu_biasadd"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("\nrelu "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("kb_l"), std::string::npos) << text.out;
  const CommandResult none = problems({"--level", "9"});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("no problem matches the filter"), std::string::npos) << none.out;
}

TEST(CliProblems, BadFiltersAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--level", "0"}, "--level must be a KernelBench level"},
      {{"--level", "two"}, "--level"},
      {{"--source", "kbv"}, "--source must be kernelbench or curated, got 'kbv'"},
      {{"relu", "--level", "1"}, "with NAME kbv problems shows that one problem"},
      {{"--ops", "--source", "curated"}, "not --ops"}};
  for (const auto& [args, message] : cases) {
    const CommandResult result = problems(args);
    EXPECT_EQ(result.exit_code, 2) << message;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  }
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
