// Tests for evaluator child processes: output collection, exit status, signals, process
// groups, exec failures and stdin hand-over.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <sstream>

#include "harness.hpp"
#include "sched/child.hpp"
#include "sched/evaluator_cgroups.hpp"

namespace kbv::kbvd {
namespace {
using test::TempDir;

struct ChildRun {
  boost::asio::io_context io;
  std::optional<ChildResult> result;
  std::shared_ptr<Child> child;

  void start(const std::vector<std::string>& argv, bool with_stdin = false,
             std::optional<lifetime::OwnedCgroup> cgroup = std::nullopt) {
    child = Child::spawn(io, argv, with_stdin, [this](const ChildResult& r) { result = r; }, std::move(cgroup));
  }
  void run_for(std::chrono::milliseconds limit) { io.run_for(limit); }
};

TEST(Child, CollectsOutputAndExitCode) {
  ChildRun r;
  r.start({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->exit_code, 3);
  EXPECT_EQ(r.result->out, "out\n");
  EXPECT_EQ(r.result->err, "err\n");
}

// A batch's evaluator writes each candidate's stderr before its verdict line: what the outcome of
// the candidate in flight quotes is only what came after the last line, never an earlier
// candidate's text (another submitter's path or error).
TEST(Child, StderrBeforeALineBelongsToThatLine) {
  ChildRun r;
  std::vector<std::string> lines;
  r.start({"/bin/sh", "-c", "echo 'kbv eval: first candidate' >&2; echo '{\"verdict\":\"pass\"}'; sleep 0.2; echo 'kbv eval: second' >&2; exit 2"});
  r.child->set_on_line([&](const std::string& line) { lines.push_back(line); });
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  EXPECT_EQ(lines, std::vector<std::string>{"{\"verdict\":\"pass\"}"});
  EXPECT_EQ(r.result->err, "kbv eval: second\n");
  EXPECT_EQ(r.result->exit_code, 2);
}

TEST(Child, ReportsTheSignal) {
  ChildRun r;
  r.start({"/bin/sh", "-c", "kill -SEGV $$"});
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  EXPECT_FALSE(r.result->exit_code);
  EXPECT_EQ(r.result->term_signal, SIGSEGV);
}

TEST(Child, KillGroupEndsGrandchildrenToo) {
  TempDir dir;
  const auto marker = dir.path() / "grandchild.pid";
  ChildRun r;
  r.start({"/bin/sh", "-c", "sleep 30 & echo $! > " + marker.string() + "; wait"});
  ASSERT_TRUE(test::wait_until([&] { return std::filesystem::exists(marker); }, std::chrono::seconds(5)));
  r.io.run_for(std::chrono::milliseconds(50));
  r.child->kill_group(SIGKILL);
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->term_signal, SIGKILL);
  const auto grandchild = std::stoi(test::read_file(marker));
  EXPECT_TRUE(test::wait_until([&] { return test::process_gone(grandchild); }, std::chrono::seconds(5)))
      << "the sleep in the evaluator's group survived";
}

TEST(Child, LeftoversAreKilledWhenTheLeaderExits) {
  TempDir dir;
  const auto marker = dir.path() / "left.pid";
  ChildRun r;
  // The leader exits at once, leaving a background child holding stdout open.
  r.start({"/bin/sh", "-c", "sleep 30 & echo $! > " + marker.string() + "; exit 0"});
  r.run_for(std::chrono::seconds(4));
  ASSERT_TRUE(r.result) << "finished without waiting the 5 s EOF grace: the group was killed";
  const auto left = std::stoi(test::read_file(marker));
  EXPECT_TRUE(test::wait_until([&] { return test::process_gone(left); }, std::chrono::seconds(5)));
}

TEST(Child, ExecFailureIsAnError) {
  boost::asio::io_context io;
  EXPECT_THROW(Child::spawn(io, {"/nonexistent/kbv", "eval"}, false, nullptr), SpawnError);
}

TEST(Child, LineOnStdin) {
  ChildRun r;
  r.start({"/bin/sh", "-c", "read -r line; echo \"got $line\""}, true);
  EXPECT_TRUE(r.child->send_line_and_close("hello\n"));
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->out, "got hello\n");
}

TEST(Child, HasItsOwnProcessGroupAndNoInheritedFds) {
  ChildRun r;
  // `exec ls /proc/self/fd`: the listing of the evaluator's own descriptors (plus the one ls
  // reads the folder with), without a pipe of the shell's own in it.
  r.start({"/bin/sh", "-c", "cut -d' ' -f5 /proc/$$/stat; exec ls /proc/self/fd"});
  r.run_for(std::chrono::seconds(5));
  ASSERT_TRUE(r.result);
  std::istringstream out(r.result->out);
  int pgid = 0, fds = 0;
  out >> pgid;
  for (std::string fd; out >> fd;) ++fds;
  EXPECT_EQ(pgid, r.child->pid());
  EXPECT_LE(fds, 4) << "stdin, stdout, stderr (+ the fd ls uses): " << r.result->out;
}

// In its own cgroup, a child and what it starts end together even when a grandchild left the
// process group and session (setsid): what kill -9 of kbvd's recovery and the timeout rely on.
TEST(Child, ItsCgroupEndsAnEscapedGrandchild) {
  auto cgroups = EvaluatorCgroups::probe();
  if (!cgroups.enabled()) GTEST_SKIP() << "cgroup v2 is not writable here: " << cgroups.why_off();
  TempDir dir;
  const auto marker = dir.path() / "escapee.pid";
  ChildRun r;
  auto group = cgroups.make();
  ASSERT_TRUE(group);
  const auto path = group->path();
  r.start({"/bin/sh", "-c", "cat /proc/self/cgroup > " + (dir.path() / "cg").string() +
                                 "; setsid sleep 60 & echo $! > " + marker.string() + "; exit 0"},
          false, std::move(group));
  ASSERT_TRUE(test::wait_until([&] { return std::filesystem::exists(marker); }, std::chrono::seconds(5)));
  r.run_for(std::chrono::seconds(6));
  ASSERT_TRUE(r.result) << "done once the cgroup is empty";
  EXPECT_NE(test::read_file(dir.path() / "cg").find(path.filename().string()), std::string::npos)
      << "the child joined its group before exec";
  const auto escapee = std::stoi(test::read_file(marker));
  EXPECT_TRUE(test::wait_until([&] { return test::process_gone(escapee); }, std::chrono::seconds(5)));
  EXPECT_FALSE(std::filesystem::exists(path)) << "the group is removed once empty";
}

}  // namespace
}  // namespace kbv::kbvd
