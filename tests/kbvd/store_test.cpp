// Tests for the SQLite store: ingest once per identity, FIFO dispatch, finish, requeue, recovery
// of evaluations a dead daemon left running, manifests fixed later, and the version 1 migration.
#include <gtest/gtest.h>

#include "harness.hpp"
#include "store/store.hpp"

namespace kbv::kbvd {
namespace {
using test::TempDir;

NewCandidate candidate(const std::string& sha, const std::string& name) {
  NewCandidate c;
  c.sha256 = sha;
  c.name = name;
  c.stored_path = "/objects/" + sha + ".so";
  c.size_bytes = 10;
  return c;
}
SeenFile seen(const std::string& name, std::int64_t ino, const std::string& manifest = "") {
  return {name, 1, ino, 10, 100, manifest};
}
const EpochSpan kEpoch{4, 0, 1};

Outcome passed() {
  Outcome o;
  o.verdict = "pass";
  o.worker_exit = "completed";
  o.exit.exit_code = 0;
  o.exit.seconds = 0.5;
  o.figures = {{"speedup_vs_tf32", 1.5}};
  o.report = {{"verdict", "pass"}};
  return o;
}

TEST(Store, SameBytesQueuedOnce) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  EXPECT_EQ(s.add_candidate(candidate("aaaaaaaa11", "a.so"), seen("a.so", 1), 1), IngestResult::queued);
  EXPECT_EQ(s.add_candidate(candidate("aaaaaaaa11", "copy.so"), seen("copy.so", 2), 2), IngestResult::duplicate);
  EXPECT_TRUE(s.unchanged(seen("a.so", 1)));
  EXPECT_FALSE(s.unchanged(seen("a.so", 3)));
  EXPECT_FALSE(s.unchanged(seen("a.so", 1, "yaml=1:2:3:4 json=-"))) << "a new manifest is a change";
  EXPECT_EQ(s.waiting_count(), 1);
  const auto rows = s.results_list(10, "", "");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["drop_count"], 2);
  EXPECT_EQ(rows[0]["state"], "queued");
}

TEST(Store, FifoDispatchFinishAndShow) {
  TempDir dir;
  Store s(dir.path() / "db", "full");
  NewCandidate first = candidate("bbbbbbbb11", "first.so");
  first.manifest = Manifest{"m", "3", "relu", {"x"}};
  s.add_candidate(first, seen("first.so", 1), 1);
  s.add_candidate(candidate("cccccccc22", "second.so"), seen("second.so", 2), 2);
  auto job = s.start_next(kEpoch, "host", "host", 3);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->name, "first.so");
  EXPECT_EQ(job->problem, "relu");
  EXPECT_EQ(job->attempt, 1);
  EXPECT_EQ(s.running_count(), 1);
  s.finish(*job, passed(), 4);
  EXPECT_THROW(s.finish(*job, passed(), 5), sqlite::Error) << "finished twice";
  const auto shown = s.results_show("bbbbbb");
  EXPECT_EQ(shown["state"], "done");
  EXPECT_EQ(shown["model"], "m");
  EXPECT_EQ(shown["evaluation"]["verdict"], "pass");
  EXPECT_EQ(shown["evaluation"]["epoch"], 4);
  EXPECT_DOUBLE_EQ(shown["evaluation"]["speedup_vs_tf32"].get<double>(), 1.5);
  EXPECT_EQ(shown["evaluations"][0]["report"]["verdict"], "pass");
  EXPECT_EQ(s.verdict_totals()["pass"], 1);
  EXPECT_EQ(s.start_next(kEpoch, "host", "host", 6)->name, "second.so");
  EXPECT_FALSE(s.start_next(kEpoch, "host", "host", 7)) << "nothing left waiting";
}

TEST(Store, LookupErrors) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  s.add_candidate(candidate("dddddd0001", "a.so"), seen("a.so", 1), 1);
  s.add_candidate(candidate("dddddd0002", "b.so"), seen("b.so", 2), 1);
  EXPECT_THROW(s.results_show("dddddd"), NotFound) << "ambiguous prefix";
  EXPECT_EQ(s.results_show("dddddd0002")["name"], "b.so");
  EXPECT_EQ(s.results_show("1")["name"], "a.so") << "short numbers are candidate ids";
  EXPECT_THROW(s.results_show("99"), NotFound);
  EXPECT_THROW(s.results_show("zz"), NotFound);
}

TEST(Store, RequeueOnlyWhenFinished) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  s.add_candidate(candidate("eeeeeeee01", "a.so"), seen("a.so", 1), 1);
  EXPECT_THROW(s.requeue("eeeeeeee", 2), NotFound) << "already queued";
  auto job = s.start_next(kEpoch, "host", "host", 2);
  s.finish(*job, passed(), 3);
  EXPECT_EQ(s.requeue("eeeeeeee", 4)["queued"], true);
  auto again = s.start_next(kEpoch, "host", "host", 5);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->attempt, 1);
  s.finish(*again, passed(), 6);
  EXPECT_EQ(s.results_show("eeeeeeee")["evaluations"].size(), 2u);
}

TEST(Store, RecoveryRequeuesThenGivesUp) {
  TempDir dir;
  const auto db = dir.path() / "db";
  {
    Store s(db, "normal");
    s.add_candidate(candidate("ffffffff01", "a.so"), seen("a.so", 1), 1);
    auto job = s.start_next(kEpoch, "host", "host", 2);
    s.set_process(job->evaluation_id, 999999, 12345, "/sys/fs/cgroup/kbvd-1-0");
  }  // the daemon "dies" with the evaluation running
  {
    Store s(db, "normal");
    const auto left = s.leftovers();  // read before recovery, which may not be writable
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].cgroup, "/sys/fs/cgroup/kbvd-1-0");
  }
  for (int attempt = 1; attempt <= 2; ++attempt) {
    Store s(db, "normal");
    const auto r = s.recover(3, 10);
    EXPECT_EQ(r.requeued, 1);
    if (attempt == 1) {
      ASSERT_EQ(r.leftovers.size(), 1u);
      EXPECT_EQ(r.leftovers[0].pgid, 999999);
      EXPECT_EQ(r.leftovers[0].cgroup, "/sys/fs/cgroup/kbvd-1-0");
    }
    EXPECT_EQ(s.waiting_count(), 1);
    auto job = s.start_next(kEpoch, "host", "host", 11);
    ASSERT_TRUE(job);
    EXPECT_EQ(job->attempt, attempt + 1);
  }
  Store s(db, "normal");
  const auto r = s.recover(3, 20);
  EXPECT_EQ(r.given_up, 1);
  EXPECT_EQ(s.waiting_count(), 0);
  const auto shown = s.results_show("ffffffff");
  EXPECT_EQ(shown["state"], "done");
  EXPECT_EQ(shown["evaluation"]["verdict"], "crash");
  EXPECT_EQ(shown["evaluations"].size(), 3u);
}

// kbvd killed while a warm spare evaluated a batch of three: the first had its verdict, the
// second was being evaluated, the third waited behind it. Recovery counts the second's attempt
// only; the third, never begun, goes back as if on its first try, however often that happens,
// and is never given up as a crash. A lone evaluation of another process counts as before.
TEST(Store, RecoveryCountsOnlyTheBatchMemberThatHadBegun) {
  TempDir dir;
  const auto db = dir.path() / "db";
  auto start_batch = [](Store& s, const std::string& problem, std::int64_t pgid, double now) {
    std::vector<Job> batch;
    while (auto job = s.start_next_of_problem(kEpoch, "host", "host", now, problem)) batch.push_back(*job);
    for (const Job& job : batch) s.set_process(job.evaluation_id, pgid, 7, "");
    return batch;
  };
  {
    Store s(db, "normal");
    for (const char* sha : {"1111111101", "1111111102", "1111111103", "2222222201"}) {
      NewCandidate c = candidate(sha, std::string(sha) + ".so");
      c.manifest = Manifest{"m", "1", sha[0] == '1' ? "relu" : "gelu", {}};
      s.add_candidate(c, seen(c.name, std::stoll(sha)), 1);
    }
    const std::vector<Job> relu = start_batch(s, "relu", 4242, 2);
    ASSERT_EQ(relu.size(), 3u);
    s.finish(relu[0], passed(), 3);  // its verdict is in; the second is under way, the third waits
    ASSERT_EQ(start_batch(s, "gelu", 5151, 2).size(), 1u);
  }  // the daemon dies
  {
    Store s(db, "normal");
    const auto r = s.recover(3, 10);
    EXPECT_EQ(r.requeued, 3);
    EXPECT_EQ(r.not_begun, 1);
    EXPECT_EQ(r.leftovers.size(), 2u) << "each evaluator process listed once";
    const auto waited = s.results_show("1111111103")["evaluations"];
    ASSERT_EQ(waited.size(), 1u);
    EXPECT_EQ(waited[0]["note"], "daemon stopped before its turn in the batch came");
    EXPECT_EQ(s.results_show("1111111102")["evaluations"][0]["note"], "daemon stopped during the evaluation");
  }
  for (int kill = 2; kill <= 3; ++kill) {
    {
      Store s(db, "normal");
      if (kill == 3) {
        EXPECT_EQ(s.recover(3, 10.0 * kill).not_begun, 1);
      }
      const std::vector<Job> relu = start_batch(s, "relu", 4242 + kill, 10.0 * kill);
      ASSERT_EQ(relu.size(), 2u);
      EXPECT_EQ(relu[0].name, "1111111102.so");
      EXPECT_EQ(relu[0].attempt, kill) << "the member under way counts each interruption";
      EXPECT_EQ(relu[1].attempt, 1) << "the member that never began is on its first attempt every time";
    }  // the daemon dies again
  }
  Store s(db, "normal");
  const auto r = s.recover(3, 100);
  EXPECT_EQ(r.given_up, 1) << "interrupted three times while being evaluated";
  EXPECT_EQ(r.not_begun, 1);
  EXPECT_EQ(s.results_show("1111111102")["evaluation"]["verdict"], "crash");
  EXPECT_EQ(s.results_show("1111111103")["state"], "queued");
  const auto next = s.start_next_of_problem(kEpoch, "host", "host", 101, "relu");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->attempt, 1);
}

TEST(Store, InterruptRefundsTheAttempt) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  s.add_candidate(candidate("abababab01", "a.so"), seen("a.so", 1), 1);
  auto job = s.start_next(kEpoch, "host", "host", 2);
  s.interrupt(*job, "drained", 3);
  auto again = s.start_next(kEpoch, "host", "host", 4);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->attempt, 1);
}

Outcome bad_input() {
  Outcome o;
  o.verdict = "bad_input";
  o.worker_exit = "bad_input";
  o.exit.exit_code = 2;
  o.detail = "unknown problem 'rleu'";
  return o;
}

TEST(Store, AFixedManifestRequeuesOnlyABadInputVerdict) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  auto wrong = candidate("cdcdcdcd01", "w.so");
  wrong.manifest = Manifest{"m", "1", "rleu", {}};
  s.add_candidate(wrong, seen("w.so", 1), 1);
  s.finish(*s.start_next(kEpoch, "host", "host", 2), bad_input(), 3);
  const Manifest fixed{"m", "1", "relu", {"t"}};
  EXPECT_EQ(s.refresh_manifest("cdcdcdcd01", fixed, ManifestSource::same_file, 4), ManifestRefresh::requeued);
  EXPECT_EQ(s.waiting_count(), 1);
  EXPECT_EQ(s.results_show("cdcdcdcd")["problem"], "relu");
  EXPECT_EQ(s.refresh_manifest("cdcdcdcd01", fixed, ManifestSource::same_file, 5), ManifestRefresh::unchanged);
  // A passed candidate takes its own file's new model, sample and tags but keeps the problem its
  // verdict was measured for, and is not evaluated again.
  NewCandidate passing = candidate("efefefef01", "p.so");
  passing.manifest = Manifest{"m", "1", "relu", {}};
  s.add_candidate(passing, seen("p.so", 2), 6);
  s.finish(*s.start_next(kEpoch, "host", "host", 7), bad_input(), 8);  // the wrong one's second run
  s.finish(*s.start_next(kEpoch, "host", "host", 9), passed(), 10);
  EXPECT_EQ(s.refresh_manifest("efefefef01", Manifest{"m2", "1", "relu", {"t"}}, ManifestSource::same_file, 11), ManifestRefresh::updated);
  EXPECT_EQ(s.results_show("efefefef")["model"], "m2");
  EXPECT_EQ(s.refresh_manifest("efefefef01", Manifest{"m2", "1", "gelu", {"t"}}, ManifestSource::same_file, 12), ManifestRefresh::kept_problem);
  EXPECT_EQ(s.results_show("efefefef")["problem"], "relu") << "the verdict was measured as relu";
  EXPECT_EQ(s.waiting_count(), 0);
}

// The same bytes dropped under another name with another manifest (another model's copy): the
// first drop's manifest stands, whatever state the candidate is in, unless it fixes a bad_input.
TEST(Store, BytesDroppedAgainNeverRelabelTheCandidate) {
  TempDir dir;
  Store s(dir.path() / "db", "normal");
  NewCandidate first = candidate("abcdabcd01", "a.so");
  first.manifest = Manifest{"model-A", "1", "relu", {}};
  s.add_candidate(first, seen("a.so", 1), 1);
  const Manifest other{"model-B", "7", "gelu", {"copied"}};
  EXPECT_EQ(s.refresh_manifest("abcdabcd01", other, ManifestSource::another_file, 2), ManifestRefresh::kept) << "waiting";
  const auto job = s.start_next(kEpoch, "host", "host", 3);
  EXPECT_EQ(s.refresh_manifest("abcdabcd01", other, ManifestSource::another_file, 4), ManifestRefresh::kept) << "running";
  s.finish(*job, passed(), 5);
  EXPECT_EQ(s.refresh_manifest("abcdabcd01", other, ManifestSource::another_file, 6), ManifestRefresh::kept) << "passed";
  const auto shown = s.results_show("abcdabcd");
  EXPECT_EQ(shown["model"], "model-A");
  EXPECT_EQ(shown["problem"], "relu");
  EXPECT_EQ(s.waiting_count(), 0);
}

TEST(Store, MigratesAVersion1Store) {
  TempDir dir;
  const auto db = dir.path() / "db";
  {
    Store s(db, "normal");
    s.add_candidate(candidate("a1a1a1a101", "a.so"), seen("a.so", 1), 1);
  }
  {  // what version 1 looked like
    sqlite::Database raw(db);
    raw.exec("ALTER TABLE evaluations DROP COLUMN cgroup; ALTER TABLE seen_files DROP COLUMN manifest_sig;"
             " UPDATE meta SET value='1' WHERE key='schema_version'");
  }
  Store s(db, "normal");
  auto job = s.start_next(kEpoch, "host", "host", 2);
  ASSERT_TRUE(job);
  s.set_process(job->evaluation_id, 1, 2, "/cg");
  EXPECT_EQ(s.leftovers()[0].cgroup, "/cg");
  EXPECT_TRUE(s.unchanged(seen("a.so", 1)));
  sqlite::Database raw(db);
  auto version = raw.prepare("SELECT value FROM meta WHERE key='schema_version'");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.text(0), "2");
}

}  // namespace
}  // namespace kbv::kbvd
