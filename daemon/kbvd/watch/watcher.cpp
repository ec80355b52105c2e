// inotify on the io_context plus a rescan timer; manifests retrigger their candidate.
#include "watch/watcher.hpp"

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kEventBuffer = 64u << 10;
// The inbox is shared with submitters of kbvd's group: group-writable, setgid so dropped
// files keep the group.
constexpr fs::perms kInboxPerms = fs::perms::owner_all | fs::perms::group_all | fs::perms::set_gid;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// NAME.so.yaml / NAME.so.json -> NAME.so; a manifest written after its candidate (or fixed after
// a rejection) takes the candidate in.
std::string candidate_for(const std::string& name) {
  for (const char* ext : {".yaml", ".json"})
    if (ends_with(name, std::string(".so") + ext)) return name.substr(0, name.size() - std::strlen(ext));
  return name;
}
}  // namespace

Watcher::Watcher(boost::asio::io_context& io, Ingestor& ingestor, const LiveConfig& config,
                 std::function<void()> queued)
    : io_(io), ingestor_(ingestor), config_(config), queued_(std::move(queued)), inotify_(io),
      rescan_timer_(io), buffer_(kEventBuffer) {}

Watcher::~Watcher() { stop(); }

void Watcher::start() {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0)
    spdlog::warn("inotify unavailable ({}); relying on rescans every {} s", std::strerror(errno),
                 config_.get().watch.rescan_interval_s);
  else
    inotify_.assign(fd);
  watch_folder();
  read_events();
  rescan();
}

void Watcher::watch_folder() {
  const auto& dir = config_.get().watch.dir;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir);
    fs::permissions(dir, kInboxPerms, ec);
  }
  if (!inotify_.is_open()) return;
  if (watch_descriptor_ >= 0 && watched_dir_ != dir)
    ::inotify_rm_watch(inotify_.native_handle(), watch_descriptor_);
  watch_descriptor_ = ::inotify_add_watch(inotify_.native_handle(), dir.c_str(),
                                          IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF |
                                              IN_MOVE_SELF | IN_ONLYDIR);
  if (watch_descriptor_ < 0)
    throw std::runtime_error(fmt::format("{}: inotify_add_watch: {}; fix: check watch.dir",
                                         dir.string(), std::strerror(errno)));
  watched_dir_ = dir;
}

void Watcher::read_events() {
  if (!inotify_.is_open() || stopped_) return;
  inotify_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](auto ec) {
    if (ec || stopped_) return;
    std::vector<std::string> names;
    bool rescan_needed = false;
    for (;;) {
      const ssize_t n = ::read(inotify_.native_handle(), buffer_.data(), buffer_.size());
      if (n <= 0) break;
      for (std::size_t off = 0; off < static_cast<std::size_t>(n);) {
        const auto* ev = reinterpret_cast<const inotify_event*>(buffer_.data() + off);
        off += sizeof(inotify_event) + ev->len;
        if (ev->mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
          rescan_needed = true;
          continue;
        }
        if (ev->len == 0) continue;
        const std::string name = candidate_for(ev->name);
        if (is_candidate_name(name) && std::find(names.begin(), names.end(), name) == names.end())
          names.push_back(name);
      }
    }
    ingest_batch(names);
    if (rescan_needed) {
      spdlog::warn("inotify overflowed or the folder moved: rescanning");
      watch_descriptor_ = -1;
      rescan();
    }
    read_events();
  });
}

void Watcher::ingest_batch(const std::vector<std::string>& names) {
  bool queued = false;
  for (const auto& name : names) {
    IngestReport r;
    try {
      r = ingestor_.ingest(name);
    } catch (const std::exception& e) {
      // The object store or database refused (disk full, permissions): the file stays in the
      // folder and the next rescan retries it.
      spdlog::error("cannot take {}: {}", name, e.what());
      continue;
    }
    switch (r.status) {
      case IngestStatus::queued:
        queued = true;
        warned_.erase(name);
        spdlog::info("queued {} ({})", name, r.sha256.substr(0, 12));
        break;
      case IngestStatus::duplicate:
        spdlog::info("{} is a copy of candidate {}: not evaluated again", name, r.sha256.substr(0, 12));
        break;
      case IngestStatus::rejected:
      case IngestStatus::deferred:
        if (warned_.insert(name).second) spdlog::warn("{}", r.message);
        break;
      case IngestStatus::changing:
        spdlog::debug("{}", r.message);
        break;
      default:
        break;
    }
  }
  if (queued && queued_) queued_();
}

void Watcher::rescan() {
  if (stopped_) return;
  const auto& dir = config_.get().watch.dir;
  try {
    if (watch_descriptor_ < 0 || watched_dir_ != dir) watch_folder();
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const auto name = entry.path().filename().string();
      std::error_code ec;
      if (is_candidate_name(name) && entry.is_regular_file(ec))
        found.emplace_back(entry.last_write_time(ec), name);
    }
    std::sort(found.begin(), found.end());  // oldest first: FIFO in the order they were dropped
    std::vector<std::string> names;
    for (auto& f : found) names.push_back(std::move(f.second));
    ingest_batch(names);
  } catch (const fs::filesystem_error& e) {
    spdlog::error("rescan of {} failed: {}", dir.string(), e.what());
  }
  schedule_rescan();
}

void Watcher::schedule_rescan() {
  rescan_timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(config_.get().watch.rescan_interval_s)));
  rescan_timer_.async_wait([this](auto ec) {
    if (!ec) rescan();
  });
}

void Watcher::reload() {
  rescan();  // re-arms the timer with the new interval, watches a new folder
}

void Watcher::stop() {
  stopped_ = true;
  rescan_timer_.cancel();
  boost::system::error_code ignored;
  inotify_.close(ignored);
}

}  // namespace kbv::kbvd
