// Ingest of one watch-folder file: stat, hash while copying to objects/, manifest, store.
#include "watch/ingest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <vector>

#include "identity/manifest.hpp"
#include "identity/sha256.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kCopyChunk = 1u << 20;
constexpr mode_t kObjectMode = 0644;  // the evaluator (same user, or a group member) reads it

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

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

std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
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
    case IngestStatus::deferred: return "deferred";
    case IngestStatus::rejected: return "rejected";
    case IngestStatus::not_candidate: return "not_candidate";
    case IngestStatus::vanished: return "vanished";
    case IngestStatus::changing: return "changing";
  }
  return "unknown";
}

bool is_candidate_name(const std::string& name) {
  return name.size() > 3 && name.front() != '.' && name.compare(name.size() - 3, 3, ".so") == 0 &&
         name.find('/') == std::string::npos;
}

Ingestor::Ingestor(Store& store, Metrics& metrics, const LiveConfig& config)
    : store_(store), metrics_(metrics), config_(config) {}

IngestReport Ingestor::ingest(const std::string& name) {
  const auto& cfg = config_.get();
  IngestReport report;
  if (!is_candidate_name(name)) return report;
  const fs::path path = cfg.watch.dir / name;

  Fd in(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (in.get() < 0) {
    report.status = errno == ENOENT ? IngestStatus::vanished : IngestStatus::rejected;
    report.message = fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno));
    if (report.status == IngestStatus::rejected) metrics_.candidate_ingested("rejected");
    return report;
  }
  struct stat before {};
  ::fstat(in.get(), &before);
  const SeenFile seen{name, static_cast<std::int64_t>(before.st_dev),
                      static_cast<std::int64_t>(before.st_ino),
                      static_cast<std::int64_t>(before.st_size), mtime_ns(before)};
  if (!S_ISREG(before.st_mode) || before.st_size == 0 ||
      static_cast<std::uint64_t>(before.st_size) > cfg.watch.max_file_bytes) {
    report.status = IngestStatus::rejected;
    report.message = !S_ISREG(before.st_mode) ? "not a regular file"
                     : before.st_size == 0    ? "empty file"
                                              : fmt::format("larger than watch.max_file_bytes ({})",
                                                            cfg.watch.max_file_bytes);
    report.message = fmt::format("{}: {}", path.string(), report.message);
    metrics_.candidate_ingested("rejected");
    return report;
  }
  if (store_.unchanged(seen)) {
    report.status = IngestStatus::unchanged;
    report.sha256 = store_.sha_of_seen(name).value_or("");
    return report;
  }
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
    report.status = IngestStatus::rejected;
    report.message = e.what();
    metrics_.candidate_ingested("rejected");
    return report;
  }

  const fs::path objects = cfg.store.state_dir / "objects";
  std::string temp_name = (objects / ".incoming-XXXXXX").string();
  const int temp_fd = ::mkostemp(temp_name.data(), O_CLOEXEC);
  if (temp_fd < 0)
    throw std::runtime_error(fmt::format("{}: cannot create: {}", temp_name, std::strerror(errno)));
  Fd out(temp_fd);
  TempFile temp(temp_name);
  Sha256 hash;
  std::vector<char> buffer(kCopyChunk);
  for (;;) {
    const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      report.status = IngestStatus::rejected;
      report.message = fmt::format("{}: read: {}", path.string(), std::strerror(errno));
      metrics_.candidate_ingested("rejected");
      return report;
    }
    if (n == 0) break;
    hash.update(buffer.data(), static_cast<std::size_t>(n));
    if (!write_all(out.get(), buffer.data(), static_cast<std::size_t>(n)))
      throw std::runtime_error(fmt::format("{}: write: {}", temp_name, std::strerror(errno)));
  }
  struct stat after {};
  ::fstat(in.get(), &after);
  if (after.st_size != before.st_size || mtime_ns(after) != mtime_ns(before)) {
    report.status = IngestStatus::changing;
    report.message = fmt::format("{}: changed while being read; will retry", path.string());
    return report;
  }
  candidate.sha256 = hash.hex();
  report.sha256 = candidate.sha256;
  candidate.stored_path = objects / (candidate.sha256 + ".so");
  ::fchmod(out.get(), kObjectMode);
  if (cfg.store.synchronous == "full") ::fsync(out.get());
  std::error_code ec;
  if (!fs::exists(candidate.stored_path, ec)) {
    if (::rename(temp.path().c_str(), candidate.stored_path.c_str()) != 0)
      throw std::runtime_error(fmt::format("{}: rename: {}", candidate.stored_path.string(),
                                           std::strerror(errno)));
    temp.keep();
    if (cfg.store.synchronous == "full") sync_dir(objects);
  }

  const auto result = store_.add_candidate(candidate, seen, unix_now());
  report.status = result == IngestResult::queued ? IngestStatus::queued : IngestStatus::duplicate;
  metrics_.candidate_ingested(result == IngestResult::queued ? "queued" : "duplicate");
  return report;
}

}  // namespace kbv::kbvd
