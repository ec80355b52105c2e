// tests/cli/cli_prompt_test.cpp — `kbv prompt`: the prompt names the problem's KernelBench source,
// carries its PyTorch forward with the node's tensors and attribute values put in, its inputs
// and outputs in order with roles and shapes, attributes, tolerance, the ABI and the rules for
// the device; its example candidate builds with `kbv build` for every problem kbv has (host, one
// test each), and for a few on CUDA where nvcc is, and runs under `kbv eval` (it writes zeros,
// so it fails correctness, by design); usage errors are exit 2.
#include <gtest/gtest.h>

#include <fstream>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

namespace fs = std::filesystem;

// The nvcc CMake found (empty without one): the CUDA example is built with it as $CUDACXX.
const std::string kNvcc = KBV_TEST_NVCC;

CommandResult kbv(const std::string& command_name, const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {}) {
  Command command;
  command.argv = {kbv_binary().string(), command_name, "--problems-dir", problems_dir().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.env = env;
  command.unset_env = {"KBV_PROBLEMS_DIR"};
  command.timeout = std::chrono::minutes(4);
  return run_command(command);
}

void expect_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) EXPECT_NE(text.find(part), std::string::npos) << "missing '" << part << "' in:\n" << text;
}

// The example source between the ABI section's code fence and its end.
std::string example_source(const std::string& prompt) {
  const size_t abi = prompt.find("## The plugin ABI");
  for (const char* fence : {"```cuda\n", "```cpp\n"}) {
    const size_t start = prompt.find(fence, abi);
    if (start == std::string::npos) continue;
    const size_t body = start + std::string(fence).size();
    return prompt.substr(body, prompt.find("```\n", body) - body);
  }
  return "";
}

// Writes the prompt's example for `problem` and builds it with kbv build; returns the library.
fs::path build_example(const std::string& problem, const std::string& device, const fs::path& dir) {
  // A GPU-only problem has no small set, the host's default: its prompt quotes the default set.
  std::vector<std::string> args = {problem, "--device", device};
  if (device == "host" && is_gpu_only_problem(problem)) args.insert(args.end(), {"--shapes", "default"});
  const CommandResult prompt = kbv("prompt", args);
  EXPECT_EQ(prompt.exit_code, 0) << problem << ": " << prompt.err;
  const std::string source = example_source(prompt.out);
  EXPECT_FALSE(source.empty()) << problem << ": no example in\n" << prompt.out;
  const fs::path file = dir / (problem + (device == "cuda" ? ".cu" : ".cpp"));
  std::ofstream(file) << source;
  const fs::path library = dir / ("lib" + problem + ".so");
  const CommandResult built =
      kbv("build", {file.string(), "--problem", problem, "-o", library.string()}, device == "cuda" ? std::map<std::string, std::string>{{"CUDACXX", kNvcc}} : std::map<std::string, std::string>{});
  EXPECT_EQ(built.exit_code, 0) << problem << " (" << device << "): the example does not build\n" << built.err << "\n" << source;
  return library;
}

TEST(CliPrompt, AnImportedProblemsPromptCarriesItsSourceForwardTensorsAndRules) {
  const CommandResult result = kbv("prompt", {"L2/82"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  expect_contains(result.out, {
      "# Write a kbv candidate for `kb_l2_82_conv2d_tanh_scaling_biasadd_max` (cuda device)",
      "KernelBench level 2 problem 82 (`KernelBench/level2/82_Conv2d_Tanh_Scaling_BiasAdd_Max.py`, L2/82), imported",
      // The forward: the node's tensors and attribute values in each op's pytorch form.
      "class Model(torch.nn.Module):",
      "    def forward(self, x, conv_weight, conv_bias, bias):",
      "t0 = torch.nn.functional.conv2d(x, conv_weight, conv_bias, 1, 0, 1, 1)  # node conv2d (conv2d)",
      "t1 = torch.tanh(t0)",
      "t2 = t1 * 2  # node mul (scale)",
      "t3 = t2 + bias",
      "y = torch.nn.functional.max_pool2d(t3, 4, 4, 0, 1, False)",  // "stride or kernel" folded
      "        return y\n",
      // Tensors in order, with roles, shapes at the default set and scales.
      "| input 0 | `x` | activation | [128, 8, 256, 256] [batch_size, in_channels, height, width] | input family × 1 |",
      "| input 1 | `conv_weight` | parameter (PyTorch `conv.weight`) | [64, 8, 3, 3]",
      "(1/sqrt(fan_in))",
      "| output 0 | `y` | output | [128, 64, 63, 63] [batch_size, out_channels, y_d2, y_d3] |",
      "the problem also has `small` (",
      "| `conv2d.stride` | 1 |",
      "| `max_pool2d.kernel` | 4 |",
      "0.01·rms(ref) + 0.01·|ref|", "≤ 0.002", "1e-07 of the elements",
      // The ABI and its example, with the problem's names.
      "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, \"my_kb_l2_82_conv2d_tanh_scaling_biasadd_max\")",
      "call.input(\"conv_weight\").data<float>();  // [out_channels, in_channels, kernel_size, kernel_size] = [64, 8, 3, 3]",
      "call.attribute(\"conv2d.stride\", 1);",
      "static_cast<cudaStream_t>(call.stream())",
      "kbv build my_kb_l2_82_conv2d_tanh_scaling_biasadd_max.cu --problem kb_l2_82_conv2d_tanh_scaling_biasadd_max",
      "kbv eval libmy_kb_l2_82_conv2d_tanh_scaling_biasadd_max.so --device cuda",
      // The rules, each with the outcome kbv gives it.
      "NaN", "`input_mutation`", "new contents", "`stream_injection`", "`thread_injection`", "`phase_detection`",
      "`more_memory_than_baseline`", "64 MiB", "50 %", "**TF32 is allowed**", "*magnitude*", "*rare*", "*structure*",
      "`calls_library`", "`sandbox_violation`", "10 s"});
  // The ops' own notes: maxpool2d's stride rule.
  EXPECT_NE(result.out.find("- `maxpool2d`: stride 0 means the kernel size"), std::string::npos) << result.out;
}

TEST(CliPrompt, AHostPromptUsesTheSmallShapesAndTheHostsRules) {
  const CommandResult result = kbv("prompt", {"relu", "--device", "host"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  expect_contains(result.out, {"(host device)", "written for kbv by hand", "`KernelBench/level1/19_ReLU.py`", "y = torch.relu(x)",
                               "[16, 4096] [batch, dim]", "the `small` shape set", "in host memory", "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, \"my_relu\")",
                               "```cpp\n", "kbv eval libmy_relu.so --device host", "**float32 arithmetic throughout.**", "measures no memory",
                               "`thread_injection`"});
  for (const char* absent : {"call.stream()", "TF32 is allowed", "CUPTI", "`stream_injection`"})
    EXPECT_EQ(result.out.find(absent), std::string::npos) << "'" << absent << "' is not the host's:\n" << result.out;
}

TEST(CliPrompt, FlagAttributesBecomePythonBoolsAndShapesFollowTheOption) {
  const CommandResult sum = kbv("prompt", {"sum_dim1", "--shapes", "small"});
  ASSERT_EQ(sum.exit_code, 0) << sum.err;
  expect_contains(sum.out, {"y = torch.sum(x, dim=1, keepdim=True)", "[4, 32, 33]"});
  const CommandResult mean = kbv("prompt", {"L1/48"});
  ASSERT_EQ(mean.exit_code, 0) << mean.err;
  expect_contains(mean.out, {"y = torch.mean(x, dim=1, keepdim=False)"});
  const CommandResult layernorm = kbv("prompt", {"layernorm"});
  ASSERT_EQ(layernorm.exit_code, 0) << layernorm.err;
  expect_contains(layernorm.out, {"torch.nn.functional.layer_norm(x, x.shape[-3:], weight, bias, 1e-05)"});
}

// The forms the generated forward got wrong before (found by cli_prompt_forward_test.cpp, which
// needs torch): per-axis overrides of a convolution's scalars become PyTorch's tuple, a cat of
// more than two tensors lists them all, a negative unflatten size fixes the trailing factor, a
// slice indexes its own axis, and conditionals on attribute values print as the branch taken.
TEST(CliPrompt, GeneratedFormsAreThePythonKbvComputes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"L1/72", "torch.nn.functional.conv_transpose3d(x, conv_transpose3d_weight, None, 2, (1, 2, 3), 1, 4, 1)"},
      {"L3/6", "y = torch.cat([t0, t2, t4, t6], dim=1)"},
      {"L3/46", "torch.unflatten(t4, 0, (-1, 100))"},
      {"L3/46", "t4 = t3[(slice(None),) * (1 % t3.dim()) + (slice(0, -16, 1),)]"},
      {"L1/14", "y = torch.triu(t0, 0)"},
      {"L3/43", "t12 = t11.masked_fill(~torch.ones_like(t11, dtype=torch.bool).tril(0), float('-inf'))"}};
  for (const auto& [problem, line] : cases) {
    const CommandResult result = kbv("prompt", {problem});
    ASSERT_EQ(result.exit_code, 0) << problem << ": " << result.err;
    expect_contains(result.out, {line});
  }
}

// Two adjacent axes ("[A, …, A + C − 1]" in the descriptor) become the list torch.sum takes; no
// shipped problem sums more than one axis, so the test problem is tests/eval/problems/sum_spatial.yaml.
TEST(CliPrompt, AnAxisRangeBecomesAPythonList) {
  Command command;
  command.argv = {kbv_binary().string(), "prompt", "sum_spatial", "--problems-dir", KBV_TEST_OWN_PROBLEMS_DIR};
  command.unset_env = {"KBV_PROBLEMS_DIR"};
  const CommandResult result = run_command(command);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  expect_contains(result.out, {"y = torch.sum(x, dim=[2, 3], keepdim=True)"});
}

TEST(CliPrompt, UsageErrorsAreExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "no problem given"},
      {{"relux"}, "unknown problem 'relux'"},
      {{"relu", "--device", "gpu"}, "--device must be cuda or host"},
      {{"relu", "--shapes", "huge"}, "has no shape set 'huge' (fix: --shapes one of default, small)"},
      {{"relu", "--no-such-option"}, "--no-such-option"}};
  for (const auto& [args, message] : cases) {
    const CommandResult result = kbv("prompt", args);
    EXPECT_EQ(result.exit_code, 2) << message;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  }
}

// One test per problem (ctest runs them side by side): its host example builds.
class CliPromptExample : public testing::TestWithParam<std::string> {};

TEST_P(CliPromptExample, BuildsWithKbvBuildOnTheHost) {
  const TempDir dir;
  EXPECT_TRUE(fs::is_regular_file(build_example(GetParam(), "host", dir.path()))) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, CliPromptExample, testing::ValuesIn(problem_names()),
                         [](const testing::TestParamInfo<std::string>& param) { return param.param; });

TEST(CliPrompt, TheHostExampleRunsUnderKbvEvalAndFailsCorrectnessByDesign) {
  ASSERT_GE(problem_names().size(), 14u);
  const TempDir dir;
  // It loads, runs and writes every output (zeros): a correctness failure, not a crash or an ABI error.
  for (const char* problem : {"relu", "kb_l2_82_conv2d_tanh_scaling_biasadd_max"}) {
    const fs::path library = build_example(problem, "host", dir.path());
    const EvalRun run = run_kbv_eval({library.string(), "--problems-dir", problems_dir().string(), "--no-timing"});
    EXPECT_EQ(run.report["verdict"], "fail_correctness") << explain(run);
    EXPECT_EQ(run.report["candidate"]["problem"], problem) << explain(run);
  }
}

TEST(CliPrompt, CudaExamplesBuildWithNvcc) {
  if (kNvcc.empty()) GTEST_SKIP() << "CMake found no nvcc (the CUDA example is compiled, not run, here)";
  const TempDir dir;
  for (const char* problem : {"relu", "layernorm", "kb_l2_82_conv2d_tanh_scaling_biasadd_max"}) {
    const fs::path library = build_example(problem, "cuda", dir.path());
    EXPECT_TRUE(fs::is_regular_file(library)) << problem;
  }
}

}  // namespace
}  // namespace kbv::test
