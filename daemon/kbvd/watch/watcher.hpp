// Watches the watch folder with inotify (IN_CLOSE_WRITE, IN_MOVED_TO) and rescans it
// periodically as a fallback for lost events; a file is taken only once it has settled
// (watch/settle.hpp): unchanged for watch.settle_s and closed by its writer. Settled files are
// taken one per turn of the event loop (hashing and copying a large .so takes a while), so control
// requests and /metrics are answered between two of them, not after the whole batch.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "store/store_health.hpp"
#include "watch/ingest.hpp"
#include "watch/settle.hpp"

namespace kbv::kbvd {

class Watcher {
 public:
  // `queued` runs after a file added a candidate to the queue.
  Watcher(boost::asio::io_context& io, Ingestor& ingestor, const LiveConfig& config, StoreHealth& health,
          std::function<void()> queued);
  ~Watcher();

  void start();   // creates the folder if needed, watches it, rescans once
  void reload();  // folder, interval or settle time changed
  void stop();
  void rescan();

 private:
  void watch_folder();
  void read_events();
  // A file was seen (by an event: `closed`, or by a rescan): it settles, unless it is known.
  void note(const std::string& name, bool closed);
  void check_settled();
  void schedule_settle_check();
  // `name` settles again from now (as it is on disk; `closed`: its writer is known to be done).
  void settle_again(const std::string& name, bool closed);
  // Settled names wait in to_ingest_; one is taken per posted turn of the loop.
  void post_ingest();
  void ingest_next();
  // Takes one settled file; true when it queued (or requeued) a candidate.
  bool ingest_one(const std::string& name);
  void schedule_rescan();

  boost::asio::io_context& io_;
  Ingestor& ingestor_;
  const LiveConfig& config_;
  StoreHealth& health_;
  std::function<void()> queued_;
  boost::asio::posix::stream_descriptor inotify_;
  boost::asio::steady_timer rescan_timer_, settle_timer_;
  std::filesystem::path watched_dir_;
  int watch_descriptor_ = -1;
  std::vector<char> buffer_;
  Settling settling_;
  std::optional<std::chrono::steady_clock::time_point> settle_check_at_;  // when the armed check runs
  std::deque<std::string> to_ingest_;  // settled, not yet taken, oldest first
  bool ingest_posted_ = false;
  bool stopped_ = false;
};

}  // namespace kbv::kbvd
