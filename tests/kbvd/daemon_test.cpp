// End-to-end tests of the kbvd binary with the fake evaluator: verdicts, identity, warm
// spares, manifests, control commands, reload, draining, back-pressure and start-up errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <sstream>
#include <thread>
#include <cstring>

#include "client/control_client.hpp"
#include "harness.hpp"

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
using nlohmann::json;
using test::KbvdProcess;
using test::TempDir;
namespace fs = std::filesystem;

std::map<std::string, json> by_name(const json& rows) {
  std::map<std::string, json> out;
  for (const auto& r : rows) out[r["name"].get<std::string>()] = r;
  return out;
}

TEST(Kbvd, EveryVerdictPathEndToEnd) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "evaluator:\n  command: " KBVD_FAKE_EVALUATOR "\n  timeout_s: 2\n");
  kbvd.start();
  const std::map<std::string, std::string> expected = {
      {"pass.so", "pass"},        {"fail.so", "fail_correctness"}, {"crash.so", "crash"},
      {"hang.so", "timeout"},     {"badinput.so", "bad_input"},    {"garbage.so", "crash"},
      {"hack.so", "hack_suspected"}};
  for (const auto& [name, verdict] : expected) {
    std::string marker = name.substr(0, name.size() - 3);
    if (marker == "hack") marker = "hack:input_mutation";
    kbvd.drop(name, "\x7f" "ELF KBV_FAKE:" + marker + "\n");
  }
  ASSERT_TRUE(kbvd.wait_done(expected.size(), 30s)) << test::read_file(kbvd.log_file());
  const auto rows = by_name(kbvd.results());
  for (const auto& [name, verdict] : expected) {
    EXPECT_EQ(rows.at(name)["evaluation"]["verdict"], verdict) << name;
    EXPECT_EQ(rows.at(name)["evaluation"]["device"], "host") << name;
  }
  EXPECT_EQ(rows.at("hack.so")["evaluation"]["hack_pattern"], "input_mutation");
  EXPECT_NE(rows.at("badinput.so")["evaluation"]["detail"].get<std::string>().find("fix:"), std::string::npos);
  EXPECT_DOUBLE_EQ(rows.at("pass.so")["evaluation"]["speedup_vs_tf32"].get<double>(), 1.25);
  const auto shown = control::results_show(kbvd.socket(), rows.at("pass.so")["sha256"]);
  EXPECT_EQ(shown["evaluations"][0]["report"]["verdict"], "pass") << "the full report is kept";
  EXPECT_EQ(shown["evaluations"][0]["epoch"], kbvd.status()["epoch"]);
}

// Settled files are taken one per turn of kbvd's event loop: a control request that arrives while
// a batch of large files is being hashed and copied is answered between two of them (review: the
// whole batch was taken in one turn, and kbvd answered nothing, /metrics included, until it was).
TEST(Kbvd, ControlRequestsAreAnsweredBetweenTheFilesOfABatch) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  constexpr int kFiles = 8;
  constexpr std::size_t kPaddingBytes = std::size_t{16} << 20;  // each file's hash and copy take tens of ms
  const fs::path staging = dir.path() / "staging";
  fs::create_directories(staging);
  for (int i = 0; i < kFiles; ++i)
    test::write_file(staging / ("big" + std::to_string(i) + ".so"),
                     "\x7f" "ELF KBV_FAKE:pass big" + std::to_string(i) + "\n" + std::string(kPaddingBytes, static_cast<char>('a' + i)));
  for (int i = 0; i < kFiles; ++i) fs::rename(staging / ("big" + std::to_string(i) + ".so"), kbvd.inbox() / ("big" + std::to_string(i) + ".so"));
  // Candidates kbvd holds: waiting, running or judged.
  const auto taken = [&] {
    const json status = kbvd.status();
    long long count = status["queue"]["waiting"].get<long long>() + status["queue"]["running"].get<long long>();
    for (const auto& [verdict, n] : status["totals"].items()) count += n.get<long long>();
    return count;
  };
  long long first_seen = 0;
  for (const auto deadline = std::chrono::steady_clock::now() + 60s; std::chrono::steady_clock::now() < deadline && first_seen == 0;
       std::this_thread::sleep_for(2ms))
    first_seen = taken();
  ASSERT_GT(first_seen, 0) << "no file taken within a minute";
  EXPECT_LT(first_seen, kFiles) << "the first answer after the batch began came only once every file was taken";
  EXPECT_TRUE(kbvd.wait_done(kFiles, 60000ms)) << "every file is still taken and judged";
}

TEST(Kbvd, SameBytesEvaluatedOnceHoweverOftenDropped) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  const std::string bytes = "KBV_FAKE:pass same bytes";
  kbvd.drop("one.so", bytes);
  kbvd.drop("two.so", bytes);
  ASSERT_TRUE(test::wait_until([&] { return by_name(kbvd.results())["one.so"]["drop_count"] == 2; }, 5s));
  kbvd.drop("one.so", bytes);  // the same name again (a new inode)
  kbvd.drop("other.so", "KBV_FAKE:pass other bytes");
  ASSERT_TRUE(kbvd.wait_done(2, 20s));
  test::wait_until([&] { return by_name(kbvd.results())["one.so"]["drop_count"] == 3; }, 5s);
  const auto rows = by_name(kbvd.results());
  ASSERT_EQ(rows.size(), 2u) << kbvd.results().dump();
  EXPECT_EQ(rows.at("one.so")["drop_count"], 3);
  const auto sha = rows.at("one.so")["sha256"].get<std::string>();
  EXPECT_EQ(test::fake_log_counts(kbvd.fake_log(), "start")[sha + ".so"], 1);
  EXPECT_EQ(control::file_sha256(kbvd.inbox() / "two.so"), sha) << "identity is the file's sha256";
}

TEST(Kbvd, WarmSpareTakesTheCandidateAndManifestProblemReachesIt) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["slots"][0]["spare"] == "warm"; }, 5s));
  test::write_file(kbvd.inbox() / "m.so.yaml", "model: modelA\nsample_id: 4\nproblem: gelu\ntags: [x]\n");
  kbvd.drop("m.so", "KBV_FAKE:pass manifest");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  const auto log = test::read_file(kbvd.fake_log());
  EXPECT_NE(log.find("mode=spare problem=gelu"), std::string::npos) << log;
  const auto row = kbvd.results()[0];
  EXPECT_EQ(row["model"], "modelA");
  EXPECT_EQ(row["sample_id"], "4");
  EXPECT_EQ(row["problem"], "gelu");
  EXPECT_EQ(row["tags"], json::array({"x"}));
}

// Queued candidates of one problem go to the warm spare together (evaluator.batch): one evaluator
// evaluates them in turn, each verdict recorded as its line appears; when the evaluator dies on one
// (a crash), that one is `crash` and the ones after it go back to the queue with no attempt counted.
TEST(Kbvd, ABatchOfOneProblemSharesAnEvaluatorAndACrashHandsTheRestBack) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "evaluator:\n  command: " KBVD_FAKE_EVALUATOR "\n  timeout_s: 20\n  batch: 8\n");
  kbvd.start();
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["slots"][0]["spare"] == "warm"; }, 5s));
  // The slot is busy for two seconds, so the relu candidates queue up behind it and leave as one batch.
  test::write_file(kbvd.inbox() / "busy.so.yaml", "problem: gelu\n");
  kbvd.drop("busy.so", "KBV_FAKE:sleep:2 busy");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["slots"][0]["state"] == "busy"; }, 5s));
  const std::vector<std::pair<std::string, std::string>> relu = {
      {"p1.so", "KBV_FAKE:pass p1"}, {"c.so", "KBV_FAKE:crash c"}, {"p2.so", "KBV_FAKE:pass p2"}, {"f3.so", "KBV_FAKE:fail f3"}};
  for (const auto& [name, bytes] : relu) {
    test::write_file(kbvd.inbox() / (name + ".yaml"), "problem: relu\n");
    kbvd.drop(name, bytes);
    std::this_thread::sleep_for(50ms);  // one after another in the queue
  }
  ASSERT_TRUE(kbvd.wait_done(5, 40s)) << test::read_file(kbvd.log_file());
  const auto rows = by_name(kbvd.results());
  EXPECT_EQ(rows.at("busy.so")["evaluation"]["verdict"], "pass");
  EXPECT_EQ(rows.at("p1.so")["evaluation"]["verdict"], "pass");
  EXPECT_EQ(rows.at("c.so")["evaluation"]["verdict"], "crash");
  EXPECT_EQ(rows.at("p2.so")["evaluation"]["verdict"], "pass");
  EXPECT_EQ(rows.at("f3.so")["evaluation"]["verdict"], "fail_correctness");
  const auto log = test::read_file(kbvd.fake_log());
  EXPECT_NE(log.find("mode=batched"), std::string::npos) << "the relu candidates shared an evaluator:\n" << log;
  const auto daemon_log = test::read_file(kbvd.log_file());
  EXPECT_NE(daemon_log.find("handed back: its batch's evaluator ended before it"), std::string::npos) << daemon_log;
  // Handed back, not failed: the attempt of each final evaluation is its first.
  for (const char* name : {"p2.so", "f3.so"}) {
    const auto shown = control::results_show(kbvd.socket(), rows.at(name)["sha256"]);
    EXPECT_EQ(shown["evaluations"].back()["attempt"], 1) << name << " " << shown["evaluations"].dump();
  }
}

TEST(Kbvd, BrokenSparesFallBackToColdStarts) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "", {{"FAKE_KBV_SPARE_FAIL", "1"}});
  kbvd.start();
  kbvd.drop("a.so", "KBV_FAKE:pass a");
  kbvd.drop("b.so", "KBV_FAKE:fail b");
  ASSERT_TRUE(kbvd.wait_done(2, 20s));
  const auto log = test::read_file(kbvd.fake_log());
  EXPECT_NE(log.find("mode=cold"), std::string::npos) << log;
  EXPECT_EQ(log.find("mode=spare"), std::string::npos) << log;
  const auto metrics = test::http_get(kbvd.metrics_port(), "/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->find("kbv_worker_exits_total{reason=\"spare_exit\"} 0"), std::string::npos)
      << "spare exits are counted";
}

TEST(Kbvd, ControlSubmitResultsRequeue) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  const auto source = dir.path() / "mine.so";
  test::write_file(source, "KBV_FAKE:level:2 submitted");
  test::write_file(dir.path() / "mine.json", R"({"model": "m", "problem": "relu"})");
  const auto answer = control::submit(kbvd.socket(), source, dir.path() / "mine.json");
  EXPECT_TRUE(answer["result"] == "queued" || answer["result"] == "taken") << answer.dump();
  EXPECT_EQ(answer["sha256"], control::file_sha256(source));
  EXPECT_TRUE(std::filesystem::exists(kbvd.inbox() / "mine.so.json"));
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  // A different file under the same name does not overwrite the first.
  test::write_file(source, "KBV_FAKE:pass changed");
  const auto second = control::submit(kbvd.socket(), source);
  EXPECT_NE(second["name"], "mine.so");
  ASSERT_TRUE(kbvd.wait_done(2, 10s));
  const auto sha = answer["sha256"].get<std::string>();
  EXPECT_THROW(control::requeue(kbvd.socket(), "0123456789"), control::ControlError);
  EXPECT_EQ(control::requeue(kbvd.socket(), sha.substr(0, 10))["queued"], true);
  ASSERT_TRUE(test::wait_until(
      [&] { return control::results_show(kbvd.socket(), sha)["evaluations"].size() == 2 &&
                   control::results_show(kbvd.socket(), sha)["state"] == "done"; }, 10s));
  EXPECT_EQ(control::results_list(kbvd.socket(), 10, "pass")["results"].size(), 2u);
  EXPECT_EQ(control::results_list(kbvd.socket(), 10, "fail_correctness")["results"].size(), 0u);
  // A manifest edited to a problem the evaluator does not know is refused at requeue, as at
  // ingest, naming the file and the fix (it was evaluated into a bad_input).
  test::write_file(kbvd.inbox() / "mine.so.json", R"({"model": "m", "problem": "no_such_problem"})");
  try {
    control::requeue(kbvd.socket(), sha.substr(0, 10));
    ADD_FAILURE() << "a requeue with an unknown problem was taken";
  } catch (const control::ControlError& error) {
    EXPECT_NE(std::string(error.what()).find("mine.so.json: problem: 'no_such_problem' is not one of the evaluator's"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(control::results_show(kbvd.socket(), sha)["state"], "done") << "nothing was queued";
  try {  // a misspelt verdict is an error, not an empty table
    control::results_list(kbvd.socket(), 10, "passs");
    ADD_FAILURE() << "no error for an unknown verdict";
  } catch (const control::ControlError& error) {
    EXPECT_NE(std::string(error.what()).find("unknown verdict 'passs'; use one of pass, fail_correctness"), std::string::npos) << error.what();
  }
  // Fields of the wrong type or out of range are named, not clamped nor a JSON library error.
  for (const auto& [request, says] : std::vector<std::pair<json, std::string>>{
           {{{"cmd", "results"}, {"limit", -7}}, "limit must be a whole number from 1 to 10000"},
           {{{"cmd", "results"}, {"limit", 4294967299}}, "limit must be a whole number from 1 to 10000"},
           {{{"cmd", "results"}, {"limit", "x"}}, "limit must be a whole number"},
           {{{"cmd", "show"}, {"id", 1}}, "id must be a string"},
           {{{"cmd", 5}}, "cmd must be a string"}}) {
    try {
      control::request(kbvd.socket(), request);
      ADD_FAILURE() << "no error for " << request.dump();
    } catch (const control::ControlError& error) {
      EXPECT_NE(std::string(error.what()).find(says), std::string::npos) << request.dump() << ": " << error.what();
    }
  }
  EXPECT_THROW(control::request(kbvd.socket(), {{"cmd", "nonsense"}}), control::ControlError);
  EXPECT_THROW(control::request(kbvd.socket(), {{"cmd", "ingest"}, {"name", "../x.so"}}), control::ControlError);
}

TEST(Kbvd, KbvctlPrintsTablesAndJson) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  kbvd.drop("t.so", "KBV_FAKE:pass table");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  const std::string ctl = std::string(KBVCTL_BINARY) + " --socket " + kbvd.socket().string();
  const auto table = test::run_command(ctl + " results");
  EXPECT_EQ(table.status, 0);
  EXPECT_NE(table.output.find("t.so"), std::string::npos) << table.output;
  const auto js = test::run_command(ctl + " status --json");
  EXPECT_EQ(js.status, 0);
  EXPECT_EQ(json::parse(js.output)["queue"]["waiting"], 0);
  // Exit statuses tell a bad request (2) from kbvd being away (3), which a script may retry.
  EXPECT_EQ(test::run_command(ctl + " results show nothing-like-this").status, 2);
  EXPECT_EQ(test::run_command(ctl + " results --verdict passs").status, 2);
  const auto away = test::run_command(std::string(KBVCTL_BINARY) + " --socket /nonexistent.sock status 2>&1");
  EXPECT_EQ(away.status, 3) << away.output;
  EXPECT_NE(away.output.find("cannot reach kbvd"), std::string::npos) << away.output;
  // A name that is nothing once its leading dot is dropped is refused before anything is published.
  test::write_file(dir.path() / "..so", "not even ELF");
  const auto hidden = test::run_command(ctl + " submit " + (dir.path() / "..so").string() + " 2>&1");
  EXPECT_EQ(hidden.status, 2) << hidden.output;
  EXPECT_NE(hidden.output.find("with a NAME that does not start with a dot"), std::string::npos) << hidden.output;
  EXPECT_FALSE(std::filesystem::exists(kbvd.inbox() / ".so")) << "nothing left in the watch folder";
  for (const char* limit : {"3x", "-5", "0", "1e3", "99999999999"}) {  // stoi took "3x" as 3 and "-5" as one row
    const auto refused = test::run_command(ctl + " results --limit " + limit + " 2>&1");
    EXPECT_EQ(refused.status, 2) << limit << ": " << refused.output;
    EXPECT_NE(refused.output.find("--limit takes a whole number from 1 to 10000"), std::string::npos) << refused.output;
  }
}

TEST(Kbvd, SighupReloadsAndKeepsTheOldConfigOnErrors) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  auto yaml = test::read_file(kbvd.config_file());
  yaml.replace(yaml.find("evaluator:\n"), 11, "evaluator:\n  shapes: small\n");
  test::write_file(kbvd.config_file(), yaml);
  kbvd.signal(SIGHUP);
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("configuration reloaded") != std::string::npos; }, 5s));
  kbvd.drop("after.so", "KBV_FAKE:pass after reload");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  EXPECT_NE(test::read_file(kbvd.fake_log()).find("--shapes=small"), std::string::npos);

  test::write_file(kbvd.config_file(), "evaluator:\n  timeout_s: never\n");
  kbvd.signal(SIGHUP);
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("reload failed") != std::string::npos; }, 5s));
  EXPECT_NO_THROW(kbvd.status());
  EXPECT_NE(test::read_file(kbvd.log_file()).find("evaluator.timeout_s"), std::string::npos);
}

// A watch folder kbvd cannot use never takes it down: a reload that names a regular file is
// refused before anything changes (the old folder is still watched), and a watch folder
// replaced by a file while kbvd runs is an error at each rescan until the folder is back, when
// what was dropped is taken.
TEST(Kbvd, AnUnusableWatchFolderNeverStopsTheDaemon) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "watch:\n  dir: " + (dir.path() / "inbox").string() + "\n  rescan_interval_s: 0.2\n  settle_s: 0.2\n");
  kbvd.start();
  test::write_file(dir.path() / "not-a-folder", "");
  auto yaml = test::read_file(kbvd.config_file());
  const std::string inbox = (dir.path() / "inbox").string();
  const auto at = yaml.find("dir: " + inbox);
  ASSERT_NE(at, std::string::npos) << yaml;
  yaml.replace(at, 5 + inbox.size(), "dir: " + (dir.path() / "not-a-folder").string());
  test::write_file(kbvd.config_file(), yaml);
  kbvd.signal(SIGHUP);
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("reload failed") != std::string::npos; }, 5s));
  EXPECT_NE(test::read_file(kbvd.log_file()).find("not-a-folder is not a folder"), std::string::npos) << test::read_file(kbvd.log_file());
  kbvd.drop("still-watched.so", "KBV_FAKE:pass the old folder");
  ASSERT_TRUE(kbvd.wait_done(1, 10s)) << "the running configuration was kept";

  // The folder and a file swap places in one step (renameat2 RENAME_EXCHANGE): a rename and a
  // create would race kbvd, which makes a vanished watch folder again.
  test::write_file(dir.path() / "inbox.away", "");
  ASSERT_EQ(::renameat2(AT_FDCWD, (dir.path() / "inbox.away").c_str(), AT_FDCWD, kbvd.inbox().c_str(), RENAME_EXCHANGE), 0) << std::strerror(errno);
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("retrying every") != std::string::npos; }, 5s))
      << test::read_file(kbvd.log_file());
  EXPECT_NO_THROW(kbvd.status()) << "kbvd is still up";
  ASSERT_EQ(::renameat2(AT_FDCWD, (dir.path() / "inbox.away").c_str(), AT_FDCWD, kbvd.inbox().c_str(), RENAME_EXCHANGE), 0) << std::strerror(errno);
  kbvd.drop("after-the-folder-came-back.so", "KBV_FAKE:pass the folder is back");
  EXPECT_TRUE(kbvd.wait_done(2, 10s));
}

TEST(Kbvd, SigtermFinishesInFlightWork) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "shutdown:\n  drain_timeout_s: 20\n");
  kbvd.start();
  kbvd.drop("slow.so", "KBV_FAKE:sleep:1 finish me");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["queue"]["running"] == 1; }, 5s));
  kbvd.signal(SIGTERM);
  EXPECT_EQ(kbvd.wait_exit(10s), 0);
  EXPECT_FALSE(std::filesystem::exists(kbvd.socket())) << "the socket is removed on exit";
  KbvdProcess again(dir.path());
  again.start();
  const auto row = again.results()[0];
  EXPECT_EQ(row["state"], "done");
  EXPECT_EQ(row["evaluation"]["verdict"], "pass");
}

TEST(Kbvd, SigtermPastTheDrainTimeoutRequeues) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "shutdown:\n  drain_timeout_s: 0.2\n");
  kbvd.start();
  kbvd.drop("slow.so", "KBV_FAKE:sleep:1 requeue me");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["queue"]["running"] == 1; }, 5s));
  kbvd.signal(SIGTERM);
  EXPECT_EQ(kbvd.wait_exit(10s), 0);
  KbvdProcess again(dir.path());
  again.start();
  ASSERT_TRUE(again.wait_done(1, 10s));
  const auto shown = control::results_show(again.socket(), "1");
  ASSERT_EQ(shown["evaluations"].size(), 2u);
  EXPECT_EQ(shown["evaluations"][0]["state"], "interrupted");
  EXPECT_EQ(shown["evaluations"][1]["state"], "done");
  EXPECT_EQ(shown["evaluations"][1]["attempt"], 1) << "a shutdown does not count as an attempt";
}

TEST(Kbvd, KillNineLosesNothingAndEvaluatesNothingTwice) {
  constexpr int kCandidates = 50;
  TempDir dir;
  const std::map<std::string, std::string> env = {{"FAKE_KBV_DELAY_S", "0.03"}};
  KbvdProcess kbvd(dir.path(), "", env);
  kbvd.start();
  for (int i = 0; i < kCandidates; ++i) kbvd.drop("c" + std::to_string(i) + ".so", "KBV_FAKE:pass " + std::to_string(i));
  ASSERT_TRUE(test::wait_until([&] {
    return test::fake_log_counts(kbvd.fake_log(), "end").size() >= kCandidates / 3;
  }, 30s));
  kbvd.signal(SIGKILL);
  kbvd.wait_exit(5s);
  // The evaluator children (the one running and the warm spare) die with kbvd
  // (PR_SET_PDEATHSIG): none of the processes the fake logged keeps running.
  std::vector<int> pids;
  {
    std::istringstream log(test::read_file(kbvd.fake_log()));
    std::string line;
    while (std::getline(log, line))
      if (const auto at = line.find(" pid="); at != std::string::npos) pids.push_back(std::stoi(line.substr(at + 5)));
  }
  for (const int pid : pids)
    EXPECT_TRUE(test::wait_until([&] { return test::process_gone(pid); }, 5s)) << "evaluator " << pid << " outlived kbvd";
  KbvdProcess again(dir.path(), "", env);
  again.start();
  ASSERT_TRUE(again.wait_done(kCandidates, 60s)) << again.results().dump();
  int interrupted = 0;
  for (const auto& row : again.results()) {
    const auto shown = control::results_show(again.socket(), row["sha256"]);
    int done = 0;
    for (const auto& e : shown["evaluations"]) {
      done += e["state"] == "done" ? 1 : 0;
      interrupted += e["state"] == "interrupted" ? 1 : 0;
    }
    EXPECT_EQ(done, 1) << row.dump();
    EXPECT_EQ(row["evaluation"]["verdict"], "pass") << shown.dump();
  }
  EXPECT_LE(interrupted, 1) << "one slot: at most one evaluation was in flight";
  const auto ends = test::fake_log_counts(again.fake_log(), "end");
  EXPECT_EQ(ends.size(), static_cast<std::size_t>(kCandidates));
  int total = 0;
  for (const auto& [file, n] : ends) total += n;
  EXPECT_LE(total, kCandidates + 1) << "only the one in flight at the kill may have run twice";
}

TEST(Kbvd, BackPressureLeavesFilesInTheFolder) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "queue:\n  max_depth: 2\nwatch:\n  dir: " + (dir.path() / "inbox").string() +
                                   "\n  rescan_interval_s: 0.3\n",
                   {{"FAKE_KBV_DELAY_S", "0.1"}});
  kbvd.start();
  for (int i = 0; i < 8; ++i) kbvd.drop("p" + std::to_string(i) + ".so", "KBV_FAKE:pass " + std::to_string(i));
  int max_waiting = 0;
  const bool all = test::wait_until([&] {
    const auto s = kbvd.status();
    max_waiting = std::max(max_waiting, s["queue"]["waiting"].get<int>());
    return kbvd.results().size() == 8 && s["queue"]["waiting"] == 0 && s["queue"]["running"] == 0;
  }, 30s);
  EXPECT_TRUE(all);
  EXPECT_LE(max_waiting, 2);
}

TEST(Kbvd, BadManifestWaitsForItsFix) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  test::write_file(kbvd.inbox() / "bm.so.yaml", "modle: typo\n");
  kbvd.drop("bm.so", "KBV_FAKE:pass bad manifest");
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("modle: unknown field") != std::string::npos; }, 5s));
  EXPECT_EQ(kbvd.results().size(), 0u);
  const auto temp = dir.path() / "fixed.yaml";
  test::write_file(temp, "model: fixed\n");
  std::filesystem::rename(temp, kbvd.inbox() / "bm.so.yaml");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  EXPECT_EQ(kbvd.results()[0]["model"], "fixed");
}

// Another model's copy of a candidate (the same bytes under another name, with its own manifest)
// is one candidate with the first drop's model and problem: its verdict is never re-labelled.
TEST(Kbvd, TheSameBytesDroppedAgainKeepTheirFirstManifest) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  test::write_file(kbvd.inbox() / "a.so.yaml", "model: model-A\nproblem: relu\n");
  kbvd.drop("a.so", "KBV_FAKE:pass the same bytes");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  test::write_file(kbvd.inbox() / "copy.so.yaml", "model: model-B\nproblem: gelu\n");
  kbvd.drop("copy.so", "KBV_FAKE:pass the same bytes");
  ASSERT_TRUE(test::wait_until([&] { return test::read_file(kbvd.log_file()).find("its manifest differs from the one recorded and is not used") !=
                                            std::string::npos; }, 5s))
      << test::read_file(kbvd.log_file());
  const auto rows = kbvd.results();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["model"], "model-A");
  EXPECT_EQ(rows[0]["problem"], "relu");
  EXPECT_EQ(rows[0]["evaluation"]["verdict"], "pass");
}

TEST(Kbvd, MissingEvaluatorKeepsCandidatesQueued) {
  TempDir dir;
  KbvdProcess kbvd(dir.path(), "evaluator:\n  command: /nonexistent/kbv\n");
  kbvd.start();
  kbvd.drop("q.so", "KBV_FAKE:pass queued");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["slots"][0]["state"] == "evaluator_unavailable"; }, 5s));
  ASSERT_TRUE(test::wait_until([&] { return kbvd.results().size() == 1; }, 5s));
  const auto s = kbvd.status();
  EXPECT_NE(s["slots"][0]["last_error"].get<std::string>().find("/nonexistent/kbv"), std::string::npos);
  EXPECT_EQ(kbvd.results()[0]["state"], "queued") << "an evaluator that cannot start is no verdict";
}

// kbv eval's own set-up failing (exit 3: a problem spec that does not parse, say) is no verdict:
// the candidate stays queued, the slot says why, and once the spec is fixed it is evaluated. It was
// recorded bad_input, and every queued candidate with it.
// With a warm spare (which fails first) and without (cold starts only).
class KbvdEvaluatorSetup : public ::testing::TestWithParam<bool> {};

TEST_P(KbvdEvaluatorSetup, AnEvaluatorThatCannotSetItselfUpKeepsCandidatesQueued) {
  TempDir dir;
  const auto broken = dir.path() / "spec-broken";
  test::write_file(broken, "");
  KbvdProcess kbvd(dir.path(), std::string("evaluator:\n  command: " KBVD_FAKE_EVALUATOR "\n  timeout_s: 20\n") + (GetParam() ? "" : "  warm_spare: false\n"),
                   {{"FAKE_KBV_SETUP_FAIL_FILE", broken.string()}});
  kbvd.start();
  kbvd.drop("a.so", "KBV_FAKE:pass a");
  kbvd.drop("b.so", "KBV_FAKE:pass b");
  ASSERT_TRUE(test::wait_until([&] { return kbvd.status()["slots"][0]["state"] == "evaluator_unavailable"; }, 10s)) << kbvd.status().dump();
  EXPECT_NE(kbvd.status()["slots"][0]["last_error"].get<std::string>().find("relu.yaml"), std::string::npos) << kbvd.status().dump();
  ASSERT_TRUE(test::wait_until([&] { return kbvd.results().size() == 2; }, 5s));
  for (const auto& row : kbvd.results()) EXPECT_EQ(row["state"], "queued") << row.dump();
  std::filesystem::remove(broken);  // the spec fixed
  ASSERT_TRUE(kbvd.wait_done(2, 60s)) << kbvd.status().dump();
  for (const auto& row : kbvd.results()) EXPECT_EQ(row["evaluation"]["verdict"], "pass") << row.dump();
}

INSTANTIATE_TEST_SUITE_P(WarmSpare, KbvdEvaluatorSetup, ::testing::Bool(),
                         [](const auto& param_info) { return param_info.param ? std::string("WithASpare") : std::string("ColdStartsOnly"); });

// A copy into the object store that a kill -9 cut short is removed when kbvd starts again (it
// stayed for good before: nothing else ever finishes or reads it).
TEST(Kbvd, AnUnfinishedObjectCopyIsRemovedAtStart) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  const auto leftover = dir.path() / "state" / "objects" / ".incoming-Ab12Cd";
  std::filesystem::create_directories(leftover.parent_path());
  test::write_file(leftover, "half a candidate");
  const auto finished = dir.path() / "state" / "objects" / "keep.so";
  test::write_file(finished, "not kbvd's to remove");
  kbvd.start();
  EXPECT_FALSE(std::filesystem::exists(leftover));
  EXPECT_TRUE(std::filesystem::exists(finished));
}

TEST(Kbvd, StartupErrorsAreClear) {
  TempDir dir;
  test::write_file(dir.path() / "bad.yaml", "evaluator:\n  timeout_s: -1\n");
  const auto r = test::run_command(std::string(KBVD_BINARY) + " --config " + (dir.path() / "bad.yaml").string());
  EXPECT_EQ(r.status, 78) << "EX_CONFIG: systemd does not restart it (RestartPreventExitStatus=78)";
  EXPECT_NE(r.output.find("bad.yaml:2: evaluator.timeout_s:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix:"), std::string::npos) << r.output;
  const auto check = test::run_command(std::string(KBVD_BINARY) + " --check-config --config " KBV_SOURCE_DIR "/configs/kbvd.yaml");
  EXPECT_EQ(check.status, 0) << check.output;
  EXPECT_EQ(test::run_command(std::string(KBVD_BINARY) + " --no-such-option").status, 2);
}

// A stand-in for systemd's notification socket: collects the datagrams kbvd sends.
class NotifySocket {
 public:
  explicit NotifySocket(const std::filesystem::path& path) : path_(path) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  }
  ~NotifySocket() { ::close(fd_); }
  // Every message received within `wait`, appended to what came before.
  const std::string& drain(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      char buf[4096];
      const auto n = ::recv(fd_, buf, sizeof buf, 0);
      if (n > 0) seen_.append(buf, static_cast<std::size_t>(n)).append("\n");
    }
    return seen_;
  }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::string seen_;
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Kbvd, NotifiesSystemdAndFeedsTheWatchdog) {
  TempDir dir;
  NotifySocket notify(dir.path() / "notify.sock");
  // WatchdogSec=0.2 s: kbvd must ping every 0.1 s.
  KbvdProcess kbvd(dir.path() / "d", "", {{"NOTIFY_SOCKET", (dir.path() / "notify.sock").string()},
                                         {"WATCHDOG_USEC", "200000"}});
  kbvd.start();
  kbvd.drop("w.so", "KBV_FAKE:pass watchdog");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  auto seen = notify.drain(1s);
  EXPECT_NE(seen.find("READY=1"), std::string::npos) << seen;
  EXPECT_GE(count(seen, "WATCHDOG=1"), 5u) << seen;
  EXPECT_EQ(test::read_file(kbvd.fake_log()).find("NOTIFY"), std::string::npos);
  kbvd.signal(SIGHUP);
  seen = notify.drain(500ms);
  EXPECT_NE(seen.find("RELOADING=1"), std::string::npos) << seen;
  kbvd.signal(SIGTERM);
  EXPECT_EQ(kbvd.wait_exit(10s), 0);
  seen = notify.drain(100ms);
  EXPECT_NE(seen.find("STOPPING=1"), std::string::npos) << seen;
}

TEST(Kbvd, EvaluatorsDoNotInheritSystemdVariables) {
  TempDir dir;
  const auto env_dump = dir.path() / "env.txt";
  const auto script = dir.path() / "print_env.sh";
  // Written whole (rename): the test may read while the next spare starts.
  test::write_file(script, "#!/bin/sh\nenv > " + env_dump.string() + ".$$ && mv " + env_dump.string() + ".$$ " +
                               env_dump.string() + "\nexec " KBVD_FAKE_EVALUATOR " \"$@\"\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  KbvdProcess kbvd(dir.path() / "d", "evaluator:\n  command: " + script.string() + "\n",
                   {{"NOTIFY_SOCKET", (dir.path() / "none.sock").string()}, {"KBV_SOME_SETTING", "kept"}});
  kbvd.start();
  kbvd.drop("e.so", "KBV_FAKE:pass env");
  ASSERT_TRUE(kbvd.wait_done(1, 10s));
  const auto env = test::read_file(env_dump);
  EXPECT_EQ(env.find("NOTIFY_SOCKET"), std::string::npos) << env;
  EXPECT_NE(env.find("KBV_SOME_SETTING=kept"), std::string::npos) << env;
}

TEST(Kbvd, SecondDaemonOnTheSameSocketRefuses) {
  TempDir dir;
  KbvdProcess kbvd(dir.path());
  kbvd.start();
  const auto r = test::run_command(std::string(KBVD_BINARY) + " --config " + kbvd.config_file().string() +
                                   " --metrics-listen 127.0.0.1:0");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("another kbvd"), std::string::npos) << r.output;
  EXPECT_NO_THROW(kbvd.status()) << "the first one is unharmed";
}

}  // namespace
}  // namespace kbv::kbvd
