// Ingest of one watch-folder file: stat, hash while copying to objects/, manifest, store.
#include "watch/ingest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <vector>

#include "client/printable.hpp"
#include "identity/manifest.hpp"
#include "identity/sha256.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kCopyChunk = 1u << 20;
// Objects are read by the evaluator, which runs as kbvd's user: owner read and write, plus the
// group and other read bits of the dropped file, never more (a file nobody else could read does
// not become readable in objects/).
constexpr mode_t kObjectOwnerMode = 0600;
constexpr mode_t kObjectSharedBits = 0044;
// How many problem names a rejection lists before "…".
constexpr std::size_t kProblemsListed = 12;

using Fd = sandbox::UniqueFd;

// Removes a temporary object unless it was renamed into place.
class TempFile {
 public:
  explicit TempFile(fs::path p) : path_(std::move(p)) {}
  ~TempFile() {
    if (!kept_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  void keep() { kept_ = true; }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool kept_ = false;
};

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::int64_t ns(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; }

FileStamp stamp_from(const struct stat& st, const fs::path& path) {
  return {static_cast<std::int64_t>(st.st_dev), static_cast<std::int64_t>(st.st_ino),
          static_cast<std::int64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim), manifest_stamp(path)};
}

SeenFile seen_from(const std::string& name, const FileStamp& s) {
  return {name, s.dev, s.ino, s.size, s.mtime_ns, s.manifest};
}

// Errors that say the object store's file system is full (or failing), not that the file is bad.
bool store_full(int error) { return error == ENOSPC || error == EDQUOT || error == EFBIG || error == EIO; }

[[noreturn]] void object_write_failed(const fs::path& file, const char* what, int error) {
  const std::string message = fmt::format("{}: {}: {}", file.string(), what, std::strerror(error));
  if (store_full(error)) throw ObjectStoreFull(message);
  throw std::runtime_error(message);
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void sync_dir(const fs::path& dir) {
  Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (d.get() >= 0) ::fsync(d.get());
}

}  // namespace

const char* to_string(IngestStatus s) {
  switch (s) {
    case IngestStatus::queued: return "queued";
    case IngestStatus::duplicate: return "duplicate";
    case IngestStatus::unchanged: return "taken";
    case IngestStatus::requeued: return "requeued";
    case IngestStatus::deferred: return "deferred";
    case IngestStatus::rejected: return "rejected";
    case IngestStatus::not_candidate: return "not_candidate";
    case IngestStatus::vanished: return "vanished";
    case IngestStatus::changing: return "changing";
  }
  return "unknown";
}

bool is_candidate_name(const std::string& name) {
  // No NUL: the file opened (c_str()) would be another than the name checked.
  return name.size() > 3 && name.front() != '.' && name.compare(name.size() - 3, 3, ".so") == 0 &&
         name.find('/') == std::string::npos && name.find('\0') == std::string::npos;
}

Ingestor::Ingestor(Store& store, Metrics& metrics, const LiveConfig& config)
    : store_(store), metrics_(metrics), config_(config) {
  // A copy that a kill -9 interrupted is never finished: its name is only ever this process's
  // (mkostemp), and one kbvd holds the state folder at a time.
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(config_.get().store.state_dir / "objects", error)) {
    if (entry.path().filename().string().rfind(".incoming-", 0) != 0) continue;
    std::error_code removed;
    fs::remove(entry.path(), removed);
    if (!removed) spdlog::info("removed {}, a copy an earlier kbvd left unfinished", printable(entry.path().string()));
  }
}

std::optional<std::string> Ingestor::unknown_problem(const fs::path& candidate, const Manifest& manifest) const {
  if (manifest.problem.empty() || !problems_ || problems_->count(manifest.problem)) return std::nullopt;
  std::vector<std::string> some(problems_->begin(), problems_->end());
  const bool more = some.size() > kProblemsListed;
  some.resize(std::min(some.size(), kProblemsListed));
  return fmt::format("{}: problem: '{}' is not one of the evaluator's {} problems ({}{}); fix: correct it in "
                     "the manifest (kbv problems lists them), or resubmit with kbv submit --manifest",
                     printable(candidate.string() + (fs::exists(candidate.string() + ".json") ? ".json" : ".yaml")),
                     printable(manifest.problem), problems_->size(), fmt::join(some, ", "), more ? ", …" : "");
}

bool Ingestor::settled_before(const std::string& name, const FileStamp& stamp) {
  if (auto it = rejected_.find(name); it != rejected_.end() && it->second.first == stamp) return true;
  return store_.unchanged(seen_from(name, stamp));
}

IngestReport Ingestor::reject(const std::string& name, const FileStamp& stamp, std::string message) {
  IngestReport report;
  report.status = IngestStatus::rejected;
  report.message = std::move(message);
  // The same file as refused before: neither counted nor logged again (rescans see it each time).
  if (auto it = rejected_.find(name); it != rejected_.end() && it->second.first == stamp) {
    report.repeated = true;
    return report;
  }
  rejected_[name] = {stamp, report.message};
  metrics_.candidate_ingested("rejected");
  return report;
}

IngestReport Ingestor::ingest(const std::string& name) {
  const auto& cfg = config_.get();
  IngestReport report;
  if (!is_candidate_name(name)) return report;
  const fs::path path = cfg.watch.dir / name;
  const std::string shown = printable(path.string());

  // O_NOFOLLOW: a symbolic link is refused, never followed to what it names.
  Fd in(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (in.get() < 0) {
    const int error = errno;
    struct stat link {};
    if (error == ENOENT || ::lstat(path.c_str(), &link) != 0) {
      rejected_.erase(name);
      report.status = IngestStatus::vanished;
      report.message = fmt::format("{}: gone", shown);
      return report;
    }
    return reject(name, stamp_from(link, path),
                  error == ELOOP ? fmt::format("{}: a symbolic link; kbvd takes only regular files (fix: drop the file "
                                               "itself, e.g. with kbv submit)", shown)
                                 : fmt::format("{}: cannot open: {} (fix: make it readable by kbvd's user or group)", shown,
                                               std::strerror(error)));
  }
  struct stat before {};
  ::fstat(in.get(), &before);
  const FileStamp stamp = stamp_from(before, path);
  if (!S_ISREG(before.st_mode))
    return reject(name, stamp, fmt::format("{}: not a regular file (fix: drop the candidate file itself)", shown));

  // No writer may hold it open, and none can open it while kbvd copies it (the lease is held
  // until `in` closes; a writer's open waits for it).
  if (open_writers(in.get(), true) == Writers::some) {
    report.status = IngestStatus::changing;
    report.message = fmt::format("{}: still open for writing; taken once its writer closes it", shown);
    return report;
  }
  if (before.st_size == 0)
    return reject(name, stamp, fmt::format("{}: empty file", shown));
  if (static_cast<std::uint64_t>(before.st_size) > cfg.watch.max_file_bytes)
    return reject(name, stamp, fmt::format("{}: larger than watch.max_file_bytes ({})", shown, cfg.watch.max_file_bytes));

  const SeenFile seen = seen_from(name, stamp);
  if (store_.unchanged(seen)) {
    report.status = IngestStatus::unchanged;
    report.sha256 = store_.sha_of_seen(name).value_or("");
    return report;
  }
  if (const auto known = store_.seen(name); known && known->same_file(seen))
    return manifest_changed(name, stamp, path);
  if (static_cast<std::uint64_t>(store_.waiting_count()) >= cfg.queue.max_depth) {
    report.status = IngestStatus::deferred;
    report.message = fmt::format("queue holds queue.max_depth ({}) candidates", cfg.queue.max_depth);
    return report;
  }

  NewCandidate candidate;
  candidate.name = name;
  candidate.size_bytes = before.st_size;
  try {
    candidate.manifest = load_manifest_beside(path);
  } catch (const ManifestError& e) {
    return reject(name, stamp, printable(e.what()));
  }
  if (candidate.manifest)
    if (auto refusal = unknown_problem(path, *candidate.manifest)) return reject(name, stamp, std::move(*refusal));

  const fs::path objects = cfg.store.state_dir / "objects";
  std::string temp_name = (objects / ".incoming-XXXXXX").string();
  const int temp_fd = ::mkostemp(temp_name.data(), O_CLOEXEC);
  if (temp_fd < 0) object_write_failed(temp_name, "cannot create", errno);
  Fd out(temp_fd);
  TempFile temp(temp_name);
  Sha256 hash;
  std::vector<char> buffer(kCopyChunk);
  for (;;) {
    const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return reject(name, stamp, fmt::format("{}: read: {}", shown, std::strerror(errno)));
    if (n == 0) break;
    hash.update(buffer.data(), static_cast<std::size_t>(n));
    if (!write_all(out.get(), buffer.data(), static_cast<std::size_t>(n))) object_write_failed(temp_name, "write", errno);
  }
  struct stat after {};
  ::fstat(in.get(), &after);
  if (after.st_size != before.st_size || ns(after.st_mtim) != ns(before.st_mtim) || ns(after.st_ctim) != ns(before.st_ctim)) {
    report.status = IngestStatus::changing;
    report.message = fmt::format("{}: changed while being read; will retry", shown);
    return report;
  }
  candidate.sha256 = hash.hex();
  report.sha256 = candidate.sha256;
  candidate.stored_path = objects / (candidate.sha256 + ".so");
  ::fchmod(out.get(), kObjectOwnerMode | (before.st_mode & kObjectSharedBits));
  if (cfg.store.synchronous == "full" && ::fsync(out.get()) != 0) object_write_failed(temp_name, "fsync", errno);
  std::error_code ec;
  if (!fs::exists(candidate.stored_path, ec)) {
    if (::rename(temp.path().c_str(), candidate.stored_path.c_str()) != 0)
      object_write_failed(candidate.stored_path, "rename", errno);
    temp.keep();
    if (cfg.store.synchronous == "full") sync_dir(objects);
  }

  const auto result = store_.add_candidate(candidate, seen, unix_now());
  rejected_.erase(name);
  report.status = result == IngestResult::queued ? IngestStatus::queued : IngestStatus::duplicate;
  metrics_.candidate_ingested(result == IngestResult::queued ? "queued" : "duplicate");
  // The same bytes again: with a manifest that fixes what made them bad input, queued again;
  // any other manifest leaves the one their first drop gave (Store::refresh_manifest).
  if (result == IngestResult::duplicate && candidate.manifest) {
    const auto refreshed = store_.refresh_manifest(candidate.sha256, *candidate.manifest, ManifestSource::another_file, unix_now());
    if (refreshed == ManifestRefresh::requeued) {
      report.status = IngestStatus::requeued;
      report.message = "its manifest changed; queued again (its last verdict was bad_input)";
    } else if (refreshed == ManifestRefresh::kept) {
      report.message = "the same bytes are already a candidate; their first manifest stands and this one is not used";
      spdlog::warn("{}: the same bytes as a known candidate (sha256 {}); its manifest differs from the one recorded and is not used "
                   "(identical bytes are one candidate, credited to their first drop)",
                   printable(name), candidate.sha256.substr(0, 12));
    }
  }
  return report;
}

// The file was taken before; only its manifest is new.
IngestReport Ingestor::manifest_changed(const std::string& name, const FileStamp& stamp, const fs::path& path) {
  IngestReport report;
  report.sha256 = store_.sha_of_seen(name).value_or("");
  std::optional<Manifest> manifest;
  try {
    manifest = load_manifest_beside(path);
  } catch (const ManifestError& e) {
    return reject(name, stamp, printable(e.what()));
  }
  report.status = IngestStatus::unchanged;
  if (manifest) {
    if (!manifest->problem.empty() && problems_ && !problems_->count(manifest->problem))
      return reject(name, stamp, fmt::format("{}: problem: '{}' is not one of the evaluator's problems; fix: correct it "
                                             "(kbv problems lists them)", printable(path.string()),
                                             printable(manifest->problem)));
    const auto refreshed = store_.refresh_manifest(report.sha256, *manifest, ManifestSource::same_file, unix_now());
    if (refreshed == ManifestRefresh::requeued) {
      report.status = IngestStatus::requeued;
      report.message = "its manifest changed; queued again (its last verdict was bad_input)";
    } else if (refreshed == ManifestRefresh::updated) {
      report.message = "its manifest changed: model, sample_id, problem and tags updated";
    } else if (refreshed == ManifestRefresh::kept_problem) {
      report.message = "its manifest changed: model, sample_id and tags updated; the problem is kept, as its verdict was measured for it";
      spdlog::warn("{}: its manifest names another problem, but a verdict was measured (or is being measured) for the recorded one; "
                   "the problem is kept", printable(name));
    }
  }
  rejected_.erase(name);
  store_.set_seen_manifest(name, stamp.manifest);
  return report;
}

}  // namespace kbv::kbvd
