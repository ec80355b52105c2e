// Takes one file from the watch folder: hash it (its identity), copy it into the content-
// addressed object store, read its manifest, and queue it once.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "config/live_config.hpp"
#include "metrics/metrics.hpp"
#include "store/store.hpp"
#include "watch/settle.hpp"

namespace kbv::kbvd {

enum class IngestStatus {
  queued,        // a new candidate, now in the queue
  duplicate,     // the same bytes were seen before: not evaluated again
  unchanged,     // "taken": this file was already taken (same name, inode, size, mtime, manifest)
  requeued,      // a fixed manifest for a candidate that was refused as bad input: queued again
  deferred,      // the queue is full (queue.max_depth): left in the folder for a later rescan
  rejected,      // unusable (bad manifest, unknown problem, too large, empty, not a regular file)
  not_candidate, // not a NAME.so (temporary names, dotfiles, manifests)
  vanished,      // gone before it could be read
  changing,      // still being written (open for writing, or it changed while being copied)
};

const char* to_string(IngestStatus status);

struct IngestReport {
  IngestStatus status = IngestStatus::not_candidate;
  std::string sha256;
  std::string message;
  // A rejection of this very file (same bytes, same manifest) was reported before: not counted
  // or logged again.
  bool repeated = false;
};

// A write to the object store failed for lack of space (ENOSPC, EDQUOT, EFBIG) or an I/O error:
// the store is degraded, not the file at fault.
class ObjectStoreFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// True for names kbvd takes: NAME.so, not hidden (the atomic-publish temp names start with '.').
bool is_candidate_name(const std::string& name);

class Ingestor {
 public:
  Ingestor(Store& store, Metrics& metrics, const LiveConfig& config);

  // The problems the evaluator knows (kbv problems --json); a manifest naming another one is
  // refused at once. Unset: not checked (the evaluator says bad_input instead).
  void set_known_problems(std::optional<std::set<std::string>> problems) { problems_ = std::move(problems); }

  IngestReport ingest(const std::string& name);
  // The refusal (file, field, fix) of a manifest naming a problem the evaluator does not know;
  // nothing when it names a known one, none, or the list is unset. `candidate`: the .so's path.
  std::optional<std::string> unknown_problem(const std::filesystem::path& candidate, const Manifest& manifest) const;
  // Whether `name` as stamped needs no look: already taken, or refused before as it is now.
  bool settled_before(const std::string& name, const FileStamp& stamp);

 private:
  IngestReport reject(const std::string& name, const FileStamp& stamp, std::string message);
  IngestReport manifest_changed(const std::string& name, const FileStamp& stamp, const std::filesystem::path& path);

  Store& store_;
  Metrics& metrics_;
  const LiveConfig& config_;
  std::optional<std::set<std::string>> problems_;
  std::map<std::string, std::pair<FileStamp, std::string>> rejected_;  // name -> (stamp, message)
};

}  // namespace kbv::kbvd
