// tests/sandbox/unprivileged_test.cpp — the production case: a worker with an ordinary uid
// (and already non-dumpable, as kbv-worker makes itself first) still gets its own user
// namespace, and RLIMIT_NPROC then bounds its threads. Needs root to become `nobody`.
#include <grp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <fcntl.h>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

// The overflow id every Linux system has; DAC lets it read the 0644 test secret.
constexpr uid_t kNobody = 65534;
// Threads the attempt tries to start, and the task limit that must stop some of them.
constexpr int kThreadsTried = 16;
constexpr std::uint64_t kTaskLimit = 8;

using UnprivilegedTest = SandboxTest;

void become_nobody() {
  if (::setgroups(0, nullptr) != 0 || ::setresgid(kNobody, kNobody, kNobody) != 0 || ::setresuid(kNobody, kNobody, kNobody) != 0)
    throw std::runtime_error("cannot become nobody");
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // as worker/sandbox_setup.cpp does before apply_sandbox
}

void* wait_for_release(void* release_fd) {
  char byte;
  (void)::read(*static_cast<int*>(release_fd), &byte, 1);
  return nullptr;
}

TEST_F(UnprivilegedTest, OrdinaryUidGetsEveryLayerAndATaskLimit) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch the child to uid " << kNobody;
  SandboxPolicy policy = base_policy();
  policy.max_processes = kTaskLimit;
  const auto scratch = scratch_;
  const auto secret = secret_;
  const ChildOutcome outcome = run_sandboxed(policy, [=](const SandboxReport& report) {
    std::string results = "uid=" + std::to_string(::getuid());
    const int file = ::open((scratch / "mine.txt").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    results += " scratch:" + outcome_of(file);
    if (file >= 0) ::close(file);
    results += " secret:" + outcome_of(::open(secret.c_str(), O_RDONLY | O_CLOEXEC));
    results += " socket:" + outcome_of(::socket(AF_INET, SOCK_STREAM, 0));
    int release[2];
    if (::pipe(release) != 0) return std::string("no pipe");
    int started = 0, refused = 0;
    pthread_t threads[kThreadsTried];
    for (auto& thread : threads) {
      const int error = ::pthread_create(&thread, nullptr, wait_for_release, &release[0]);
      error == 0 ? ++started : ++refused;
    }
    ::close(release[1]);  // every waiting thread reads EOF and ends
    for (int i = 0; i < started; ++i) ::pthread_join(threads[i], nullptr);
    results += " started=" + std::to_string(started) + " refused=" + std::to_string(refused);
    results += "\n" + joined(report.applied) + joined(report.unavailable);
    return results;
  }, become_nobody);
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  const std::string first_line = outcome.result.substr(0, outcome.result.find('\n'));
  if (outcome.result.find("namespace: new user: unshare") != std::string::npos)
    GTEST_SKIP() << "unprivileged user namespaces are disabled here: " << outcome.result;
  EXPECT_EQ(first_line.substr(0, first_line.find(" started=")), "uid=65534 scratch:ok secret:EACCES socket:EPERM") << outcome.result;
  EXPECT_NE(outcome.result.find("(counts the tasks of this worker's user namespace)"), std::string::npos) << outcome.result;
  int started = -1, refused = -1;
  ASSERT_EQ(std::sscanf(first_line.c_str() + first_line.find(" started="), " started=%d refused=%d", &started, &refused), 2) << first_line;
  EXPECT_GT(started, 0);
  EXPECT_GT(refused, 0) << "RLIMIT_NPROC " << kTaskLimit << " did not stop " << kThreadsTried << " threads";
  EXPECT_LT(static_cast<std::uint64_t>(started), kTaskLimit);
}

}  // namespace
}  // namespace kbv::sandbox::testing
