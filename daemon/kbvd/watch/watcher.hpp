// Watches the watch folder with inotify (IN_CLOSE_WRITE, IN_MOVED_TO) and rescans it
// periodically as a fallback for lost events.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "watch/ingest.hpp"

namespace kbv::kbvd {

class Watcher {
 public:
  // `queued` runs after a batch of files added at least one candidate to the queue.
  Watcher(boost::asio::io_context& io, Ingestor& ingestor, const LiveConfig& config,
          std::function<void()> queued);
  ~Watcher();

  void start();   // creates the folder if needed, watches it, rescans once
  void reload();  // folder or interval changed
  void stop();
  void rescan();

 private:
  void watch_folder();
  void read_events();
  void ingest_batch(const std::vector<std::string>& names);
  void schedule_rescan();

  boost::asio::io_context& io_;
  Ingestor& ingestor_;
  const LiveConfig& config_;
  std::function<void()> queued_;
  boost::asio::posix::stream_descriptor inotify_;
  boost::asio::steady_timer rescan_timer_;
  std::filesystem::path watched_dir_;
  int watch_descriptor_ = -1;
  std::vector<char> buffer_;
  std::set<std::string> warned_;  // rejected names already logged (no log flood on rescans)
  bool stopped_ = false;
};

}  // namespace kbv::kbvd
