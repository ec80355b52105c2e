// elf_check_test.cpp — non-ELF and truncated files are refused before anything loads them.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <unistd.h>

#include "eval/elf_check.hpp"

namespace {

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("kbv-elf-" + std::to_string(::getpid()) + "-" + name);
}

TEST(ElfCheck, AcceptsARealSharedObject) {
  // libc is a shared object on every machine this runs on.
  for (const char* path : {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6"})
    if (std::filesystem::exists(path)) {
      EXPECT_FALSE(kbv::eval::check_shared_object(path).has_value());
      return;
    }
  GTEST_SKIP() << "no libc.so.6 at the usual paths";
}

TEST(ElfCheck, RejectsTextWithTheFileName) {
  const auto path = temp("text.so");
  std::ofstream(path) << "definitely not a shared object\n";
  const auto problem = kbv::eval::check_shared_object(path);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find(path.string()), std::string::npos);
  EXPECT_NE(problem->find("not an ELF"), std::string::npos);
  std::filesystem::remove(path);
}

TEST(ElfCheck, RejectsATruncatedSharedObject) {
  const char* libc = "/lib/x86_64-linux-gnu/libc.so.6";
  if (!std::filesystem::exists(libc)) GTEST_SKIP() << "no libc.so.6";
  std::ifstream in(libc, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  const auto path = temp("truncated.so");
  std::ofstream(path, std::ios::binary) << head;
  const auto problem = kbv::eval::check_shared_object(path);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("truncated"), std::string::npos) << *problem;
  std::filesystem::remove(path);
}

TEST(ElfCheck, MissingFileIsNamed) {
  const auto problem = kbv::eval::check_shared_object("/nonexistent/candidate.so");
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("/nonexistent/candidate.so"), std::string::npos);
}

}  // namespace
