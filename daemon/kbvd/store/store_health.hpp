// store/store_health.hpp — whether the store takes writes, and what kbvd does when it does not
// (disk full, an I/O error): it degrades instead of exiting. No new evaluation starts and no file
// is taken from the watch folder; finished evaluations are kept in memory and written, in order,
// once a retry finds the store writable again; then work resumes by itself. SQLite's transactions
// keep the store whole throughout: a failed write leaves the state before it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "metrics/metrics.hpp"
#include "store/store.hpp"

namespace kbv::kbvd {

// How often a degraded kbvd tries the store again: work resumes within seconds of space coming
// back, and a probe every two seconds costs nothing while the disk stays full.
inline constexpr std::chrono::seconds kStoreRetry{2};

// A result the store could not take yet.
struct UnsavedResult {
  Job job;
  std::optional<Outcome> outcome;  // none: the evaluation was interrupted (requeue, with `note`)
  std::string note;
  double at = 0;  // when it ended (Unix seconds)
};

class StoreHealth {
 public:
  StoreHealth(boost::asio::io_context& io, Store& store, Metrics& metrics);

  bool writable() const { return !degraded_; }
  // Runs `write`. A transient store failure (sqlite::Error::transient) degrades kbvd and returns
  // false; any other error propagates.
  bool attempt(const std::string& what, const std::function<void()>& write);
  // Degrades because of a write outside SQLite (the object store: ENOSPC copying a candidate).
  void failed(const std::string& what, const std::string& error);
  // A finished evaluation whose write failed: written once the store takes writes again.
  void keep(UnsavedResult result);
  // Start-up recovery that could not be written: retried before anything else.
  void recovery_pending(std::function<void()> recover);
  // Runs after the store became writable again (the scheduler pumps, the watcher rescans).
  void on_resumed(std::function<void()> resumed) { resumed_.push_back(std::move(resumed)); }

  std::size_t unsaved() const { return unsaved_.size(); }
  nlohmann::json status() const;  // {"writable", "error", "degraded_since", "unsaved_results"}

 private:
  void degrade(const std::string& what, const std::string& error);
  void retry();
  bool write_unsaved(const UnsavedResult& result);

  boost::asio::io_context& io_;
  Store& store_;
  Metrics& metrics_;
  boost::asio::steady_timer retry_timer_;
  bool degraded_ = false;
  std::string error_;
  double degraded_since_ = 0;
  std::deque<UnsavedResult> unsaved_;
  std::function<void()> recovery_;
  std::vector<std::function<void()>> resumed_;
};

}  // namespace kbv::kbvd
