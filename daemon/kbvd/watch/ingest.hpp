// Takes one file from the watch folder: hash it (its identity), copy it into the content-
// addressed object store, read its manifest, and queue it once.
#pragma once

#include <string>

#include "config/live_config.hpp"
#include "metrics/metrics.hpp"
#include "store/store.hpp"

namespace kbv::kbvd {

enum class IngestStatus {
  queued,        // a new candidate, now in the queue
  duplicate,     // the same bytes were seen before: not evaluated again
  unchanged,     // "taken": this file was already taken (same name, inode, size, mtime)
  deferred,      // the queue is full (queue.max_depth): left in the folder for a later rescan
  rejected,      // unusable (bad manifest, too large, empty, not a regular file)
  not_candidate, // not a NAME.so (temporary names, dotfiles, manifests)
  vanished,      // gone before it could be read
  changing,      // still being written (size or mtime moved while copying)
};

const char* to_string(IngestStatus status);

struct IngestReport {
  IngestStatus status = IngestStatus::not_candidate;
  std::string sha256;
  std::string message;
};

// True for names kbvd takes: NAME.so, not hidden (the atomic-publish temp names start with '.').
bool is_candidate_name(const std::string& name);

class Ingestor {
 public:
  Ingestor(Store& store, Metrics& metrics, const LiveConfig& config);
  IngestReport ingest(const std::string& name);

 private:
  Store& store_;
  Metrics& metrics_;
  const LiveConfig& config_;
};

}  // namespace kbv::kbvd
