// The durable queue and results: candidates, queue, evaluations, verdicts, figures, epochs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "identity/manifest.hpp"
#include "sched/epoch.hpp"
#include "sched/outcome.hpp"
#include "store/sqlite.hpp"

namespace kbv::kbvd {

// A file in the watch folder as last hashed; unchanged files are not hashed again.
struct SeenFile {
  std::string name;
  std::int64_t dev = 0, ino = 0, size = 0, mtime_ns = 0;
  std::string manifest_sig;  // the manifest beside it when it was taken (watch/settle.hpp)
  bool same_file(const SeenFile& o) const {
    return name == o.name && dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

struct NewCandidate {
  std::string sha256;
  std::string name;  // file name as dropped
  std::filesystem::path stored_path;
  std::int64_t size_bytes = 0;
  std::optional<Manifest> manifest;
};

enum class IngestResult { queued, duplicate };
// What a changed manifest did to a known candidate.
enum class ManifestRefresh {
  unchanged,
  updated,       // the fields were taken
  requeued,      // taken, and queued again: its last verdict was bad_input
  kept,          // not taken: the bytes came under another name, and their first manifest stands
  kept_problem,  // model, sample_id and tags taken; the problem kept: a verdict was measured as it
};
// Where a manifest for bytes kbvd already has comes from: the file's own sidecar changed, the
// bytes were dropped under another name, or `kbv requeue` read the sidecar again (the candidate
// is about to be evaluated again: every field is taken, and the caller queues it).
enum class ManifestSource { same_file, another_file, requeue };

// A candidate handed to a slot: the evaluation row already exists in state running.
struct Job {
  std::int64_t candidate_id = 0;
  std::int64_t evaluation_id = 0;
  std::string sha256;
  std::string name;
  std::filesystem::path stored_path;
  std::string problem;  // from the manifest; empty: the evaluator reads it from the .so
  int attempt = 0;
  std::int64_t epoch = 0;
};

// What a daemon that died left running for an evaluation: its cgroup (killed as a whole) or,
// where kbvd had no cgroups, its process group (killed if the leader is still that process).
struct LeftoverProcess {
  std::int64_t pgid = 0;
  std::int64_t start_ticks = 0;
  std::string cgroup;  // empty: none
};

struct RecoveryReport {
  int requeued = 0;       // interrupted evaluations put back in the queue
  int not_begun = 0;      // of those, batch members that had not begun: their attempt is not counted
  int given_up = 0;       // interrupted max_attempts times: recorded as crash
  std::vector<LeftoverProcess> leftovers;
};

class Store {
 public:
  Store(const std::filesystem::path& db_path, const std::string& synchronous);

  // Watcher side.
  bool unchanged(const SeenFile& file);  // same file and same manifest as when taken
  IngestResult add_candidate(const NewCandidate& candidate, const SeenFile& file, double now);
  std::optional<std::string> sha_of_seen(const std::string& name);
  std::optional<SeenFile> seen(const std::string& name);
  void set_seen_manifest(const std::string& name, const std::string& manifest_sig);
  // A changed manifest for the candidate with `sha256`. A candidate whose latest verdict is
  // bad_input (e.g. an unknown problem) and that is not queued takes it whole and goes back to
  // the queue, from either source. Otherwise a verdict measured (or an evaluation running) under
  // one problem is never re-labelled: the same file's manifest may change model, sample_id and
  // tags but not the problem; bytes dropped under another name never rewrite the manifest the
  // first drop gave (identical bytes are one candidate, credited to whoever dropped them first).
  ManifestRefresh refresh_manifest(const std::string& sha256, const Manifest& manifest, ManifestSource source, double now);

  // Scheduler side.
  std::optional<Job> start_next(const EpochSpan& epoch, const std::string& device,
                                const std::string& slot, double now);
  // The oldest waiting candidate whose manifest names `problem` (a batch for the slot's spare).
  std::optional<Job> start_next_of_problem(const EpochSpan& epoch, const std::string& device, const std::string& slot,
                                           double now, const std::string& problem);
  void set_process(std::int64_t evaluation_id, std::int64_t pgid, std::int64_t start_ticks,
                   const std::string& cgroup);
  void finish(const Job& job, const Outcome& outcome, double now);
  // Back to the queue without counting the attempt (shutdown, evaluator could not start).
  void interrupt(const Job& job, const std::string& note, double now);
  RecoveryReport recover(int max_attempts, double now);
  // What evaluations left running by a daemon that died may have left behind (read only: it
  // works on a full disk, so leftovers are killed before recovery can be written).
  std::vector<LeftoverProcess> leftovers();
  // One small write, to learn whether the store takes writes again.
  void probe_write(double now);

  // Control side.
  std::int64_t waiting_count();
  std::int64_t running_count();
  nlohmann::json verdict_totals();
  nlohmann::json results_list(int limit, const std::string& verdict, const std::string& state);
  nlohmann::json results_show(const std::string& id);
  nlohmann::json requeue(const std::string& id, double now);  // {"sha256","queued"} or throws

 private:
  std::optional<Job> start_next_where(const EpochSpan& epoch, const std::string& device, const std::string& slot, double now,
                                      const std::optional<std::string>& problem);
  std::int64_t resolve(const std::string& id);  // candidate id from sha prefix or number
  void create_schema();
  std::int64_t next_seq();

  sqlite::Database db_;
};

// A lookup the user got wrong (unknown or ambiguous id); the control socket reports it.
class NotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbv::kbvd
