// tests/sdk/sdk_test.cpp — an author's first hour, out of tree: install kbv and the SDK-only
// component, build tests/sdk/out_of_tree with nothing but the README's instructions (no build
// type, no CUDA architecture), check that the candidates came out optimised, for sm_90 and in
// C++20, and evaluate them with the installed kbv. Also the README's one-line builds without
// CMake.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "eval/candidate_build.hpp"
#include "kbv_eval.hpp"
#include "out_of_tree_project.hpp"

namespace kbv::test {
namespace {

namespace fs = std::filesystem;

// One installation of each kind and one out-of-tree build for the whole binary: each takes
// seconds to minutes on a loaded machine.
class Sdk : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    work_ = std::make_unique<TempDir>();
    install_kbv(full_prefix(), false);
    install_kbv(sdk_prefix(), true);
    // Against the SDK-only install: an author's machine needs nothing else to build.
    build_out_of_tree(sdk_prefix(), host_build(), {});
  }
  static void TearDownTestSuite() { work_.reset(); }

  static fs::path full_prefix() { return work_->path() / "kbv"; }
  static fs::path sdk_prefix() { return work_->path() / "sdk"; }
  static fs::path host_build() { return work_->path() / "build-host"; }
  static fs::path work() { return work_->path(); }

  // The installed kbv, with nothing from the caller's environment steering it.
  static CommandResult installed_kbv(const std::vector<std::string>& args) {
    Command command;
    command.argv = {(full_prefix() / "bin" / "kbv").string()};
    command.argv.insert(command.argv.end(), args.begin(), args.end());
    command.unset_env = {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER"};
    command.timeout = std::chrono::minutes(3);
    return run_command(command);
  }

  // Correctness only: timing is not what these tests are about, and a loaded machine can flake it.
  static nlohmann::json eval_json(const fs::path& candidate) {
    const CommandResult result = installed_kbv({"eval", candidate.string(), "--json", "--no-timing", "--key-file", test_key_file().string()});
    const auto report = nlohmann::json::parse(result.out, nullptr, false);
    if (!report.is_object()) ADD_FAILURE() << "kbv eval printed no JSON object (exit " << result.exit_code << "):\n" << result.out << result.err;
    return report;
  }

 private:
  static inline std::unique_ptr<TempDir> work_;
};

TEST_F(Sdk, SdkComponentInstallsOnlyHeadersAndThePackage) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(sdk_prefix()))
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), sdk_prefix()).string());
  for (const char* expected : {"include/kbv/plugin.h", "include/kbv/plugin.hpp", "lib/cmake/KbvSDK/KbvSDKConfig.cmake",
                               "lib/cmake/KbvSDK/KbvSDKConfigVersion.cmake", "lib/cmake/KbvSDK/KbvSDKCandidate.cmake",
                               "lib/cmake/KbvSDK/KbvSDKTargets.cmake"})
    EXPECT_TRUE(fs::exists(sdk_prefix() / expected)) << expected;
  for (const auto& file : files)
    EXPECT_TRUE(file.rfind("include/kbv/", 0) == 0 || file.rfind("lib/cmake/KbvSDK/", 0) == 0) << "the sdk component installed " << file;
  EXPECT_FALSE(fs::exists(sdk_prefix() / "bin")) << "the sdk component must not install kbv's binaries";
}

TEST_F(Sdk, HostCandidatesAreOptimisedWithoutABuildType) {
  for (const char* source : {"my_relu.cpp", "my_matmul_packed.cpp"}) {
    const std::string command = compile_command(host_build(), source);
    EXPECT_NE(command.find(" -O3"), std::string::npos) << source << ": " << command;
    EXPECT_NE(command.find("-frecord-gcc-switches"), std::string::npos) << source << ": " << command;
  }
  for (const char* library : {"libmy_relu.so", "libmy_matmul_packed.so"}) {
    const eval::BuildRecord record = eval::read_build_record(host_build() / library);
    EXPECT_EQ(record.optimisation, eval::BuildRecord::Optimisation::optimised) << library << ": " << record.to_json().dump();
  }
}

TEST_F(Sdk, OutOfTreeCandidatesPassWithTheInstalledKbv) {
  const nlohmann::json relu = eval_json(host_build() / "libmy_relu.so");
  EXPECT_EQ(relu.value("verdict", ""), "pass") << relu.dump(2);
  EXPECT_EQ(relu["candidate"].value("name", ""), "my_relu");
  EXPECT_EQ(relu["candidate"]["build"].value("optimisation", ""), "optimised") << relu.dump(2);

  // The stateful form: one object from create() to destroy(), and its log lines reach the result.
  const nlohmann::json matmul = eval_json(host_build() / "libmy_matmul_packed.so");
  EXPECT_EQ(matmul.value("verdict", ""), "pass") << matmul.dump(2);
  const std::string log = matmul.value("worker_stderr_tail", "");
  EXPECT_NE(log.find("my_matmul_packed: state created"), std::string::npos) << log;
  EXPECT_NE(log.find("my_matmul_packed: state destroyed after "), std::string::npos) << "destroy() must run after the verdict\n" << log;
  EXPECT_EQ(log.find("destroyed after 0 calls"), std::string::npos) << log;
}

TEST_F(Sdk, InstalledKbvFindsItsInstalledProblemsFirst) {
  const CommandResult result = installed_kbv({"problems", "relu", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto problem = nlohmann::json::parse(result.out, nullptr, false);
  ASSERT_TRUE(problem.is_object()) << result.out;
  const fs::path file = problem.value("file", "");
  EXPECT_EQ(file.parent_path(), full_prefix() / "share" / "kbv" / "problems")
      << "an installed kbv must read the problems installed with it, not the source tree's (" << KBV_TEST_PROBLEMS_DIR << ")";
}

TEST_F(Sdk, DebugBuildIsReportedUnoptimisedWithoutGating) {
  const fs::path build = work() / "build-debug";
  build_out_of_tree(sdk_prefix(), build, {"-DCMAKE_BUILD_TYPE=Debug"});
  EXPECT_EQ(compile_command(build, "my_relu.cpp").find("-O3"), std::string::npos) << "an explicit build type is respected";
  const nlohmann::json report = eval_json(build / "libmy_relu.so");
  EXPECT_EQ(report.value("verdict", ""), "pass") << "the note never gates\n" << report.dump(2);
  const nlohmann::json& built = report["candidate"]["build"];
  EXPECT_EQ(built.value("optimisation", ""), "unoptimised") << built.dump();
  EXPECT_NE(built.value("note", "").find("without optimisation"), std::string::npos) << built.dump();
}

// README.md, "Write and evaluate a candidate": the one-line host build without CMake.
TEST_F(Sdk, OneLineHostBuildWithoutCMake) {
  const fs::path library = work() / "libmy_relu_oneline.so";
  Command compile;
  compile.argv = {"/bin/sh", "-c",
                  "g++ -std=c++20 -O3 -fPIC -shared -fvisibility=hidden -frecord-gcc-switches -Wl,-z,defs -I" + (sdk_prefix() / "include").string() +
                      " -DKBV_PROBLEM='\"relu\"' " + KBV_OUT_OF_TREE_DIR + "/my_relu.cpp -o " + library.string()};
  compile.timeout = std::chrono::minutes(5);
  const CommandResult built = run_command(compile);
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const nlohmann::json report = eval_json(library);
  EXPECT_EQ(report.value("verdict", ""), "pass") << report.dump(2);
  EXPECT_EQ(report["candidate"].value("problem", ""), "relu");
  EXPECT_EQ(report["candidate"]["build"].value("optimisation", ""), "optimised");
}

TEST_F(Sdk, CudaCandidatesBuildForSm90AndCxx20WithoutBeingTold) {
  if (cuda_compiler().empty()) GTEST_SKIP() << "kbv was configured without nvcc: the CUDA out-of-tree build is not tried";
  const fs::path build = work() / "build-cuda";
  // WITH_CUDA only switches on the project's enable_language(CUDA); no architecture is given.
  build_out_of_tree(sdk_prefix(), build, {"-DWITH_CUDA=ON", "-DCMAKE_CUDA_COMPILER=" + cuda_compiler()});
  for (const char* source : {"my_relu_sm90.cu", "my_matmul_cublas.cu"}) {
    const std::string command = compile_command(build, source);
    EXPECT_NE(command.find("-std=c++20"), std::string::npos) << source << ": " << command;
    EXPECT_NE(command.find("-O3"), std::string::npos) << source << ": " << command;
    std::set<std::string> architectures;
    const std::regex architecture(R"((compute|sm)_([0-9]+a?))");
    for (auto it = std::sregex_iterator(command.begin(), command.end(), architecture); it != std::sregex_iterator(); ++it)
      architectures.insert((*it)[2]);
    EXPECT_EQ(architectures, (std::set<std::string>{"90"})) << source << ": " << command;
  }
  // my_relu_sm90.cu also refuses (#error) to compile below sm_90 and uses a C++20 concept.
  for (const char* library : {"libmy_relu_sm90.so", "libmy_matmul_cublas.so"}) {
    EXPECT_EQ(embedded_sm_versions(build / library), (std::set<int>{90})) << library;
    if (const std::string listed = cuobjdump_list_elf(build / library); !listed.empty()) {
      EXPECT_NE(listed.find("sm_90"), std::string::npos) << listed;
    } else {
      std::cout << "[ note ] cuobjdump is not on PATH: the architectures were read from the cubins' ELF headers only\n";
    }
  }
}

// README.md, "Write and evaluate a candidate": the one-line CUDA build without CMake.
TEST_F(Sdk, OneLineCudaBuildWithoutCMake) {
  if (cuda_compiler().empty()) GTEST_SKIP() << "kbv was configured without nvcc";
  const fs::path library = work() / "libmy_relu_sm90_oneline.so";
  Command compile;
  compile.argv = {"/bin/sh", "-c",
                  cuda_compiler() + " -std=c++20 -O3 -arch=sm_90 -shared -cudart=shared -Xcompiler=-fPIC,-fvisibility=hidden,-frecord-gcc-switches" +
                      " -Xlinker=-z,defs -I" + (sdk_prefix() / "include").string() + " -DKBV_PROBLEM='\"relu\"' " + KBV_OUT_OF_TREE_DIR +
                      "/my_relu_sm90.cu -o " + library.string()};
  compile.timeout = std::chrono::minutes(5);
  const CommandResult built = run_command(compile);
  ASSERT_EQ(built.exit_code, 0) << built.err;
  EXPECT_EQ(embedded_sm_versions(library), (std::set<int>{90}));
}

}  // namespace
}  // namespace kbv::test
