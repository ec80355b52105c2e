// tests/sandbox/policy_test.cpp — policies that cannot be honoured are refused before any
// layer is applied; describe_policy, worker_policy and syscall_name say what they should.
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

using PolicyTest = SandboxTest;

// The attempt only runs if apply_sandbox did not throw.
const Attempt kUnexpected = [](const SandboxReport&) { return std::string("APPLIED"); };

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(PolicyTest, MultiThreadedProcessIsRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), kUnexpected, [] {
    std::thread([] {
      for (;;) ::pause();
    }).detach();
  });
  EXPECT_TRUE(contains(outcome.result, "SETUP_FAILED")) << outcome.result;
  EXPECT_TRUE(contains(outcome.result, "single-threaded")) << outcome.result;
}

TEST_F(PolicyTest, ForbiddenFileAlreadyOpenIsRefused) {
  const auto secret = secret_;
  const ChildOutcome outcome = run_sandboxed(base_policy(), kUnexpected, [secret] {
    (void)::open(secret.c_str(), O_RDONLY);  // leaked on purpose, as a careless parent would
  });
  EXPECT_TRUE(contains(outcome.result, "SETUP_FAILED")) << outcome.result;
  EXPECT_TRUE(contains(outcome.result, "is open on forbidden path")) << outcome.result;
}

TEST_F(PolicyTest, CudaMinimumsFromFieldNotesAreEnforced) {
  SandboxPolicy few_files = base_policy();
  few_files.allow_cuda_devices = true;
  few_files.max_open_files = 32;
  const ChildOutcome files = run_sandboxed(few_files, kUnexpected);
  EXPECT_TRUE(contains(files.result, "max_open_files 32 < 64")) << files.result;

  SandboxPolicy small_space = base_policy();
  small_space.allow_cuda_devices = true;
  small_space.max_address_space_bytes = 4ull << 30;
  const ChildOutcome space = run_sandboxed(small_space, kUnexpected);
  EXPECT_TRUE(contains(space.result, "< 64 GiB")) << space.result;

  SandboxPolicy host_only = base_policy();  // no CUDA: small limits are the caller's business
  host_only.max_open_files = 32;
  const ChildOutcome host = run_sandboxed(host_only, [](const SandboxReport&) { return std::string("APPLIED"); });
  KBV_SKIP_IF_KERNEL_LACKS(host);
  EXPECT_EQ(host.result, "APPLIED");
}

TEST_F(PolicyTest, InvalidPoliciesAreRefusedBeforeAnyChange) {
  SandboxPolicy missing_scratch = base_policy();
  missing_scratch.scratch_dir = root_ / "no-such-dir";
  SandboxPolicy forbidden_scratch = base_policy();
  forbidden_scratch.forbidden.push_back(root_);
  SandboxPolicy readable_inside_forbidden = base_policy();
  readable_inside_forbidden.read_only.push_back(results_ / "store.sqlite");
  for (const auto& [policy, reason] : {std::pair{missing_scratch, "not an existing directory"},
                                       std::pair{forbidden_scratch, "overlaps scratch_dir"},
                                       std::pair{readable_inside_forbidden, "lies inside forbidden path"}}) {
    const ChildOutcome outcome = run_sandboxed(policy, kUnexpected);
    EXPECT_TRUE(contains(outcome.result, "sandbox policy:")) << outcome.result;
    EXPECT_TRUE(contains(outcome.result, reason)) << outcome.result;
  }
}

TEST_F(PolicyTest, ValidationHappensBeforeTheFirstLayer) {
  SandboxPolicy invalid = base_policy();
  invalid.scratch_dir = root_ / "no-such-dir";
  int status_pipe[2];
  ASSERT_EQ(::pipe(status_pipe), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    const auto state_now = [] {
      return "no_new_privs=" + std::to_string(::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)) +
             " dumpable=" + std::to_string(::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
    };
    const std::string before = state_now();
    std::string state = "applied";
    try {
      apply_sandbox(invalid);
    } catch (const std::system_error&) {
      state = state_now() == before ? "unchanged" : "changed from " + before + " to " + state_now();
    }
    (void)::write(status_pipe[1], state.data(), state.size());
    ::_exit(0);
  }
  ::close(status_pipe[1]);
  char buffer[128] = {};
  const ssize_t got = ::read(status_pipe[0], buffer, sizeof buffer - 1);
  ::close(status_pipe[0]);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(std::string(buffer, got > 0 ? static_cast<size_t>(got) : 0), "unchanged");
}

TEST_F(PolicyTest, DescribePolicyNamesEveryPathAndLimit) {
  SandboxPolicy policy = base_policy();
  policy.memory_limit_bytes = 1 << 30;
  policy.violation_fd = 5;
  const std::string text = describe_policy(policy);
  for (const std::string& part : {scratch_.string(), readable_.string(), secret_.string(), results_.string(),
                                  std::string("nofile=128"), std::string("memory=1073741824"), std::string("namespaces=user,net,ipc,mount"),
                                  std::string("violation_fd=5"), std::string("cuda_devices=no")})
    EXPECT_TRUE(contains(text, part)) << part << " missing from: " << text;
}

TEST_F(PolicyTest, WorkerPolicyReadsWhatCudaNeedsOnlyForCuda) {
  const auto has = [](const SandboxPolicy& policy, const std::filesystem::path& path) {
    return std::find(policy.read_only.begin(), policy.read_only.end(), path) != policy.read_only.end();
  };
  const SandboxPolicy cuda = worker_policy(scratch_, candidate_, {secret_.string()}, true);
  const SandboxPolicy host = worker_policy(scratch_, candidate_, {secret_.string()}, false);
  EXPECT_TRUE(cuda.allow_cuda_devices);
  EXPECT_FALSE(host.allow_cuda_devices);
  for (const char* path : {"/sys", "/proc/driver/nvidia"}) {
    EXPECT_TRUE(has(cuda, path)) << path;
    EXPECT_FALSE(has(host, path)) << path;
  }
  for (const SandboxPolicy* policy : {&cuda, &host}) {
    EXPECT_TRUE(has(*policy, candidate_));
    EXPECT_TRUE(has(*policy, "/etc/ld.so.cache"));
    EXPECT_TRUE(has(*policy, "/proc/self"));
    EXPECT_EQ(policy->forbidden, std::vector<std::filesystem::path>{secret_});
    EXPECT_EQ(policy->scratch_dir, scratch_);
  }
}

TEST(SyscallNameTest, NamesReportedNumbers) {
  EXPECT_EQ(syscall_name(SYS_socket), "socket");
  EXPECT_EQ(syscall_name(SYS_ptrace), "ptrace");
  EXPECT_EQ(syscall_name(-7), "syscall -7");
}

}  // namespace
}  // namespace kbv::sandbox::testing
