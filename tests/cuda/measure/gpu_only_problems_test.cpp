// tests/cuda/measure/gpu_only_problems_test.cpp — every GPU-only problem (a whole KernelBench
// model with no small set, `gpu_only:` in its YAML) at its default shapes, the only ones it has:
// both CUDA baselines (TF32 and FP32) pass the problem's own tolerance against the device fp64
// reference graph on the same inputs. The host cannot run these graphs in test time (that is why
// they are GPU-only), so the device reference stands in for the host one here; the device
// reference itself is checked against the host on every other problem (reference_graph_test.cpp)
// and against PyTorch fp64 on these by scripts/kernelbench/validate.py.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "data/device_inputs.hpp"
#include "data/reference_graph.hpp"
#include "gpu_test_support.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/library_errors.hpp"
#include "spec/catalog.hpp"
#include "verify/compare.hpp"
#include "../../support/imported_problem_files.hpp"

namespace kbv::cuda::measure_testing {
namespace {

std::vector<std::string> gpu_only_problems() {
  // By the line scan of tests/support/imported_problem_files.hpp, which the host's
  // KernelBench/ImportedProblem tests check against the loader file by file: loading the whole
  // catalog here cost 0.25 s of every test process of this binary.
  std::vector<std::string> names;
  for (const std::filesystem::path& file : yaml_files(default_problems_directory() / kKernelBenchSubdirectory))
    if (test::declares_gpu_only(file)) names.push_back(file.stem().string());
  return names;
}

class GpuOnlyProblem : public GpuTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(GpuOnlyProblem, BothBaselinesMatchTheDeviceReferenceAtDefaultShapes) {
  const ProblemCatalog catalog = ProblemCatalog::open(default_problems_directory());
  const ResolvedProblem problem = resolve_problem(catalog.get(GetParam()), "default");
  std::vector<measure::DeviceMemory> inputs32, inputs64;
  std::vector<const float*> input_pointers;
  std::vector<const double*> wide_pointers;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    ASSERT_EQ(problem.input_dtype(i), DType::float32) << "input " << i << ": this test draws float32 inputs only";
    const size_t count = static_cast<size_t>(numel(problem.input_shapes[i]));
    inputs32.push_back(upload(random_values(count, 91 + i, problem.input_scale(i))));
    inputs64.emplace_back(count * sizeof(double), "fp64 input");
    widen_f32_to_f64(inputs32.back().as<float>(), inputs64.back().as<double>(), static_cast<int64_t>(count), nullptr);
    input_pointers.push_back(inputs32.back().as<float>());
    wide_pointers.push_back(inputs64.back().as<double>());
  }
  std::vector<measure::DeviceMemory> references;
  std::vector<double*> reference_pointers;
  for (const Shape& shape : problem.output_shapes) {
    references.emplace_back(static_cast<size_t>(numel(shape)) * sizeof(double), "fp64 reference");
    reference_pointers.push_back(references.back().as<double>());
  }
  run_reference_graph_device(problem, wide_pointers, reference_pointers, nullptr);
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<std::vector<double>> reference;
  for (size_t o = 0; o < references.size(); ++o) {
    reference.emplace_back(references[o].bytes() / sizeof(double));
    measure::check(cudaMemcpy(reference.back().data(), references[o].get(), references[o].bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    ASSERT_TRUE(std::all_of(reference.back().begin(), reference.back().end(), [](double v) { return std::isfinite(v); }))
        << "non-finite fp64 reference in output " << o;
  }
  for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
    std::vector<measure::DeviceMemory> outputs;
    std::vector<float*> output_pointers;
    for (const Shape& shape : problem.output_shapes) {
      const size_t bytes = static_cast<size_t>(numel(shape)) * sizeof(float);
      outputs.emplace_back(bytes, "baseline output");
      measure::check(cudaMemset(outputs.back().get(), 0xff, bytes), "cudaMemset");  // NaN: an unwritten element fails
      output_pointers.push_back(outputs.back().as<float>());
    }
    CudaBaseline baseline(problem, mode);
    baseline.run(input_pointers, output_pointers, nullptr);
    measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    for (size_t o = 0; o < outputs.size(); ++o) {
      const std::vector<float> result = download(outputs[o].get(), reference[o].size());
      const CompareResult compared =
          compare_output(result.data(), reference[o].data(), static_cast<int64_t>(result.size()), local_rms_row_length(problem.output_shapes[o]),
                         problem.problem.tolerance);
      std::printf("[%s %s] output %zu: %s\n", GetParam().c_str(), std::string(to_string(mode)).c_str(), o, compared.summary().c_str());
      EXPECT_TRUE(compared.passed) << to_string(mode) << ": " << compared.summary() << "\n" << baseline.describe();
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(KernelBench, GpuOnlyProblem, ::testing::ValuesIn(gpu_only_problems()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuOnlyProblem);

}  // namespace
}  // namespace kbv::cuda::measure_testing
