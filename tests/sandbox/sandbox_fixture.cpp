// tests/sandbox/sandbox_fixture.cpp — build and remove the temporary tree.
#include "sandbox_fixture.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace kbv::sandbox::testing {
namespace {

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), 0644);
}

}  // namespace

void SandboxTest::SetUp() {
  char pattern[] = "/tmp/kbv-sandbox-test-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  root_ = pattern;
  ::chmod(root_.c_str(), 0755);
  scratch_ = root_ / "scratch";
  readable_ = root_ / "readable";
  candidate_ = readable_ / "candidate.so";
  secret_ = root_ / "secret.key";
  results_ = root_ / "results";
  hidden_ = readable_ / "hidden.key";
  outside_ = root_ / "outside.txt";
  std::filesystem::create_directories(scratch_);
  std::filesystem::create_directories(readable_);
  std::filesystem::create_directories(results_);
  ::chmod(scratch_.c_str(), 0777);
  write_text(candidate_, "not really a shared object");
  write_text(secret_, kSecretText);
  write_text(results_ / "store.sqlite", kSecretText);
  write_text(hidden_, kSecretText);
  write_text(outside_, "outside");
}

void SandboxTest::TearDown() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

SandboxPolicy SandboxTest::base_policy() const {
  SandboxPolicy policy = worker_policy(scratch_, candidate_, {secret_.string(), results_.string()}, false);
  policy.read_only.push_back(readable_);
  policy.max_open_files = kTestOpenFiles;
  return policy;
}

bool SandboxTest::mount_namespace_available(std::string* why) const {
  const ChildOutcome probe = run_sandboxed(base_policy(), [](const SandboxReport& report) { return joined(report.unavailable); });
  *why = probe.result;
  return probe.result.rfind("SETUP_FAILED", 0) != 0 && probe.result.find("namespace: new mount") == std::string::npos;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

}  // namespace kbv::sandbox::testing
