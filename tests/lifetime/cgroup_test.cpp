// tests/lifetime/cgroup_test.cpp — a cgroup kills everything in it, including a process that
// left its process group and session; a group whose owner died is swept with what it held.
// Skipped, with the reason, where this process may not make cgroup v2 groups.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <thread>

#include "lifetime/cgroup.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

bool gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  return close == std::string::npos || line.substr(close + 2, 1) == "Z";
}

bool eventually_gone(pid_t pid) {
  for (int i = 0; i < 250; ++i) {
    if (gone(pid)) return true;
    std::this_thread::sleep_for(20ms);
  }
  return gone(pid);
}

// The parent for test groups, or a skip.
std::optional<fs::path> test_parent(std::string* why) {
  const auto own = own_cgroup(why);
  if (!own) return std::nullopt;
  auto probe = OwnedCgroup::create(*own, "kbv-lifetime-test-probe-" + std::to_string(::getpid()), why);
  if (!probe) return std::nullopt;
  return own;
}

// Forks a process that joins `group`, then forks an escapee (setsid: a new session and process
// group) that execs a sleep, as every real child execs (exec drops the owner's close-on-exec
// lock); returns the escapee's pid. The first process exits.
pid_t escapee_in(const fs::path& group) {
  int report[2];
  if (::pipe(report) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    if (move_to_cgroup(group, 0) != 0) ::_exit(1);
    const pid_t escapee = ::fork();
    if (escapee == 0) {
      ::setsid();
      ::execl("/bin/sleep", "sleep", "120", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    [[maybe_unused]] auto n = ::write(report[1], &escapee, sizeof escapee);
    ::_exit(0);
  }
  pid_t escapee = -1;
  [[maybe_unused]] auto n = ::read(report[0], &escapee, sizeof escapee);
  ::close(report[0]);
  ::close(report[1]);
  ::waitpid(child, nullptr, 0);
  // Until it has exec'ed, the escapee holds a copy of its owner's lock descriptor.
  for (int i = 0; i < 500; ++i) {
    std::ifstream comm("/proc/" + std::to_string(escapee) + "/comm");
    std::string name;
    if (std::getline(comm, name) && name == "sleep") break;
    std::this_thread::sleep_for(10ms);
  }
  return escapee;
}

TEST(Cgroup, KillingTheGroupEndsAProcessThatLeftItsSession) {
  std::string why;
  const auto parent = test_parent(&why);
  if (!parent) GTEST_SKIP() << "cgroup v2 is not writable here: " << why;
  auto group = OwnedCgroup::create(*parent, "kbv-lifetime-test-" + std::to_string(::getpid()), &why);
  ASSERT_TRUE(group) << why;
  const pid_t escapee = escapee_in(group->path());
  ASSERT_GT(escapee, 0);
  EXPECT_TRUE(group->populated());
  EXPECT_EQ(count_cgroup_processes(group->path()), 1);
  const fs::path path = group->path();
  group.reset();  // kills, waits, removes
  EXPECT_TRUE(eventually_gone(escapee));
  EXPECT_FALSE(fs::exists(path));
}

TEST(Cgroup, AGroupWhoseOwnerDiedIsSweptWithWhatItHeld) {
  std::string why;
  const auto parent = test_parent(&why);
  if (!parent) GTEST_SKIP() << "cgroup v2 is not writable here: " << why;
  const std::string prefix = "kbv-lifetime-sweep-" + std::to_string(::getpid()) + "-";
  int report[2];
  ASSERT_EQ(::pipe(report), 0);
  // The owner makes a group, puts an escapee in it and is killed.
  const pid_t owner = ::fork();
  if (owner == 0) {
    std::string child_why;
    auto group = OwnedCgroup::create(*parent, prefix + "dead", &child_why);
    pid_t escapee = group ? escapee_in(group->path()) : -1;
    [[maybe_unused]] auto n = ::write(report[1], &escapee, sizeof escapee);
    for (;;) ::pause();
  }
  pid_t escapee = -1;
  [[maybe_unused]] auto n = ::read(report[0], &escapee, sizeof escapee);
  ::close(report[0]);
  ::close(report[1]);
  ASSERT_GT(escapee, 0);
  auto live = OwnedCgroup::create(*parent, prefix + "live", &why);
  ASSERT_TRUE(live) << why;
  EXPECT_EQ(sweep_abandoned_cgroups(*parent, prefix), 0) << "the owner still lives: nothing is swept";
  EXPECT_FALSE(gone(escapee));
  ::kill(owner, SIGKILL);
  ::waitpid(owner, nullptr, 0);
  EXPECT_EQ(sweep_abandoned_cgroups(*parent, prefix), 1) << "the escapee outlived its owner";
  EXPECT_TRUE(eventually_gone(escapee));
  EXPECT_FALSE(fs::exists(*parent / (prefix + "dead")));
  EXPECT_TRUE(fs::exists(live->path())) << "a live owner's group stays";
  kill_and_remove_cgroup(*parent / (prefix + "dead"));  // whatever the outcome, nothing is left
}

}  // namespace
}  // namespace kbv::lifetime
