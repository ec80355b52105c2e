// tests/unit/candidate_build_test.cpp — the optimisation level read from recorded compile lines:
// the last -O flag wins, none means -O0, -Og counts as unoptimised, no record is "unknown"; and
// from real libraries built here with and without a record.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "eval/candidate_build.hpp"

namespace {

using kbv::eval::BuildRecord;

TEST(CandidateBuild, EffectiveFlagIsTheLastOne) {
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("GNU C++20 12.2.0 -mtune=generic -O2 -O0 -fPIC"), "-O0");
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("GNU C++20 12.2.0 -g -O0 -O3"), "-O3");
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("GNU C++20 12.2.0 -g -fPIC"), "-O0");
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("GNU C17 12.2.0 -O"), "-O1");
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("/usr/bin/clang++ -Ofast -c x.cpp"), "-Ofast");
  EXPECT_EQ(kbv::eval::effective_optimisation_flag("GNU C++20 12.2.0 -Wl,-O1"), "-O0") << "a linker option is not the compiler's level";
}

TEST(CandidateBuild, ClassifiesRecordedLines) {
  const BuildRecord optimised = kbv::eval::classify_command_lines({"GNU C++20 -O3", "GNU C++20 -O2"}, "test");
  EXPECT_EQ(optimised.optimisation, BuildRecord::Optimisation::optimised);
  EXPECT_FALSE(optimised.note().has_value());

  const BuildRecord mixed = kbv::eval::classify_command_lines({"GNU C++20 -O3", "GNU C++20 -g"}, "test");
  EXPECT_EQ(mixed.optimisation, BuildRecord::Optimisation::unoptimised);
  ASSERT_TRUE(mixed.note().has_value());
  EXPECT_NE(mixed.note()->find("1 of 2 recorded compile lines"), std::string::npos) << *mixed.note();

  EXPECT_EQ(kbv::eval::classify_command_lines({"GNU C++20 -Og"}, "test").optimisation, BuildRecord::Optimisation::unoptimised);

  const BuildRecord none = kbv::eval::classify_command_lines({}, "nothing recorded");
  EXPECT_EQ(none.optimisation, BuildRecord::Optimisation::unknown);
  EXPECT_FALSE(none.note().has_value()) << "kbv says it cannot tell, it does not guess";
  EXPECT_EQ(none.to_json()["optimisation"], "unknown");
  EXPECT_EQ(none.to_json()["source"], "nothing recorded");
}

// Builds a one-function shared library with `flags`; empty path when no g++ is here.
std::filesystem::path build_library(const std::string& name, const std::string& flags) {
  const auto dir = std::filesystem::temp_directory_path() / ("kbv-build-record-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "f.cpp") << "int f(int x) { return x + 1; }\n";
  const auto library = dir / (name + ".so");
  const std::string command = "g++ -shared -fPIC " + flags + " " + (dir / "f.cpp").string() + " -o " + library.string() + " 2>/dev/null";
  return std::system(command.c_str()) == 0 ? library : std::filesystem::path();
}

TEST(CandidateBuild, ReadsRealLibraries) {
  struct Case {
    const char* name;
    const char* flags;
    BuildRecord::Optimisation expected;
    const char* source;
  };
  for (const Case& c : {Case{"recorded_o3", "-O3 -frecord-gcc-switches", BuildRecord::Optimisation::optimised, ".GCC.command.line"},
                        Case{"recorded_o0", "-O0 -frecord-gcc-switches", BuildRecord::Optimisation::unoptimised, ".GCC.command.line"},
                        Case{"debug_info_o0", "-g", BuildRecord::Optimisation::unoptimised, "DW_AT_producer"},
                        Case{"debug_info_o2", "-g -O2", BuildRecord::Optimisation::optimised, "DW_AT_producer"},
                        Case{"no_record", "-O0", BuildRecord::Optimisation::unknown, "no compile flags recorded"}}) {
    const auto library = build_library(c.name, c.flags);
    if (library.empty()) GTEST_SKIP() << "no g++ here to build test libraries";
    const BuildRecord record = kbv::eval::read_build_record(library);
    EXPECT_EQ(record.optimisation, c.expected) << c.name << ": " << record.to_json().dump();
    EXPECT_NE(record.source.find(c.source), std::string::npos) << c.name << ": " << record.source;
  }
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("kbv-build-record-" + std::to_string(::getpid())));
}

}  // namespace
