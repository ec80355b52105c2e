// tests/sandbox/limits_test.cpp — resource limits as set, and the cgroup memory limit where
// the machine delegates a memory controller.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

using LimitsTest = SandboxTest;

std::string limit_of(int resource) {
  rlimit value{};
  if (::getrlimit(resource, &value) != 0) return errno_name();
  return std::to_string(value.rlim_cur) + "/" + std::to_string(value.rlim_max);
}

TEST_F(LimitsTest, OpenFilesLimitIsAsSet) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    std::string results = limit_of(RLIMIT_NOFILE);
    // The limit holds: fds up to it open, the next one does not.
    std::vector<int> fds;
    int fd;
    while ((fd = ::dup(0)) >= 0) fds.push_back(fd);
    results += " " + errno_name();
    for (const int open_fd : fds) ::close(open_fd);
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, std::to_string(kTestOpenFiles) + "/" + std::to_string(kTestOpenFiles) + " EMFILE");
}

TEST_F(LimitsTest, CpuFileSizeAndAddressSpaceLimitsAreAsSet) {
  SandboxPolicy policy = base_policy();
  policy.max_cpu_seconds = 30;
  policy.max_file_size_bytes = 1 << 20;
  policy.max_address_space_bytes = 8ull << 30;
  const ChildOutcome outcome = run_sandboxed(policy, [](const SandboxReport&) {
    return limit_of(RLIMIT_CPU) + " " + limit_of(RLIMIT_FSIZE) + " " + limit_of(RLIMIT_AS);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  // CPU: hard = soft + 5 s grace, so SIGXCPU arrives before SIGKILL.
  EXPECT_EQ(outcome.result, "30/35 1048576/1048576 8589934592/8589934592");
}

TEST_F(LimitsTest, InheritedLimitsStayWhenUnset) {
  SandboxPolicy policy = base_policy();
  policy.max_open_files.reset();
  const std::string inherited = limit_of(RLIMIT_NOFILE);
  const ChildOutcome outcome = run_sandboxed(policy, [](const SandboxReport&) { return limit_of(RLIMIT_NOFILE); });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, inherited);
}

TEST_F(LimitsTest, MemoryLimitThroughCgroupKillsAnOverAllocation) {
  constexpr std::uint64_t kLimit = 64ull << 20;
  constexpr size_t kAllocation = 512ull << 20;  // 8× the limit
  SandboxPolicy policy = base_policy();
  policy.memory_limit_bytes = kLimit;
  const ChildOutcome outcome = run_sandboxed(policy, [](const SandboxReport& report) {
    const std::string applied = joined(report.applied);
    if (applied.find("cgroup memory.max") == std::string::npos) return "UNAVAILABLE " + joined(report.unavailable);
    std::vector<char> block(kAllocation);
    std::memset(block.data(), 1, block.size());  // touch every page
    return std::string("allocated");
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_TRUE(remove_worker_cgroup(policy, outcome.pid));
  if (outcome.result.rfind("UNAVAILABLE", 0) == 0) {
    EXPECT_NE(outcome.result.find("cgroup memory.max"), std::string::npos) << "unavailable without a reason: " << outcome.result;
    GTEST_SKIP() << "no delegated cgroup v2 memory controller here: " << outcome.result;
  }
  EXPECT_FALSE(outcome.exited) << outcome.result;
  EXPECT_EQ(outcome.signal, SIGKILL);
}

}  // namespace
}  // namespace kbv::sandbox::testing
