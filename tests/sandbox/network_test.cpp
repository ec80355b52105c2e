// tests/sandbox/network_test.cpp — sockets: only AF_UNIX survives, and every other family is
// refused, trapped and reported on the violation fd.
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

using NetworkTest = SandboxTest;

TEST_F(NetworkTest, TcpSocketIsRefusedAndItsSyscallNumberReported) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    return outcome_of(::socket(AF_INET, SOCK_STREAM, 0));
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM");
  EXPECT_TRUE(outcome.exited) << "signal " << outcome.signal;
  ASSERT_EQ(outcome.violations.size(), 1u);
  EXPECT_EQ(outcome.violations[0], SYS_socket);
  EXPECT_EQ(syscall_name(outcome.violations[0]), "socket");
}

TEST_F(NetworkTest, EveryNonUnixFamilyIsRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    std::string results;
    for (const int family : {AF_INET6, AF_NETLINK, AF_PACKET, AF_INET}) results += outcome_of(::socket(family, SOCK_DGRAM, 0)) + " ";
    int pair[2];
    results += outcome_of(::socketpair(AF_INET, SOCK_STREAM, 0, pair));
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM EPERM EPERM EPERM EPERM");
  EXPECT_EQ(outcome.violations, (std::vector<int>{SYS_socket, SYS_socket, SYS_socket, SYS_socket, SYS_socketpair}));
}

TEST_F(NetworkTest, UnixSocketsStillWork) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    int pair[2];
    std::string results = outcome_of(::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair));
    if (results == "ok") {
      const char ping = 'p';
      char got = 0;
      results += ::write(pair[0], &ping, 1) == 1 && ::read(pair[1], &got, 1) == 1 && got == ping ? " echoed" : " silent";
    }
    const int unix_socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
    results += " " + outcome_of(unix_socket);
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "ok echoed ok");
  EXPECT_TRUE(outcome.violations.empty());
}

}  // namespace
}  // namespace kbv::sandbox::testing
