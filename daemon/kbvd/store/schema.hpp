// The SQLite schema of kbvd's store (version 2) and the migration from version 1.
#pragma once

namespace kbv::kbvd {

inline constexpr int kSchemaVersion = 2;

inline constexpr const char* kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS candidates(
  id INTEGER PRIMARY KEY,
  sha256 TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  stored_path TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  model TEXT, sample_id TEXT, problem TEXT,
  tags_json TEXT NOT NULL DEFAULT '[]',
  first_seen_at REAL NOT NULL,
  last_seen_at REAL NOT NULL,
  drop_count INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS queue(
  candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id),
  seq INTEGER NOT NULL,
  state TEXT NOT NULL CHECK(state IN ('waiting', 'running')),
  attempts INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL,
  enqueued_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS queue_order ON queue(state, seq);
CREATE TABLE IF NOT EXISTS epochs(
  number INTEGER PRIMARY KEY,
  starts_at REAL NOT NULL,
  ends_at REAL NOT NULL,
  first_used_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS evaluations(
  id INTEGER PRIMARY KEY,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  attempt INTEGER NOT NULL,
  epoch INTEGER NOT NULL REFERENCES epochs(number),
  device TEXT NOT NULL,
  slot TEXT NOT NULL,
  state TEXT NOT NULL CHECK(state IN ('running', 'done', 'interrupted')),
  started_at REAL NOT NULL,
  finished_at REAL,
  pgid INTEGER, proc_start_ticks INTEGER,
  exit_code INTEGER, term_signal INTEGER, worker_exit TEXT,
  evaluator_seconds REAL, note TEXT,
  cgroup TEXT);
CREATE INDEX IF NOT EXISTS evaluations_by_candidate ON evaluations(candidate_id, state, id);
-- At most one evaluation of a candidate is in flight, whatever happens to the daemon.
CREATE UNIQUE INDEX IF NOT EXISTS one_running_per_candidate
  ON evaluations(candidate_id) WHERE state = 'running';
CREATE TABLE IF NOT EXISTS verdicts(
  evaluation_id INTEGER PRIMARY KEY REFERENCES evaluations(id),
  verdict TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  hack_pattern TEXT, failed_family TEXT,
  flags_json TEXT NOT NULL DEFAULT '[]',
  problem_level TEXT,
  report_json TEXT);
CREATE TABLE IF NOT EXISTS figures(
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  name TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY(evaluation_id, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seen_files(
  name TEXT PRIMARY KEY,
  dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  manifest_sig TEXT NOT NULL DEFAULT '');
)sql";

// Version 1 -> 2: the evaluator's cgroup (recovery kills it as a whole) and the manifest a
// file was taken with (a changed manifest is looked at again).
inline constexpr const char* kMigrateFrom1 = R"sql(
ALTER TABLE evaluations ADD COLUMN cgroup TEXT;
ALTER TABLE seen_files ADD COLUMN manifest_sig TEXT NOT NULL DEFAULT '';
UPDATE meta SET value='2' WHERE key='schema_version';
)sql";

}  // namespace kbv::kbvd
