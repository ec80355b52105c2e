// tests/cli/cli_build_test.cpp — `kbv build`: an honest host example built with it passes `kbv
// eval`; the command it runs carries kbv_add_candidate()'s flags (--verbose); the CUDA path
// compiles where nvcc is (no GPU needed); a compile error is the compiler's, with exit 1; a
// library without kbv's entry point is exit 1; usage errors and a missing compiler are exit 2
// naming the fix; the SDK headers are found beside an installed kbv.
#include <gtest/gtest.h>

#include <fstream>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

namespace fs = std::filesystem;

const fs::path kExamples = KBV_TEST_EXAMPLES_DIR;

CommandResult kbv_build(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
                        const std::vector<std::string>& unset = {}, const fs::path& binary = kbv_binary()) {
  Command command;
  command.argv = {binary.string(), "build", "--problems-dir", problems_dir().string()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.env = env;
  command.unset_env = {"KBV_PROBLEMS_DIR"};
  command.unset_env.insert(command.unset_env.end(), unset.begin(), unset.end());
  command.timeout = std::chrono::minutes(4);  // nvcc on a loaded two-core machine
  return run_command(command);
}

fs::path write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// The nvcc CMake found (empty without one): the CUDA tests hand it to kbv build as $CUDACXX.
const std::string kNvcc = KBV_TEST_NVCC;

TEST(CliBuild, AnHonestHostExampleBuiltWithKbvBuildPassesKbvEval) {
  const TempDir dir;
  const fs::path library = dir.path() / "librelu_built.so";
  const CommandResult built = kbv_build({(kExamples / "host" / "relu.cpp").string(), "--problem", "relu", "-o", library.string()});
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  EXPECT_NE(built.out.find("built " + library.string() + " (problem relu, device host)"), std::string::npos) << built.out;
  const EvalRun run = run_kbv_eval({library.string(), "--problems-dir", problems_dir().string()});
  ASSERT_EQ(run.result.exit_code, 0) << explain(run);
  EXPECT_EQ(run.report["verdict"], "pass") << explain(run);
  EXPECT_EQ(run.report["candidate"]["problem"], "relu") << explain(run);
  // -frecord-gcc-switches: kbv reads how the library was built, and it was optimised.
  EXPECT_EQ(run.report["candidate"]["build"]["optimisation"], "optimised") << explain(run);
}

TEST(CliBuild, VerbosePrintsKbvAddCandidatesFlagsAndAKernelBenchReferenceNamesTheProblem) {
  const TempDir dir;
  const CommandResult built =
      kbv_build({(kExamples / "host" / "relu.cpp").string(), "--problem", "L1/19", "-o", (dir.path() / "librelu.so").string(), "--verbose"});
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  for (const char* flag : {"-std=c++20", "-O3", "-fPIC", "-shared", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-frecord-gcc-switches",
                           "-Wl,-z,defs", "'-DKBV_PROBLEM=\"relu\"'"})
    EXPECT_NE(built.out.find(std::string(" ") + flag + " "), std::string::npos) << flag << " missing from:\n" << built.out;
  EXPECT_NE(built.out.find("-I" + (fs::path(KBV_TEST_SOURCE_DIR) / "plugin-sdk" / "include").string()), std::string::npos)
      << "a build tree's kbv uses the source tree's SDK headers:\n" << built.out;
}

TEST(CliBuild, TheDefaultOutputIsLibStemDotSoInTheCurrentDirectory) {
  const TempDir dir;
  write_file(dir.path() / "my_relu.cpp", "#include <kbv/plugin.hpp>\n"
                                         "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, \"my_relu\")\n"
                                         "kbv_status kbv_candidate_run(kbv::Call&) { return KBV_STATUS_OK; }\n");
  Command command;
  command.argv = {"/bin/sh", "-c", "cd '" + dir.path().string() + "' && exec '" + kbv_binary().string() + "' build my_relu.cpp --problem relu --problems-dir '" +
                                       problems_dir().string() + "'"};
  command.timeout = std::chrono::minutes(2);
  const CommandResult built = run_command(command);
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  EXPECT_TRUE(fs::is_regular_file(dir.path() / "libmy_relu.so")) << built.out;
}

// Review: g++ reads an argument @FILE as more options from FILE when it exists: a source named
// "@k.cpp" beside a "k.cpp" holding "-wrapper /bin/sh,-c,…" ran a shell command. Such a source
// is the file itself.
TEST(CliBuild, ASourceNamedLikeAResponseFileIsReadAsASource) {
  const TempDir dir;
  const fs::path marker = dir.path() / "wrapper_ran";
  // A response file splits on white space: ${IFS} keeps the shell command one word.
  write_file(dir.path() / "k.cpp", "-wrapper\n/bin/sh,-c,touch${IFS}" + marker.string() + "\n-x\nc\n/dev/null\n");
  write_file(dir.path() / "@k.cpp", "this is not C++\n");
  Command command;
  command.argv = {"/bin/sh", "-c", "cd '" + dir.path().string() + "' && exec '" + kbv_binary().string() + "' build @k.cpp --problem relu --problems-dir '" +
                                       problems_dir().string() + "' -o libk.so"};
  command.timeout = std::chrono::minutes(2);
  const CommandResult built = run_command(command);
  EXPECT_EQ(built.exit_code, 1) << "a compile error, the source's text not being C++:\n" << built.out << built.err;
  EXPECT_FALSE(fs::exists(marker)) << "the compiler ran the file as options";
}

TEST(CliBuild, ACudaSourceCompilesForSm90WithNvcc) {
  if (kNvcc.empty()) GTEST_SKIP() << "CMake found no nvcc (the CUDA path of kbv build needs one)";
  const TempDir dir;
  const fs::path library = dir.path() / "libcuda_relu.so";
  const CommandResult built =
      kbv_build({(kExamples / "cuda" / "relu.cu").string(), "--problem", "relu", "-o", library.string(), "--verbose"}, {{"CUDACXX", kNvcc}});
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  for (const char* flag : {"-std=c++20", "-O3", "-arch=sm_90", "-shared", "-cudart=shared", "-Xcompiler=-fPIC,-fvisibility=hidden,-frecord-gcc-switches",
                           "-Xlinker=-z,defs"})
    EXPECT_NE(built.out.find(std::string(" ") + flag + " "), std::string::npos) << flag << " missing from:\n" << built.out;
  EXPECT_NE(built.out.find("device cuda"), std::string::npos) << "a .cu source is a cuda candidate:\n" << built.out;
  EXPECT_TRUE(fs::is_regular_file(library));
}

TEST(CliBuild, ACudaArchitectureOtherThanTheDefaultIsPassedOn) {
  if (kNvcc.empty()) GTEST_SKIP() << "CMake found no nvcc";
  const TempDir dir;
  const fs::path source = write_file(dir.path() / "arch.cu", "#include <kbv/plugin.hpp>\n"
                                                             "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 1000\n#error \"not sm_100\"\n#endif\n"
                                                             "__global__ void k() {}\n"
                                                             "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, \"arch\")\n"
                                                             "kbv_status kbv_candidate_run(kbv::Call&) { return KBV_STATUS_OK; }\n");
  const CommandResult built =
      kbv_build({source.string(), "--problem", "relu", "--arch", "100", "-o", (dir.path() / "libarch.so").string(), "-v"}, {{"CUDACXX", kNvcc}});
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  EXPECT_NE(built.out.find(" -arch=sm_100 "), std::string::npos) << built.out;
}

TEST(CliBuild, ACompileErrorIsTheCompilersMessageAndExitOne) {
  const TempDir dir;
  const fs::path source = write_file(dir.path() / "broken.cpp", "#include <kbv/plugin.hpp>\nint broken( {\n");
  const CommandResult built = kbv_build({source.string(), "--problem", "relu", "-o", (dir.path() / "libbroken.so").string()});
  EXPECT_EQ(built.exit_code, 1) << built.err;
  EXPECT_NE(built.err.find("broken.cpp:2"), std::string::npos) << "the compiler's own diagnostic, with the line:\n" << built.err;
  EXPECT_NE(built.err.find("kbv build: "), std::string::npos) << built.err;
  EXPECT_NE(built.err.find("failed"), std::string::npos) << built.err;
}

TEST(CliBuild, ALibraryWithoutKbvsEntryPointIsExitOne) {
  const TempDir dir;
  const fs::path source = write_file(dir.path() / "plain.cpp", "extern \"C\" __attribute__((visibility(\"default\"))) int plain() { return 1; }\n");
  const CommandResult built = kbv_build({source.string(), "--problem", "relu", "-o", (dir.path() / "libplain.so").string()});
  EXPECT_EQ(built.exit_code, 1) << built.out << built.err;
  EXPECT_NE(built.err.find("kbv_plugin_negotiate"), std::string::npos) << built.err;
}

TEST(CliBuild, UsageErrorsAreExitTwoAndNameTheFix) {
  const TempDir dir;
  const fs::path cpp = write_file(dir.path() / "c.cpp", "int x;\n");
  const fs::path cu = write_file(dir.path() / "c.cu", "int x;\n");
  const fs::path txt = write_file(dir.path() / "c.txt", "int x;\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "no source file given"},
      {{cpp.string()}, "--problem is required"},
      {{cpp.string(), "--problem", "relux"}, "unknown problem 'relux'"},
      {{(dir.path() / "missing.cpp").string(), "--problem", "relu"}, "no such file"},
      {{txt.string(), "--problem", "relu"}, "ends in .cu (CUDA) or .cpp"},
      {{cu.string(), "--problem", "relu", "--device", "host"}, "a host candidate is C++ (.cpp)"},
      {{cpp.string(), "--problem", "relu", "--device", "gpu"}, "--device must be cuda or host"},
      {{cpp.string(), "--problem", "relu", "--arch", "sm_90"}, "--arch is for --device cuda"},
      {{cu.string(), "--problem", "relu", "--arch", "hopper"}, "--arch must name a CUDA architecture"},
      // -o is checked before the compiler runs: never a compile failure, never a header overwritten.
      {{cpp.string(), "--problem", "relu", "-o", (dir.path() / "c.hpp").string()}, "ends in .so (fix: -o NAME.so)"},
      {{cpp.string(), "--problem", "relu", "-o", (dir.path() / "no" / "x.so").string()}, "does not exist (fix: create it first)"},
      {{cpp.string(), "--problem", "relu", "-o", dir.path().string() + "/"}, "ends in .so"},
  };
  for (const auto& [args, message] : cases) {
    const CommandResult built = kbv_build(args);
    EXPECT_EQ(built.exit_code, 2) << message << "\n" << built.err;
    EXPECT_NE(built.err.find(message), std::string::npos) << built.err;
  }
}

TEST(CliBuild, AMissingCompilerIsExitTwoSayingWhereItLookedAndHowToInstallOne) {
  const TempDir dir;
  const fs::path cpp = write_file(dir.path() / "c.cpp", "int x;\n");
  const CommandResult nothing = kbv_build({cpp.string(), "--problem", "relu"}, {{"PATH", (dir.path() / "empty").string()}}, {"CXX"});
  EXPECT_EQ(nothing.exit_code, 2) << nothing.err;
  EXPECT_NE(nothing.err.find("no C++ compiler: $CXX is unset and neither g++ nor c++ is on PATH"), std::string::npos) << nothing.err;
  EXPECT_NE(nothing.err.find("apt-get install g++"), std::string::npos) << nothing.err;
  const CommandResult named = kbv_build({cpp.string(), "--problem", "relu"}, {{"CXX", "/nonexistent/g++"}});
  EXPECT_EQ(named.exit_code, 2) << named.err;
  EXPECT_NE(named.err.find("$CXX names '/nonexistent/g++', which is no executable file"), std::string::npos) << named.err;
  const fs::path cu = write_file(dir.path() / "c.cu", "int x;\n");
  const CommandResult cuda = kbv_build({cu.string(), "--problem", "relu"}, {{"CUDACXX", "/nonexistent/nvcc"}});
  EXPECT_EQ(cuda.exit_code, 2) << cuda.err;
  EXPECT_NE(cuda.err.find("$CUDACXX names '/nonexistent/nvcc'"), std::string::npos) << cuda.err;
}

TEST(CliBuild, AnInstalledKbvFindsTheSdkHeadersBesideIt) {
  const TempDir prefix;
  fs::create_directories(prefix.path() / "bin");
  fs::create_directories(prefix.path() / "include");
  fs::copy_file(kbv_binary(), prefix.path() / "bin" / "kbv");
  fs::copy(fs::path(KBV_TEST_SOURCE_DIR) / "plugin-sdk" / "include" / "kbv", prefix.path() / "include" / "kbv", fs::copy_options::recursive);
  const CommandResult built = kbv_build({(kExamples / "host" / "relu.cpp").string(), "--problem", "relu", "-o", (prefix.path() / "librelu.so").string(), "-v"},
                                        {}, {}, prefix.path() / "bin" / "kbv");
  ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
  EXPECT_NE(built.out.find(" -I" + (prefix.path() / "include").string() + " "), std::string::npos) << built.out;
}

TEST(CliBuild, HelpNamesTheFlagsAndExitStatuses) {
  Command command;
  command.argv = {kbv_binary().string(), "build", "--help"};
  const CommandResult help = run_command(command);
  EXPECT_EQ(help.exit_code, 0);
  for (const char* text : {"usage: kbv build FILE.cu|FILE.cpp --problem P", "--arch", "--library", "--output", "--verbose", "Exit status: 0 built, 1 compile failure"})
    EXPECT_NE(help.out.find(text), std::string::npos) << text << " missing from:\n" << help.out;
}

}  // namespace
}  // namespace kbv::test
