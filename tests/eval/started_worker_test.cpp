// started_worker_test.cpp — a worker started before its candidate (eval/started_worker.hpp): kbvd's
// warm spare (`kbv eval --wait-for-candidate`) has its sandboxed worker up before the candidate's
// line arrives and evaluates with it; a spare whose worker died while waiting starts a fresh one;
// the worker loads a copy, so what the submitted file becomes after the copy changes nothing.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "eval/started_worker.hpp"
#include "kbv_eval.hpp"
#include "spec/catalog.hpp"

extern char** environ;

namespace kbv::test {
namespace {

using namespace std::chrono_literals;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The pids whose parent is `parent` and whose program is kbv-worker (/proc/PID/stat and exe).
std::vector<pid_t> worker_children(pid_t parent) {
  std::vector<pid_t> workers;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_text(entry.path() / "stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream fields(stat.substr(paren + 2));
    char state = 0;
    pid_t ppid = 0;
    fields >> state >> ppid;
    if (ppid != parent || state == 'Z') continue;
    std::error_code error;
    const auto exe = std::filesystem::read_symlink(entry.path() / "exe", error);
    if (!error && exe.filename() == "kbv-worker") workers.push_back(std::stoi(name));
  }
  return workers;
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return done();
}

// `kbv eval --json --wait-for-candidate` with a pipe on its stdin and its stdout in a file.
class Spare {
 public:
  explicit Spare(const TempDir& dir) : out_(dir.path() / "out.json") {
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const std::string kbv = kbv_binary().string();
    std::vector<std::string> args = {kbv, "eval", "--json", "--device", "host", "--key-file", test_key_file().string(), "--wait-for-candidate"};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int spawned = ::posix_spawn(&pid_, kbv.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    line_fd_ = in[1];
    if (spawned != 0) throw std::runtime_error("cannot start " + kbv);
  }
  ~Spare() {
    if (line_fd_ >= 0) ::close(line_fd_);
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  // Sends the candidate's line, waits for the evaluation and returns its report.
  nlohmann::json evaluate(const std::filesystem::path& candidate) {
    const std::string line = candidate.string() + "\t{}\n";
    EXPECT_EQ(::write(line_fd_, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    ::close(line_fd_);
    line_fd_ = -1;
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status << "\n" << read_text(out_);
    return nlohmann::json::parse(read_text(out_), nullptr, false);
  }

 private:
  std::filesystem::path out_;
  pid_t pid_ = -1;
  int line_fd_ = -1;
  bool reaped_ = false;
};

TEST(StartedWorker, ASparesWorkerIsUpBeforeItsCandidateAndEvaluatesIt) {
  TempDir dir;
  Spare spare(dir);
  ASSERT_TRUE(wait_until([&] { return !worker_children(spare.pid()).empty(); }, 30s)) << "no kbv-worker under the waiting spare";
  const nlohmann::json report = spare.evaluate(host_candidate("relu"));
  ASSERT_TRUE(report.is_object()) << report;
  EXPECT_EQ(report["verdict"], "pass") << report.dump(2);
  EXPECT_EQ(report["environment"]["worker_started_early"], true) << report["environment"].dump(2);
  EXPECT_GT(report["environment"]["worker_started_before_candidate_s"].get<double>(), 0.0);
}

TEST(StartedWorker, ASparesWorkerThatDiedWaitingIsReplacedNotBlamedOnTheCandidate) {
  TempDir dir;
  Spare spare(dir);
  std::vector<pid_t> workers;
  ASSERT_TRUE(wait_until([&] { return !(workers = worker_children(spare.pid())).empty(); }, 30s));
  for (pid_t worker : workers) ::kill(worker, SIGKILL);
  ASSERT_TRUE(wait_until([&] { return worker_children(spare.pid()).empty(); }, 10s));
  const nlohmann::json report = spare.evaluate(host_candidate("relu"));
  ASSERT_TRUE(report.is_object()) << report;
  EXPECT_EQ(report["verdict"], "pass") << report.dump(2);
  EXPECT_EQ(report["environment"]["worker_started_early"], false);
}

TEST(StartedWorker, TheWorkerLoadsACopyTheSubmittedFileCannotChange) {
  TempDir dir;
  const std::filesystem::path submitted = dir.path() / "libcandidate.so";
  std::filesystem::copy_file(host_candidate("relu"), submitted);
  eval::EvalOptions options;
  options.worker_binary = kbv_binary().parent_path() / "kbv-worker";
  options.key_file = test_key_file();
  const ProblemCatalog catalog = ProblemCatalog::open(problems_dir());
  eval::StartedWorker started(options, catalog);
  EXPECT_TRUE(started.alive());
  std::string error;
  const auto copy = started.place_candidate(submitted, &error);
  ASSERT_TRUE(copy) << error;
  EXPECT_NE(copy->parent_path(), submitted.parent_path());
  EXPECT_EQ(copy->filename(), submitted.filename());
  const std::string loaded = read_text(*copy);
  EXPECT_EQ(loaded, read_text(host_candidate("relu")));
  std::ofstream(submitted, std::ios::binary | std::ios::trunc) << "swapped after the copy";
  EXPECT_EQ(read_text(*copy), loaded) << "the copy follows the submitted file";
  // A file that cannot be copied names itself.
  EXPECT_FALSE(started.place_candidate(dir.path() / "missing.so", &error));
  EXPECT_NE(error.find("missing.so"), std::string::npos) << error;
}

}  // namespace
}  // namespace kbv::test
