// tests/lifetime/stop_signals_test.cpp — SIGINT/SIGTERM run the registered cleanups (newest
// first), then the process dies of that signal; a cleanup unregistered before is not run.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "lifetime/stop_signals.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Forks a process that registers cleanups appending to `log`, signals it, returns its status.
int stopped_by(int sig, const fs::path& log) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    clean_up_on_stop_signals();
    StopCleanup first([log] { std::ofstream(log, std::ios::app) << "first\n"; });
    std::optional<StopCleanup> gone;
    gone.emplace([log] { std::ofstream(log, std::ios::app) << "unregistered\n"; });
    gone.reset();
    StopCleanup second([log] { std::ofstream(log, std::ios::app) << "second\n"; });
    std::thread([] { ::pause(); }).detach();  // a later thread must not take the signal
    [[maybe_unused]] auto n = ::write(ready[1], "r", 1);
    for (;;) ::pause();
  }
  char byte;
  [[maybe_unused]] auto n = ::read(ready[0], &byte, 1);
  ::close(ready[0]);
  ::close(ready[1]);
  ::kill(child, sig);
  int status = 0;
  ::waitpid(child, &status, 0);
  return status;
}

TEST(StopSignals, SigtermRunsCleanupsNewestFirstThenKills) {
  const fs::path log = fs::temp_directory_path() / ("kbv-stop-test-" + std::to_string(::getpid()));
  fs::remove(log);
  const int status = stopped_by(SIGTERM, log);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM) << "the shell must see 143, as if nobody had caught it";
  EXPECT_EQ(read_text(log), "second\nfirst\n");
  fs::remove(log);
}

TEST(StopSignals, SigintToo) {
  const fs::path log = fs::temp_directory_path() / ("kbv-stop-test-int-" + std::to_string(::getpid()));
  fs::remove(log);
  const int status = stopped_by(SIGINT, log);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_EQ(read_text(log), "second\nfirst\n");
  fs::remove(log);
}

}  // namespace
}  // namespace kbv::lifetime
