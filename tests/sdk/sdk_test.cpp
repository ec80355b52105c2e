// sdk_test.cpp — install kbv to a temporary prefix, build a candidate out of tree with
// find_package(KbvSDK), and evaluate it with the installed kbv.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace {

// Runs a shell command, returning its exit status and stdout.
std::pair<int, std::string> run(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) return {-1, ""};
  std::array<char, 4096> buffer;
  while (size_t got = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), got);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(Sdk, OutOfTreeCandidateBuildsAgainstTheInstalledSdkAndPasses) {
  const auto work = std::filesystem::temp_directory_path() / ("kbv-sdk-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(work);
  const auto prefix = work / "prefix";
  ASSERT_EQ(run("cmake --install '" KBV_BUILD_DIR "' --prefix '" + prefix.string() + "' >/dev/null").first, 0);
  ASSERT_TRUE(std::filesystem::exists(prefix / "lib/cmake/KbvSDK/KbvSDKConfig.cmake"));
  ASSERT_TRUE(std::filesystem::exists(prefix / "include/kbv/plugin.h"));

  const auto build = work / "build";
  const auto configure = run("cmake -S '" KBV_OUT_OF_TREE_DIR "' -B '" + build.string() + "' -DCMAKE_PREFIX_PATH='" + prefix.string() +
                             "' -DCMAKE_BUILD_TYPE=Release >/dev/null");
  ASSERT_EQ(configure.first, 0) << "configuring the out-of-tree project failed";
  ASSERT_EQ(run("cmake --build '" + build.string() + "' >/dev/null").first, 0) << "building the out-of-tree candidate failed";
  const auto candidate = build / "libmy_relu.so";
  ASSERT_TRUE(std::filesystem::exists(candidate));

  const auto [status, output] = run("'" + (prefix / "bin/kbv").string() + "' eval '" + candidate.string() + "' --json --key-file '" +
                                    (work / "key").string() + "' --problems-dir '" + (prefix / "share/kbv/problems").string() + "'");
  const auto result = nlohmann::json::parse(output, nullptr, false);
  ASSERT_FALSE(result.is_discarded()) << output;
  EXPECT_EQ(result.value("verdict", ""), "pass") << output;
  EXPECT_EQ(status, 0);
  EXPECT_EQ(result["candidate"].value("name", ""), "my_relu");
  std::filesystem::remove_all(work);
}

}  // namespace
