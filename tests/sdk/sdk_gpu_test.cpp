// tests/sdk/sdk_gpu_test.cpp — the out-of-tree CUDA candidates (tests/sdk/out_of_tree), built as
// the README says against the SDK-only install, evaluated on the GPU: the sm_90 ReLU passes, and
// the stateful cuBLAS matmul passes with the calls_library flag, its state created once and
// destroyed after the verdict. Label gpu: skips, saying why, where no CUDA device is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "../cuda/gpu_presence.hpp"
#include "kbv_eval.hpp"
#include "out_of_tree_project.hpp"

namespace kbv::test {
namespace {

TEST(SdkGpu, OutOfTreeCudaCandidatesPassOnTheDevice) {
  if (const std::string why = kbv::cuda::testing::why_no_cuda_device(); !why.empty()) GTEST_SKIP() << why;
  const TempDir work;
  std::filesystem::path built = work.path() / "build";
  if (const char* prebuilt = std::getenv("KBV_TEST_OUT_OF_TREE_BUILD"); prebuilt != nullptr && *prebuilt != '\0') {
    built = prebuilt;
    ASSERT_TRUE(std::filesystem::is_regular_file(built / "libmy_relu_sm90.so"))
        << "KBV_TEST_OUT_OF_TREE_BUILD=" << prebuilt << " holds no libmy_relu_sm90.so (fix: make the bundle with bench/gpu/bundle.sh from a CUDA build)";
  } else {
    install_kbv(work.path() / "sdk", true);
    build_out_of_tree(work.path() / "sdk", built, {"-DWITH_CUDA=ON", "-DCMAKE_CUDA_COMPILER=" + cuda_compiler()});
  }

  const EvalRun relu = run_kbv_eval({(built / "libmy_relu_sm90.so").string(), "--device", "cuda"});
  EXPECT_EQ(relu.report.value("verdict", ""), "pass") << explain(relu);

  const EvalRun matmul = run_kbv_eval({(built / "libmy_matmul_cublas.so").string(), "--device", "cuda"});
  EXPECT_EQ(matmul.report.value("verdict", ""), "pass") << explain(matmul);
  const auto flags = matmul.report.value("flags", std::vector<std::string>{});
  EXPECT_NE(std::find(flags.begin(), flags.end(), "calls_library"), flags.end()) << explain(matmul);
}

}  // namespace
}  // namespace kbv::test
