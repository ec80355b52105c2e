// tests/cuda/measure/baseline_problems_test.cpp — every bundled problem at its small shapes, a
// hand-built graph with a 64-input cat and a chain of layout ops, and an MLP whose ReLUs run as
// cuBLASLt epilogues: both CUDA baselines (TF32 and FP32) must pass the problem's own tolerance
// against the fp64 host graph reference, as DESIGN.md requires of a problem's baselines.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/run_graph.hpp"
#include "inputs/generate.hpp"
#include "gpu_test_support.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/library_errors.hpp"
#include "spec/catalog.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda::measure_testing {
namespace {

// `count` values of an int64 or bool input (the normal family's discrete draw), as floats.
std::vector<float> typed_values_as_float(DType dtype, int64_t count, uint32_t tensor, IntegerRange range) {
  std::vector<int64_t> integers(dtype == DType::int64 ? static_cast<size_t>(count) : 0);
  std::vector<uint8_t> flags(dtype == DType::boolean ? static_cast<size_t>(count) : 0);
  void* typed = dtype == DType::int64 ? static_cast<void*>(integers.data()) : static_cast<void*>(flags.data());
  inputs::generate_host_typed(typed, dtype, count, inputs::Family::normal, {}, 0x5eed, tensor, inputs::vector_axes(count), 1.0, range);
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t e = 0; e < values.size(); ++e)
    values[e] = dtype == DType::int64 ? static_cast<float>(integers[e]) : static_cast<float>(flags[e]);
  return values;
}

class BaselineProblemTest : public GpuTest {
 protected:
  // Both baselines of `problem` against the fp64 host graph, within the problem's tolerance.
  void expect_baselines_pass(const ResolvedProblem& problem) {
    const std::string& name = problem.problem.name;
    std::vector<std::vector<float>> host;
    std::vector<std::vector<double>> wide;
    std::vector<measure::DeviceMemory> device;
    std::vector<const float*> inputs;
    std::vector<const double*> wide_inputs;
    for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
      const int64_t count = numel(problem.input_shapes[i]);
      if (problem.input_dtype(i) == DType::float32) {
        host.push_back(random_values(static_cast<size_t>(count), 77 + i, problem.input_scale(i)));
      } else {
        // Class indices or a mask, drawn as the evaluator draws them, then widened as the
        // baselines read them: random floats would be no valid target.
        host.push_back(typed_values_as_float(problem.input_dtype(i), count, 77 + i, problem.input_ranges.at(i)));
      }
      wide.emplace_back(host.back().begin(), host.back().end());
      device.push_back(upload(host.back()));
      inputs.push_back(device.back().as<float>());
    }
    for (const auto& w : wide) wide_inputs.push_back(w.data());
    const std::vector<HostTensor<double>> reference = run_reference_f64(problem, wide_inputs);

    for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
      std::vector<measure::DeviceMemory> outputs;
      std::vector<float*> output_pointers;
      for (const Shape& shape : problem.output_shapes) {
        const size_t bytes = static_cast<size_t>(numel(shape)) * sizeof(float);
        outputs.emplace_back(bytes, "test output");
        measure::check(cudaMemset(outputs.back().get(), 0xff, bytes), "cudaMemset");
        output_pointers.push_back(outputs.back().as<float>());
      }
      CudaBaseline baseline(problem, mode);
      baseline.run(inputs, output_pointers, nullptr);
      for (size_t o = 0; o < outputs.size(); ++o) {
        const auto count = static_cast<size_t>(numel(problem.output_shapes[o]));
        const std::vector<float> result = download(outputs[o].get(), count);
        const CompareResult compared =
            compare_output(result.data(), reference[o].data.data(),
                           static_cast<int64_t>(count), local_rms_row_length(problem.output_shapes[o]), problem.problem.tolerance);
        std::printf("[%s %s] output %zu: %s\n", name.c_str(), std::string(to_string(mode)).c_str(),
                    o, compared.summary().c_str());
        EXPECT_TRUE(compared.passed) << name << " " << to_string(mode) << ": "
                                     << compared.summary() << "\n" << baseline.describe();
      }
    }
  }
};

TEST_F(BaselineProblemTest, EveryProblemPassesItsToleranceInBothModes) {
  const std::filesystem::path directory = default_problems_directory();
  if (!std::filesystem::is_directory(directory))
    GTEST_SKIP() << "no problems directory at " << directory << " (set KBV_PROBLEMS_DIR)";
  const ProblemCatalog catalog = ProblemCatalog::load(directory);
  ASSERT_FALSE(catalog.names().empty()) << "no problems in " << directory;
  for (const std::string& name : catalog.names()) {
    SCOPED_TRACE(name);
    if (!catalog.get(name).gpu_only_reason.empty()) continue;  // no small set: gpu_only_problems_test.cpp
    expect_baselines_pass(resolve_problem(catalog.get(name), "small"));
  }
}

// A forward 2-D convolution runs channels-last (NHWC, with kbv's transposes around cuDNN) or NCHW,
// whichever its two pipelines were timed faster in (cudnn_convolution.cpp), and the choice is
// remembered in the algorithm cache: each layout is forced here by rewriting that choice, and each
// must pass the problem's tolerance in both modes, the description saying which one ran. The
// problems after conv2d have an elementwise chain folded into the convolution (conv_epilogue.hpp):
// in the back-transpose when channels-last runs, one pass in place when NCHW does; per-channel
// operands (a bias, KernelBench L2 #54's multiplier) and chains of up to four ops.
TEST_F(BaselineProblemTest, ConvolutionsPassInBothLayouts) {
  const std::filesystem::path directory = default_problems_directory();
  if (!std::filesystem::is_directory(directory))
    GTEST_SKIP() << "no problems directory at " << directory << " (set KBV_PROBLEMS_DIR)";
  const ProblemCatalog catalog = ProblemCatalog::load(directory);
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / ("kbv-layout-cache-" + std::to_string(::getpid()) + ".json");
  const char* before = std::getenv("KBV_ALGORITHM_CACHE");
  const std::string kept = before ? before : "";
  ::setenv("KBV_ALGORITHM_CACHE", cache.c_str(), 1);
  for (const std::string name : {"conv2d_relu_biasadd", "conv2d", "kb_l2_54_conv2d_multiply_leakyrelu_gelu", "kb_l2_31_conv2d_min_add_multiply",
                                  "kb_l2_4_conv2d_mish_mish"}) {
    SCOPED_TRACE(name);
    const ResolvedProblem problem = resolve_problem(catalog.get(name), "small");
    std::filesystem::remove(cache);  // this problem's choices alone
    { const CudaBaseline chooses(problem, MathMode::tf32), chooses_fp32(problem, MathMode::fp32); }  // fills the cache
    for (const int layout : {1, 0}) {
      nlohmann::json document = nlohmann::json::parse(std::ifstream(cache));
      int layouts = 0;
      for (auto& [key, choice] : document["entries"].items())
        if (key.ends_with(" layout") || key.ends_with(" layout with epilogue")) choice["algorithm"] = layout, ++layouts;
      ASSERT_EQ(layouts, 2) << "one layout choice per mode:\n" << document.dump(1);
      std::ofstream(cache) << document.dump();
      for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
        const std::string described = CudaBaseline(problem, mode).describe();
        EXPECT_EQ(described.find("channels-last (NHWC)") != std::string::npos, layout == 1) << described;
        EXPECT_NE(described.find("(cached layout choice)"), std::string::npos) << described;
        if (name != "conv2d") {
          EXPECT_NE(described.find(layout == 1 ? "the elementwise chain (" : "kbv fused elementwise kernel ("), std::string::npos) << described;
        }
      }
      expect_baselines_pass(problem);
    }
  }
  std::filesystem::remove(cache);
  if (before) ::setenv("KBV_ALGORITHM_CACHE", kept.c_str(), 1);
  else ::unsetenv("KBV_ALGORITHM_CACHE");
}

// The evaluator runs and times the FP32 baseline only when it is another program than the TF32
// one (eval/cuda_data_plane.cpp, same_baselines_). Graphs of kbv kernels alone are one program;
// any cuBLAS, cuBLASLt or cuDNN node, or a step that chose by the mode, makes them two.
TEST_F(BaselineProblemTest, BaselinesDependOnTheMathModeExactlyWhenALibraryNodeIsInThem) {
  const std::filesystem::path directory = default_problems_directory();
  if (!std::filesystem::is_directory(directory))
    GTEST_SKIP() << "no problems directory at " << directory << " (set KBV_PROBLEMS_DIR)";
  const ProblemCatalog catalog = ProblemCatalog::load(directory);
  for (const auto& [name, depends] : std::vector<std::pair<std::string, bool>>{{"relu", false},
                                                                               {"softmax", false},
                                                                               {"layernorm", false},
                                                                               {"cross_entropy", false},
                                                                               {"maxpool2d", false},
                                                                               {"matmul_square", true},
                                                                               {"bmm", true},
                                                                               {"gemm_bias_gelu", true},
                                                                               {"conv2d_relu_biasadd", true}}) {
    SCOPED_TRACE(name);
    const ResolvedProblem problem = resolve_problem(catalog.get(name), "small");
    const CudaBaseline tf32(problem, MathMode::tf32), fp32(problem, MathMode::fp32);
    EXPECT_EQ(tf32.depends_on_math_mode(), depends) << tf32.describe();
    EXPECT_EQ(fp32.depends_on_math_mode(), depends) << fp32.describe();
    if (!depends) {
      EXPECT_EQ(tf32.describe(), fp32.describe());
    }
    EXPECT_EQ(tf32.math_mode(), MathMode::tf32);
    EXPECT_EQ(tf32.depends_on_math_mode(), depends) << "reading math_mode() must not count as a decision by the mode";
  }
}

// 64 intermediates live at once (64 buffer slots) and read by one cat, the most inputs it takes
// (a DenseNet block's), then ShuffleNet's channel shuffle (unflatten, transpose, flatten).
TEST_F(BaselineProblemTest, AWideCatOfIntermediatesAndAChannelShufflePassInBothModes) {
  Problem spec;
  spec.name = "wide_cat_and_shuffle";
  TensorDecl x, y;
  x.name = "x";
  x.dims = {"2", "3", "4", "5"};
  y.name = "y";
  y.dims = {"2", "192", "4", "5"};
  spec.inputs.push_back(x);
  spec.outputs.push_back(y);
  std::vector<std::string> scaled;
  for (int i = 0; i < 64; ++i) {
    scaled.push_back("s" + std::to_string(i));
    spec.graph.push_back({"scale" + std::to_string(i), "scale", {"x"}, scaled.back(),
                          {{"value", 0.5 + i}}});
  }
  spec.graph.push_back({"join", "cat", scaled, "joined", {{"axis", 1}}});
  spec.graph.push_back({"groups", "unflatten", {"joined"}, "grouped", {{"axis", 1}, {"size", 8}}});
  spec.graph.push_back({"swap", "transpose", {"grouped"}, "swapped", {{"axis0", 1}, {"axis1", 2}}});
  spec.graph.push_back(
      {"merge", "flatten", {"swapped"}, "y", {{"start_axis", 1}, {"end_axis", 2}}});
  spec.tolerance = {1e-4, 1e-4, 1e-5};  // the exact class's (docs/problem-spec.md)
  spec.shape_sets["small"] = {};
  expect_baselines_pass(resolve_problem(spec, "small"));
}

// Two layers whose ReLUs are folded into the GEMMs (measure/baseline/gemm_scale_fold.hpp): with a
// bias and a halving after the ReLU (RELU_BIAS, alpha 0.5), and without a bias (RELU). Each
// layer is one cuBLASLt call; no elementwise pass is left.
TEST_F(BaselineProblemTest, LinearReluLayersRunAsEpiloguesAndPassInBothModes) {
  Problem spec;
  spec.name = "mlp_relu_epilogues";
  const auto tensor = [](const char* name, std::vector<std::string> dims) {
    TensorDecl t;
    t.name = name;
    t.dims = std::move(dims);
    return t;
  };
  spec.inputs = {tensor("x", {"64", "96"}), tensor("w1", {"80", "96"}), tensor("b1", {"80"}), tensor("w2", {"48", "80"})};
  spec.outputs = {tensor("y", {"64", "48"})};
  spec.graph.push_back({"fc1", "linear", {"x", "w1", "b1"}, "h1", {}});
  spec.graph.push_back({"act1", "relu", {"h1"}, "a1", {}});
  spec.graph.push_back({"half", "scale", {"a1"}, "s1", {{"value", 0.5}}});
  spec.graph.push_back({"fc2", "linear", {"s1", "w2"}, "h2", {}});
  spec.graph.push_back({"act2", "relu", {"h2"}, "y", {}});
  spec.tolerance = {1e-2, 1e-2, 2e-3};  // matmul_scale_residual's (a TF32 GEMM's)
  spec.shape_sets["small"] = {};
  const ResolvedProblem problem = resolve_problem(spec, "small");
  const std::string described = CudaBaseline(problem, MathMode::tf32).describe();
  EXPECT_NE(described.find("epilogue=RELU_BIAS"), std::string::npos) << described;
  EXPECT_NE(described.find("epilogue=RELU (a ReLU folded in)"), std::string::npos) << described;
  EXPECT_NE(described.find("alpha=0.5"), std::string::npos) << described;
  EXPECT_EQ(described.find("elementwise"), std::string::npos) << "no pass after either GEMM:\n" << described;
  expect_baselines_pass(problem);
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
