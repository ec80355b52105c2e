// The SQLite store: every state change of a candidate is one transaction, so a killed daemon
// leaves either the state before or the state after it.
#include "store/store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>

#include "client/control_client.hpp"
#include "store/schema.hpp"

namespace kbv::kbvd {
namespace {
using nlohmann::json;

// A sha prefix shorter than this is read as a candidate number instead.
constexpr std::size_t kMinShaPrefix = 6;

json optional_json(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }
json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
}  // namespace

Store::Store(const std::filesystem::path& db_path, const std::string& synchronous) : db_(db_path) {
  db_.exec("PRAGMA journal_mode=WAL");
  db_.exec(synchronous == "full" ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
  db_.exec("PRAGMA foreign_keys=ON");
  create_schema();
}

void Store::create_schema() {
  sqlite::Transaction tx(db_);
  db_.exec(kSchemaSql);
  std::optional<std::string> version;
  {
    auto get = db_.prepare("SELECT value FROM meta WHERE key='schema_version'");
    if (get.step()) version = get.text(0);
  }
  if (!version) {
    db_.prepare("INSERT INTO meta(key, value) VALUES('schema_version', ?)")
        .bind(1, std::to_string(kSchemaVersion))
        .run();
  } else if (*version == "1") {
    db_.exec(kMigrateFrom1);
  } else if (*version != std::to_string(kSchemaVersion)) {
    throw sqlite::Error(fmt::format(
        "store schema version {} is not {} (this kbvd's); fix: use the kbvd that wrote it or "
        "move the state directory aside",
        *version, kSchemaVersion));
  }
  tx.commit();
}

std::int64_t Store::next_seq() {
  auto s = db_.prepare("SELECT COALESCE(MAX(seq), 0) + 1 FROM queue");
  s.step();
  return s.int64(0);
}

bool Store::unchanged(const SeenFile& f) {
  auto s = db_.prepare(
      "SELECT 1 FROM seen_files WHERE name=? AND dev=? AND ino=? AND size=? AND mtime_ns=? AND manifest_sig=?");
  s.bind(1, f.name).bind(2, f.dev).bind(3, f.ino).bind(4, f.size).bind(5, f.mtime_ns).bind(6, f.manifest_sig);
  return s.step();
}

std::optional<SeenFile> Store::seen(const std::string& name) {
  auto s = db_.prepare("SELECT dev, ino, size, mtime_ns, manifest_sig FROM seen_files WHERE name=?");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return SeenFile{name, s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.text(4)};
}

void Store::set_seen_manifest(const std::string& name, const std::string& manifest_sig) {
  db_.prepare("UPDATE seen_files SET manifest_sig=? WHERE name=?").bind(1, manifest_sig).bind(2, name).run();
}

ManifestRefresh Store::refresh_manifest(const std::string& sha256, const Manifest& m, ManifestSource source, double now) {
  sqlite::Transaction tx(db_);
  auto get = db_.prepare(
      "SELECT c.id, COALESCE(c.model, ''), COALESCE(c.sample_id, ''), COALESCE(c.problem, ''), c.tags_json,"
      " (SELECT state FROM queue WHERE candidate_id=c.id),"
      " (SELECT v.verdict FROM evaluations e JOIN verdicts v ON v.evaluation_id=e.id"
      "   WHERE e.candidate_id=c.id AND e.state='done' ORDER BY e.id DESC LIMIT 1)"
      " FROM candidates c WHERE c.sha256=?");
  get.bind(1, sha256);
  if (!get.step()) return ManifestRefresh::unchanged;
  const std::int64_t id = get.int64(0);
  const std::string tags = json(m.tags).dump();
  const std::string recorded_problem = get.text(3);
  if (get.text(1) == m.model && get.text(2) == m.sample_id && recorded_problem == m.problem && get.text(4) == tags)
    return ManifestRefresh::unchanged;
  const std::optional<std::string> queue_state = get.optional_text(5);
  const std::optional<std::string> verdict = get.optional_text(6);
  const bool fixes_bad_input = verdict == "bad_input" && !queue_state;
  if (source == ManifestSource::another_file && !fixes_bad_input) return ManifestRefresh::kept;
  // Measured, or being measured, as the recorded problem: that label stays with the verdict.
  const bool problem_fixed = queue_state == "running" || (verdict && *verdict != "bad_input");
  const bool keep_problem = source != ManifestSource::requeue && problem_fixed && recorded_problem != m.problem;
  auto update = db_.prepare("UPDATE candidates SET model=?, sample_id=?, problem=?, tags_json=? WHERE id=?");
  auto text_or_null = [&](int i, const std::string& v) {
    if (v.empty()) update.bind_null(i);
    else update.bind(i, v);
  };
  text_or_null(1, m.model);
  text_or_null(2, m.sample_id);
  text_or_null(3, keep_problem ? recorded_problem : m.problem);
  update.bind(4, tags).bind(5, id).run();
  ManifestRefresh result = keep_problem ? ManifestRefresh::kept_problem : ManifestRefresh::updated;
  if (fixes_bad_input && source != ManifestSource::requeue) {
    db_.prepare("INSERT INTO queue(candidate_id, seq, state, reason, enqueued_at) VALUES(?, ?, 'waiting', 'manifest', ?)")
        .bind(1, id).bind(2, next_seq()).bind(3, now)
        .run();
    result = ManifestRefresh::requeued;
  }
  tx.commit();
  return result;
}

std::optional<std::string> Store::sha_of_seen(const std::string& name) {
  auto s = db_.prepare("SELECT sha256 FROM seen_files WHERE name=?");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

IngestResult Store::add_candidate(const NewCandidate& c, const SeenFile& f, double now) {
  sqlite::Transaction tx(db_);
  IngestResult result = IngestResult::duplicate;
  auto find = db_.prepare("SELECT id FROM candidates WHERE sha256=?");
  find.bind(1, c.sha256);
  if (find.step()) {
    db_.prepare("UPDATE candidates SET drop_count=drop_count+1, last_seen_at=? WHERE id=?")
        .bind(1, now)
        .bind(2, find.int64(0))
        .run();
  } else {
    auto insert = db_.prepare(
        "INSERT INTO candidates(sha256, name, stored_path, size_bytes, model, sample_id, problem,"
        " tags_json, first_seen_at, last_seen_at) VALUES(?,?,?,?,?,?,?,?,?,?)");
    insert.bind(1, c.sha256).bind(2, c.name).bind(3, c.stored_path.string()).bind(4, c.size_bytes);
    if (c.manifest) {
      const auto& m = *c.manifest;
      auto text_or_null = [&](int i, const std::string& v) {
        if (v.empty()) insert.bind_null(i);
        else insert.bind(i, v);
      };
      text_or_null(5, m.model);
      text_or_null(6, m.sample_id);
      text_or_null(7, m.problem);
      insert.bind(8, json(m.tags).dump());
    } else {
      insert.bind_null(5).bind_null(6).bind_null(7).bind(8, std::string("[]"));
    }
    insert.bind(9, now).bind(10, now).run();
    const auto id = db_.last_insert_rowid();
    db_.prepare("INSERT INTO queue(candidate_id, seq, state, reason, enqueued_at)"
                " VALUES(?, ?, 'waiting', 'new', ?)")
        .bind(1, id)
        .bind(2, next_seq())
        .bind(3, now)
        .run();
    result = IngestResult::queued;
  }
  db_.prepare("INSERT OR REPLACE INTO seen_files(name, dev, ino, size, mtime_ns, sha256, manifest_sig)"
              " VALUES(?,?,?,?,?,?,?)")
      .bind(1, f.name).bind(2, f.dev).bind(3, f.ino).bind(4, f.size).bind(5, f.mtime_ns)
      .bind(6, c.sha256).bind(7, f.manifest_sig)
      .run();
  tx.commit();
  return result;
}

std::optional<Job> Store::start_next(const EpochSpan& epoch, const std::string& device,
                                     const std::string& slot, double now) {
  return start_next_where(epoch, device, slot, now, std::nullopt);
}

std::optional<Job> Store::start_next_of_problem(const EpochSpan& epoch, const std::string& device, const std::string& slot,
                                                double now, const std::string& problem) {
  return start_next_where(epoch, device, slot, now, problem);
}

std::optional<Job> Store::start_next_where(const EpochSpan& epoch, const std::string& device, const std::string& slot,
                                           double now, const std::optional<std::string>& problem) {
  sqlite::Transaction tx(db_);
  auto next = db_.prepare(
      "SELECT q.candidate_id, q.attempts, c.sha256, c.name, c.stored_path, COALESCE(c.problem, '')"
      " FROM queue q JOIN candidates c ON c.id = q.candidate_id"
      " WHERE q.state='waiting' AND (?1 IS NULL OR c.problem = ?1) ORDER BY q.seq LIMIT 1");
  if (problem) next.bind(1, *problem);
  else next.bind_null(1);
  if (!next.step()) return std::nullopt;
  Job job;
  job.candidate_id = next.int64(0);
  job.attempt = static_cast<int>(next.int64(1)) + 1;
  job.sha256 = next.text(2);
  job.name = next.text(3);
  job.stored_path = next.text(4);
  job.problem = next.text(5);
  job.epoch = epoch.number;
  db_.prepare("UPDATE queue SET state='running', attempts=? WHERE candidate_id=?")
      .bind(1, job.attempt)
      .bind(2, job.candidate_id)
      .run();
  db_.prepare("INSERT OR IGNORE INTO epochs(number, starts_at, ends_at, first_used_at)"
              " VALUES(?,?,?,?)")
      .bind(1, epoch.number).bind(2, epoch.starts_at_unix_s).bind(3, epoch.ends_at_unix_s)
      .bind(4, now)
      .run();
  db_.prepare("INSERT INTO evaluations(candidate_id, attempt, epoch, device, slot, state, started_at)"
              " VALUES(?,?,?,?,?,'running',?)")
      .bind(1, job.candidate_id).bind(2, job.attempt).bind(3, epoch.number).bind(4, device)
      .bind(5, slot).bind(6, now)
      .run();
  job.evaluation_id = db_.last_insert_rowid();
  tx.commit();
  return job;
}

void Store::set_process(std::int64_t evaluation_id, std::int64_t pgid, std::int64_t start_ticks,
                        const std::string& cgroup) {
  auto update = db_.prepare("UPDATE evaluations SET pgid=?, proc_start_ticks=?, cgroup=? WHERE id=?");
  update.bind(1, pgid).bind(2, start_ticks);
  if (cgroup.empty()) update.bind_null(3);
  else update.bind(3, cgroup);
  update.bind(4, evaluation_id).run();
}

void Store::finish(const Job& job, const Outcome& o, double now) {
  sqlite::Transaction tx(db_);
  db_.prepare("UPDATE evaluations SET state='done', finished_at=?, exit_code=?, term_signal=?,"
              " worker_exit=?, evaluator_seconds=? WHERE id=? AND state='running'")
      .bind(1, now)
      .bind(2, o.exit.exit_code ? std::optional<std::int64_t>(*o.exit.exit_code) : std::nullopt)
      .bind(3, o.exit.term_signal ? std::optional<std::int64_t>(*o.exit.term_signal) : std::nullopt)
      .bind(4, o.worker_exit).bind(5, o.exit.seconds).bind(6, job.evaluation_id)
      .run();
  if (db_.changes() != 1)
    throw sqlite::Error(fmt::format("evaluation {} is not running", job.evaluation_id));
  db_.prepare("INSERT INTO verdicts(evaluation_id, verdict, detail, hack_pattern, failed_family,"
              " flags_json, problem_level, report_json) VALUES(?,?,?,?,?,?,?,?)")
      .bind(1, job.evaluation_id).bind(2, o.verdict).bind(3, o.detail).bind(4, o.hack_pattern)
      .bind(5, o.failed_family).bind(6, o.flags.dump()).bind(7, o.problem_level)
      .bind(8, o.report.is_null() ? std::optional<std::string>() : o.report.dump())
      .run();
  auto figure = db_.prepare("INSERT OR REPLACE INTO figures(evaluation_id, name, value) VALUES(?,?,?)");
  for (const auto& [name, value] : o.figures)
    figure.bind(1, job.evaluation_id).bind(2, name).bind(3, value).run();
  figure.bind(1, job.evaluation_id).bind(2, std::string("evaluator_seconds")).bind(3, o.exit.seconds).run();
  db_.prepare("DELETE FROM queue WHERE candidate_id=?").bind(1, job.candidate_id).run();
  tx.commit();
}

void Store::interrupt(const Job& job, const std::string& note, double now) {
  sqlite::Transaction tx(db_);
  db_.prepare("UPDATE evaluations SET state='interrupted', finished_at=?, note=? WHERE id=? AND"
              " state='running'")
      .bind(1, now).bind(2, note).bind(3, job.evaluation_id)
      .run();
  // Not the candidate's fault (shutdown, evaluator missing): the attempt does not count.
  db_.prepare("UPDATE queue SET state='waiting', attempts=MAX(attempts-1, 0) WHERE candidate_id=?")
      .bind(1, job.candidate_id)
      .run();
  tx.commit();
}

RecoveryReport Store::recover(int max_attempts, double now) {
  RecoveryReport report;
  sqlite::Transaction tx(db_);
  auto running = db_.prepare(
      "SELECT e.id, e.candidate_id, e.pgid, e.proc_start_ticks, COALESCE(q.attempts, e.attempt),"
      " COALESCE(e.cgroup, '')"
      " FROM evaluations e LEFT JOIN queue q ON q.candidate_id = e.candidate_id"
      " WHERE e.state='running'");
  struct Row {
    std::int64_t evaluation, candidate;
    int attempts;
    std::optional<std::pair<std::int64_t, std::int64_t>> process;  // pgid, start ticks
  };
  std::vector<Row> rows;
  // A batch's evaluations share one evaluator process, which takes them in the order of their
  // ids (start_next_where inserts them so), and each verdict is recorded as it comes: of those
  // one process left running, only the lowest had begun.
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> begun_of_process;
  while (running.step()) {
    Row row{running.int64(0), running.int64(1), static_cast<int>(running.int64(4)), std::nullopt};
    if (!running.is_null(2) && !running.is_null(3)) {
      row.process = std::pair{running.int64(2), running.int64(3)};
      const auto [at, first] = begun_of_process.emplace(*row.process, row.evaluation);
      if (first) report.leftovers.push_back({running.int64(2), running.int64(3), running.text(5)});
      else at->second = std::min(at->second, row.evaluation);
    }
    rows.push_back(row);
  }
  for (const auto& r : rows) {
    if (r.process && begun_of_process.at(*r.process) != r.evaluation) {
      // Waiting behind another candidate of its batch: never evaluated, so the attempt does not
      // count (as Store::interrupt).
      db_.prepare("UPDATE evaluations SET state='interrupted', finished_at=?,"
                  " note='daemon stopped before its turn in the batch came' WHERE id=?")
          .bind(1, now).bind(2, r.evaluation)
          .run();
      db_.prepare("UPDATE queue SET attempts=MAX(attempts-1, 0) WHERE candidate_id=?").bind(1, r.candidate).run();
      ++report.requeued;
      ++report.not_begun;
      continue;
    }
    if (r.attempts >= max_attempts) {
      db_.prepare("UPDATE evaluations SET state='done', finished_at=?,"
                  " note='interrupted' WHERE id=?")
          .bind(1, now).bind(2, r.evaluation)
          .run();
      db_.prepare("INSERT INTO verdicts(evaluation_id, verdict, detail) VALUES(?, 'crash', ?)")
          .bind(1, r.evaluation)
          .bind(2, fmt::format("evaluation interrupted {} times (the daemon stopped during each);"
                               " requeue it to try again", r.attempts))
          .run();
      db_.prepare("DELETE FROM queue WHERE candidate_id=?").bind(1, r.candidate).run();
      ++report.given_up;
    } else {
      db_.prepare("UPDATE evaluations SET state='interrupted', finished_at=?,"
                  " note='daemon stopped during the evaluation' WHERE id=?")
          .bind(1, now).bind(2, r.evaluation)
          .run();
      ++report.requeued;
    }
  }
  // Queue rows left running without an evaluation row (cannot happen by construction, but a
  // hand-edited store must not wedge the queue).
  db_.exec("UPDATE queue SET state='waiting' WHERE state='running'");
  tx.commit();
  return report;
}

std::vector<LeftoverProcess> Store::leftovers() {
  std::vector<LeftoverProcess> out;
  auto running = db_.prepare("SELECT pgid, proc_start_ticks, COALESCE(cgroup, '') FROM evaluations"
                             " WHERE state='running' AND pgid IS NOT NULL AND proc_start_ticks IS NOT NULL");
  while (running.step()) out.push_back({running.int64(0), running.int64(1), running.text(2)});
  return out;
}

void Store::probe_write(double now) {
  db_.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('write_probe', ?)")
      .bind(1, std::to_string(now))
      .run();
}

std::int64_t Store::waiting_count() {
  auto s = db_.prepare("SELECT COUNT(*) FROM queue WHERE state='waiting'");
  s.step();
  return s.int64(0);
}

std::int64_t Store::running_count() {
  auto s = db_.prepare("SELECT COUNT(*) FROM queue WHERE state='running'");
  s.step();
  return s.int64(0);
}

json Store::verdict_totals() {
  json totals = json::object();
  auto s = db_.prepare("SELECT verdict, COUNT(*) FROM verdicts GROUP BY verdict ORDER BY verdict");
  while (s.step()) totals[s.text(0)] = s.int64(1);
  return totals;
}

namespace {
// Columns shared by list and show: the candidate, its queue state, its latest verdict.
constexpr const char* kResultColumns =
    "c.id, c.sha256, c.name, c.model, c.sample_id, c.problem, c.tags_json, c.drop_count,"
    " c.first_seen_at, q.state, e.id, e.epoch, e.slot, e.device, e.finished_at,"
    " e.evaluator_seconds, v.verdict, v.detail, v.hack_pattern, v.failed_family,"
    " (SELECT value FROM figures WHERE evaluation_id=e.id AND name='speedup_vs_tf32'),"
    " (SELECT value FROM figures WHERE evaluation_id=e.id AND name='speedup_vs_fp32'),"
    " (SELECT value FROM figures WHERE evaluation_id=e.id AND name='memory_ratio'),"
    " v.flags_json";
constexpr const char* kResultJoins =
    " FROM candidates c LEFT JOIN queue q ON q.candidate_id = c.id"
    " LEFT JOIN evaluations e ON e.id = (SELECT MAX(id) FROM evaluations"
    "   WHERE candidate_id = c.id AND state = 'done')"
    " LEFT JOIN verdicts v ON v.evaluation_id = e.id";

json result_row(const sqlite::Statement& s) {
  json row;
  row["candidate_id"] = s.int64(0);
  row["sha256"] = s.text(1);
  row["name"] = s.text(2);
  row["model"] = optional_json(s.optional_text(3));
  row["sample_id"] = optional_json(s.optional_text(4));
  row["problem"] = optional_json(s.optional_text(5));
  row["tags"] = json::parse(s.text(6), nullptr, false);
  row["drop_count"] = s.int64(7);
  row["first_seen_at"] = s.real(8);
  const auto queue_state = s.optional_text(9);
  row["state"] = queue_state ? (*queue_state == "waiting" ? "queued" : "running")
                             : (s.is_null(10) ? "unknown" : "done");
  if (s.is_null(10)) {
    row["evaluation"] = nullptr;
  } else {
    json e;
    e["id"] = s.int64(10);
    e["epoch"] = s.int64(11);
    e["slot"] = s.text(12);
    e["device"] = s.text(13);
    e["finished_at"] = optional_json(s.optional_real(14));
    e["evaluator_seconds"] = optional_json(s.optional_real(15));
    e["verdict"] = optional_json(s.optional_text(16));
    e["detail"] = optional_json(s.optional_text(17));
    e["hack_pattern"] = optional_json(s.optional_text(18));
    e["failed_family"] = optional_json(s.optional_text(19));
    e["speedup_vs_tf32"] = optional_json(s.optional_real(20));
    e["speedup_vs_fp32"] = optional_json(s.optional_real(21));
    e["memory_ratio"] = optional_json(s.optional_real(22));
    e["flags"] = s.is_null(23) ? json::array() : json::parse(s.text(23), nullptr, false);
    row["evaluation"] = e;
  }
  return row;
}
}  // namespace

json Store::results_list(int limit, const std::string& verdict, const std::string& state) {
  std::string sql = fmt::format("SELECT {} {} WHERE 1=1", kResultColumns, kResultJoins);
  if (!verdict.empty()) sql += " AND v.verdict = ?1";
  if (state == "queued") sql += " AND q.state = 'waiting'";
  else if (state == "running") sql += " AND q.state = 'running'";
  else if (state == "done") sql += " AND q.state IS NULL AND e.id IS NOT NULL";
  else if (!state.empty())
    throw NotFound(fmt::format("unknown state '{}'; use queued, running or done", state));
  sql += " ORDER BY c.id DESC LIMIT ?2";
  auto s = db_.prepare(sql);
  if (!verdict.empty()) s.bind(1, verdict);
  s.bind(2, std::clamp(limit, 1, control::kMaxResultsListed));
  json rows = json::array();
  while (s.step()) rows.push_back(result_row(s));
  return rows;
}

std::int64_t Store::resolve(const std::string& id) {
  const bool digits = !id.empty() && std::all_of(id.begin(), id.end(), ::isdigit);
  if (digits && id.size() < kMinShaPrefix) {
    auto s = db_.prepare("SELECT id FROM candidates WHERE id=?");
    s.bind(1, static_cast<std::int64_t>(std::stoll(id)));
    if (s.step()) return s.int64(0);
    throw NotFound(fmt::format("no candidate number {}", id));
  }
  const bool hex = !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char ch) {
    return std::isdigit(ch) || (ch >= 'a' && ch <= 'f');
  });
  if (!hex || id.size() < kMinShaPrefix || id.size() > 64)
    throw NotFound(fmt::format("'{}' is neither a candidate number nor a sha256 prefix of at least"
                               " {} lowercase hex digits", id, kMinShaPrefix));
  auto s = db_.prepare("SELECT id FROM candidates WHERE substr(sha256, 1, ?) = ? LIMIT 2");
  s.bind(1, static_cast<std::int64_t>(id.size())).bind(2, id);
  if (!s.step()) throw NotFound(fmt::format("no candidate with sha256 starting {}", id));
  const auto found = s.int64(0);
  if (s.step()) throw NotFound(fmt::format("sha256 prefix {} is ambiguous: give more digits", id));
  return found;
}

json Store::results_show(const std::string& id) {
  const auto candidate = resolve(id);
  auto s = db_.prepare(fmt::format("SELECT {} {} WHERE c.id = ?", kResultColumns, kResultJoins));
  s.bind(1, candidate);
  s.step();
  json out = result_row(s);
  auto e = db_.prepare(
      "SELECT e.id, e.attempt, e.epoch, e.device, e.slot, e.state, e.started_at, e.finished_at,"
      " e.exit_code, e.term_signal, e.worker_exit, e.evaluator_seconds, e.note, v.verdict,"
      " v.detail, v.report_json FROM evaluations e LEFT JOIN verdicts v ON v.evaluation_id = e.id"
      " WHERE e.candidate_id = ? ORDER BY e.id");
  e.bind(1, candidate);
  json evaluations = json::array();
  while (e.step()) {
    json row;
    row["id"] = e.int64(0);
    row["attempt"] = e.int64(1);
    row["epoch"] = e.int64(2);
    row["device"] = e.text(3);
    row["slot"] = e.text(4);
    row["state"] = e.text(5);
    row["started_at"] = e.real(6);
    row["finished_at"] = optional_json(e.optional_real(7));
    row["exit_code"] = e.is_null(8) ? json(nullptr) : json(e.int64(8));
    row["term_signal"] = e.is_null(9) ? json(nullptr) : json(e.int64(9));
    row["worker_exit"] = optional_json(e.optional_text(10));
    row["evaluator_seconds"] = optional_json(e.optional_real(11));
    row["note"] = optional_json(e.optional_text(12));
    row["verdict"] = optional_json(e.optional_text(13));
    row["detail"] = optional_json(e.optional_text(14));
    row["report"] = e.is_null(15) ? json(nullptr) : json::parse(e.text(15), nullptr, false);
    evaluations.push_back(std::move(row));
  }
  out["evaluations"] = std::move(evaluations);
  return out;
}

json Store::requeue(const std::string& id, double now) {
  const auto candidate = resolve(id);
  sqlite::Transaction tx(db_);
  auto q = db_.prepare("SELECT state FROM queue WHERE candidate_id=?");
  q.bind(1, candidate);
  if (q.step())
    throw NotFound(fmt::format("candidate {} is already {}", id,
                               q.text(0) == "waiting" ? "queued" : "running"));
  db_.prepare("INSERT INTO queue(candidate_id, seq, state, reason, enqueued_at)"
              " VALUES(?, ?, 'waiting', 'requeue', ?)")
      .bind(1, candidate).bind(2, next_seq()).bind(3, now)
      .run();
  auto sha = db_.prepare("SELECT sha256 FROM candidates WHERE id=?");
  sha.bind(1, candidate);
  sha.step();
  json out{{"sha256", sha.text(0)}, {"candidate_id", candidate}, {"queued", true}};
  tx.commit();
  return out;
}

}  // namespace kbv::kbvd
