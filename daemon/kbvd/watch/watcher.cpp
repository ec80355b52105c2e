// inotify on the io_context plus a rescan timer; files settle before they are taken; manifests
// retrigger their candidate.
#include "watch/watcher.hpp"

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "client/printable.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kEventBuffer = 64u << 10;
// The inbox is shared with submitters of kbvd's group: group-writable, setgid so dropped
// files keep the group.
// Sticky: a submitter may remove or replace only its own drops, not another's (review).
constexpr fs::perms kInboxPerms = fs::perms::owner_all | fs::perms::group_all | fs::perms::set_gid | fs::perms::sticky_bit;

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

std::chrono::milliseconds settle_time(const Config& c) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(c.watch.settle_s * 1000));
}
}  // namespace

Watcher::Watcher(boost::asio::io_context& io, Ingestor& ingestor, const LiveConfig& config, StoreHealth& health,
                 std::function<void()> queued)
    : io_(io), ingestor_(ingestor), config_(config), health_(health), queued_(std::move(queued)), inotify_(io),
      rescan_timer_(io), settle_timer_(io), buffer_(kEventBuffer), settling_(settle_time(config.get())) {}

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
  if (!fs::exists(dir, ec)) fs::create_directories(dir);
  // Every start, on an inbox an older kbvd made without the sticky bit too (best effort: one kbvd
  // does not own is left as its owner made it).
  fs::permissions(dir, kInboxPerms, ec);
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
        // Closed after writing, or renamed in: its writer is done with it (for now).
        if (is_candidate_name(name)) note(name, true);
      }
    }
    if (rescan_needed) {
      spdlog::warn("inotify overflowed or the folder moved: rescanning");
      watch_descriptor_ = -1;
      rescan();
    }
    schedule_settle_check();
    read_events();
  });
}

void Watcher::note(const std::string& name, bool closed) {
  const auto stamp = stamp_of(config_.get().watch.dir, name);
  if (!stamp) {
    settling_.forget(name);
    return;
  }
  // Taken before, or refused before as it is now: nothing to wait for (rescans see every file).
  if (!settling_.contains(name) && ingestor_.settled_before(name, *stamp)) return;
  // Settled and waiting its turn to be taken: taken as it is when its turn comes.
  if (std::find(to_ingest_.begin(), to_ingest_.end(), name) != to_ingest_.end()) return;
  settling_.seen(name, *stamp, closed, Settling::Clock::now());
}

void Watcher::check_settled() {
  if (stopped_) return;
  // A store that refuses writes takes no new work: files wait in the folder (and keep settling).
  if (!health_.writable()) return schedule_settle_check();
  const auto& dir = config_.get().watch.dir;
  const auto ready = settling_.ready(
      Settling::Clock::now(), [&](const std::string& name) { return stamp_of(dir, name); },
      [&](const std::string& name) { return open_writers(dir / name); });
  for (const auto& name : ready)
    if (std::find(to_ingest_.begin(), to_ingest_.end(), name) == to_ingest_.end()) to_ingest_.push_back(name);
  post_ingest();
  schedule_settle_check();
}

void Watcher::schedule_settle_check() {
  const auto next = settling_.next_check(Settling::Clock::now());
  // A check already due sooner stays: frequent events or rescans must not keep pushing it back.
  if (!next || (settle_check_at_ && *settle_check_at_ <= *next)) return;
  settle_check_at_ = *next;
  settle_timer_.expires_at(*next);
  settle_timer_.async_wait([this](auto ec) {
    if (ec) return;
    settle_check_at_.reset();
    check_settled();
  });
}

void Watcher::settle_again(const std::string& name, bool closed) {
  settling_.seen(name, stamp_of(config_.get().watch.dir, name).value_or(FileStamp{}), closed, Settling::Clock::now());
}

void Watcher::post_ingest() {
  if (ingest_posted_ || to_ingest_.empty() || stopped_) return;
  ingest_posted_ = true;
  boost::asio::post(io_, [this] {
    ingest_posted_ = false;
    if (stopped_) return;
    ingest_next();
    post_ingest();
  });
}

void Watcher::ingest_next() {
  if (to_ingest_.empty()) return;
  if (!health_.writable()) {
    // The store refuses writes now: the waiting files settle again and are taken once it recovers.
    for (const auto& name : to_ingest_) settle_again(name, true);
    to_ingest_.clear();
    schedule_settle_check();
    return;
  }
  const std::string name = to_ingest_.front();
  to_ingest_.pop_front();
  if (ingest_one(name) && queued_) queued_();
}

bool Watcher::ingest_one(const std::string& name) {
  bool queued = false;
  IngestReport r;
  try {
    r = ingestor_.ingest(name);
  } catch (const ObjectStoreFull& e) {
    health_.failed("copy a candidate into the object store", e.what());
    settle_again(name, true);
    return false;
  } catch (const sqlite::Error& e) {
    if (!e.transient()) throw;
    health_.failed("record a candidate", e.what());
    settle_again(name, true);
    return false;
  } catch (const std::exception& e) {
    // Permissions of objects/ and the like: the file stays in the folder and the next rescan
    // retries it.
    spdlog::error("cannot take {}: {}", printable(name), printable(e.what()));
    return false;
  }
  switch (r.status) {
    case IngestStatus::queued:
      queued = true;
      spdlog::info("queued {} ({})", printable(name), r.sha256.substr(0, 12));
      break;
    case IngestStatus::requeued:
      queued = true;
      spdlog::info("{} ({}): {}", printable(name), r.sha256.substr(0, 12), r.message);
      break;
    case IngestStatus::duplicate:
      spdlog::info("{} is a copy of candidate {}: not evaluated again", printable(name), r.sha256.substr(0, 12));
      break;
    case IngestStatus::unchanged:
      if (!r.message.empty()) spdlog::info("{} ({}): {}", printable(name), r.sha256.substr(0, 12), r.message);
      break;
    case IngestStatus::rejected:
      // Logged once per version of the file and its manifest: each fix is looked at again.
      if (!r.repeated) spdlog::warn("{}", r.message);
      break;
    case IngestStatus::deferred:
      spdlog::debug("{}: {}", printable(name), r.message);
      break;
    case IngestStatus::changing:
      spdlog::debug("{}", r.message);
      settle_again(name, false);
      break;
    default:
      break;
  }
  return queued;
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
    for (const auto& f : found) note(f.second, false);
  } catch (const std::exception& e) {
    // The folder vanished, became a file, or cannot be made: kbvd keeps running and tries again
    // at the next rescan (what is queued is not lost; nothing new is taken meanwhile).
    spdlog::error("rescan of {} failed: {}; retrying every {} s", dir.string(), e.what(), config_.get().watch.rescan_interval_s);
    if (watch_descriptor_ >= 0 && inotify_.is_open()) ::inotify_rm_watch(inotify_.native_handle(), watch_descriptor_);
    watch_descriptor_ = -1;  // watched again once the folder is back
  }
  schedule_settle_check();
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
  settling_.set_settle(settle_time(config_.get()));
  rescan();  // re-arms the timer with the new interval, watches a new folder
}

void Watcher::stop() {
  stopped_ = true;
  rescan_timer_.cancel();
  settle_timer_.cancel();
  settle_check_at_.reset();
  boost::system::error_code ignored;
  inotify_.close(ignored);
}

}  // namespace kbv::kbvd
