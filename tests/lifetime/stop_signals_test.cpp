// tests/lifetime/stop_signals_test.cpp — SIGINT/SIGTERM run the registered cleanups (newest
// first), then the process dies of that signal; a cleanup unregistered before is not run.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
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

// The cleanups end the worker; a main thread that sees it die holds before it reports, so a
// stopped evaluation prints no verdict caused by the stop (review: a sweep's scancel killed the
// worker and kbv eval printed "crash" before dying of the signal, and the sweep recorded it).
TEST(StopSignals, WhatTheCleanupsCauseIsNeverReported) {
  const fs::path log = fs::temp_directory_path() / ("kbv-stop-test-report-" + std::to_string(::getpid()));
  fs::remove(log);
  int ready[2], worker_death[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(worker_death), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    clean_up_on_stop_signals();
    const int death = worker_death[1];
    // As the evaluator's: kill the worker, then remove its scratch (which takes a while).
    StopCleanup end_worker([death] {
      [[maybe_unused]] auto n = ::write(death, "x", 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    });
    [[maybe_unused]] auto n = ::write(ready[1], "r", 1);
    char byte;
    n = ::read(worker_death[0], &byte, 1);  // the main thread sees its worker die…
    hold_if_stopping();                     // …and must not report it
    std::ofstream(log, std::ios::app) << "crash reported\n";
    ::_exit(3);
  }
  char byte;
  [[maybe_unused]] auto n = ::read(ready[0], &byte, 1);
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  for (int fd : {ready[0], ready[1], worker_death[0], worker_death[1]}) ::close(fd);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exited " << WEXITSTATUS(status) << " instead of dying of the signal";
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(fs::exists(log)) << read_text(log);
  fs::remove(log);
}

}  // namespace
}  // namespace kbv::lifetime
