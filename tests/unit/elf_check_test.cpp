// elf_check_test.cpp — non-ELF and truncated files are refused before anything loads them, a
// shared object for this machine (x86-64 or aarch64) is accepted and one for another is not, and
// named sections are found.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
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

// The smallest file check_shared_object() reads: a 64-bit little-endian ET_DYN header for
// `machine`, with no program or section headers.
std::filesystem::path minimal_shared_object(const std::string& name, uint16_t machine) {
  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_DYN;
  header.e_machine = machine;
  header.e_version = EV_CURRENT;
  header.e_ehsize = sizeof header;
  const auto path = temp(name);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(&header), sizeof header);
  return path;
}

TEST(ElfCheck, AcceptsThisMachinesTypeAndNamesAnother) {
#if defined(__x86_64__)
  EXPECT_EQ(kbv::eval::host_elf_machine(), EM_X86_64);
  const uint16_t other = EM_AARCH64;
#elif defined(__aarch64__)
  EXPECT_EQ(kbv::eval::host_elf_machine(), EM_AARCH64);
  const uint16_t other = EM_X86_64;
#endif
  const auto own = minimal_shared_object("own.so", kbv::eval::host_elf_machine());
  EXPECT_FALSE(kbv::eval::check_shared_object(own).has_value()) << *kbv::eval::check_shared_object(own);
  const auto foreign = minimal_shared_object("foreign.so", other);
  const auto problem = kbv::eval::check_shared_object(foreign);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("built for " + kbv::eval::elf_machine_name(other)), std::string::npos) << *problem;
  EXPECT_NE(problem->find("kbv runs on " + kbv::eval::elf_machine_name(kbv::eval::host_elf_machine())), std::string::npos) << *problem;
  std::filesystem::remove(own);
  std::filesystem::remove(foreign);
}

TEST(ElfCheck, MachineNames) {
  EXPECT_EQ(kbv::eval::elf_machine_name(EM_X86_64), "x86-64");
  EXPECT_EQ(kbv::eval::elf_machine_name(EM_AARCH64), "aarch64");
  EXPECT_EQ(kbv::eval::elf_machine_name(4242), "machine 4242");
}

TEST(ElfCheck, FindsANamedSection) {
  for (const char* libc : {"/lib/x86_64-linux-gnu/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6"}) {
    if (!std::filesystem::exists(libc)) continue;
    const auto dynstr = kbv::eval::section_contents(libc, ".dynstr");
    ASSERT_TRUE(dynstr.has_value());
    EXPECT_NE(dynstr->find("libc.so.6"), std::string::npos);
    EXPECT_FALSE(kbv::eval::section_contents(libc, ".no_such_section").has_value());
    return;
  }
  GTEST_SKIP() << "no libc.so.6 at the usual paths";
}

TEST(ElfCheck, MissingFileIsNamed) {
  const auto problem = kbv::eval::check_shared_object("/nonexistent/candidate.so");
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("/nonexistent/candidate.so: no such file"), std::string::npos) << *problem;
}

// A file that exists but is no regular file (a device, a pipe) is not called missing.
TEST(ElfCheck, ADeviceIsNamedAsNoRegularFile) {
  const auto problem = kbv::eval::check_shared_object("/dev/zero");
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("/dev/zero: not a regular file"), std::string::npos) << *problem;
}

}  // namespace
