// tests/sandbox/sandbox_fixture.hpp — a temporary tree (scratch, a readable dir, forbidden
// files) and the worker policy over it, for every sandbox test.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sandbox/sandbox.hpp"
#include "sandboxed_child.hpp"

namespace kbv::sandbox::testing {

// Open-files limit the tests set (distinct from every inherited default, so it is observable).
constexpr std::uint64_t kTestOpenFiles = 128;
constexpr const char* kSecretText = "kbv-secret-key-material";

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // worker_policy(scratch, candidate = readable/candidate.so, forbidden = secret key and
  // results dir) plus the readable dir; no CUDA devices.
  SandboxPolicy base_policy() const;

  // Whether this machine gives the sandbox a mount namespace (what covers a forbidden path
  // beneath a readable one); *why says why not.
  bool mount_namespace_available(std::string* why) const;

  std::filesystem::path root_;           // 0755 so an unprivileged uid can reach scratch
  std::filesystem::path scratch_;        // root_/scratch
  std::filesystem::path readable_;       // root_/readable (read_only)
  std::filesystem::path candidate_;      // root_/readable/candidate.so
  std::filesystem::path secret_;         // root_/secret.key (forbidden, world-readable by mode)
  std::filesystem::path results_;        // root_/results (forbidden dir with a file)
  std::filesystem::path hidden_;         // root_/readable/hidden.key (forbid it to test covering)
  std::filesystem::path outside_;        // root_/outside.txt (exists; not writable in the sandbox)
};

// A child whose sandbox could not be built for want of a kernel feature is skipped; any
// other setup failure fails the test.
#define KBV_SKIP_IF_KERNEL_LACKS(outcome)                                                        \
  do {                                                                                          \
    if ((outcome).result.rfind("SETUP_FAILED", 0) == 0 &&                                       \
        ((outcome).result.find("Operation not supported") != std::string::npos))                \
      GTEST_SKIP() << "kernel lacks a sandbox feature: " << (outcome).result;                  \
  } while (false)

// Joins report lines for assertions and messages.
std::string joined(const std::vector<std::string>& lines);

}  // namespace kbv::sandbox::testing
