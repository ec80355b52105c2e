// daemon/kbvd/store/store_health.cpp — degraded mode when the store refuses writes, with retries
// and resumption (see store_health.hpp).
#include "store/store_health.hpp"

#include <spdlog/spdlog.h>

#include "client/printable.hpp"

namespace kbv::kbvd {
namespace {
double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

StoreHealth::StoreHealth(boost::asio::io_context& io, Store& store, Metrics& metrics)
    : io_(io), store_(store), metrics_(metrics), retry_timer_(io) {
  metrics_.set_store_writable(true);
  metrics_.set_unsaved_results(0);
}

bool StoreHealth::attempt(const std::string& what, const std::function<void()>& write) {
  try {
    write();
    return true;
  } catch (const sqlite::Error& e) {
    if (!e.transient()) throw;
    degrade(what, e.what());
    return false;
  }
}

void StoreHealth::failed(const std::string& what, const std::string& error) { degrade(what, error); }

void StoreHealth::degrade(const std::string& what, const std::string& error) {
  metrics_.store_write_failed();
  if (!degraded_) {
    degraded_ = true;
    degraded_since_ = unix_now();
    metrics_.set_store_writable(false);
    spdlog::error("the store cannot be written ({}: {}): no new work is taken; finished results are kept "
                  "in memory and written when it can be; retrying every {} s; fix: free space on the file "
                  "system of store.state_dir",
                  what, printable(error), kStoreRetry.count());
    retry_timer_.expires_after(kStoreRetry);
    retry_timer_.async_wait([this](auto ec) {
      if (!ec) retry();
    });
  }
  error_ = what + ": " + error;
}

void StoreHealth::keep(UnsavedResult result) {
  spdlog::warn("{} ({}) finished but its {} is not recorded yet: kept in memory until the store can be written",
               printable(result.job.name), result.job.sha256.substr(0, 12), result.outcome ? "verdict" : "requeue");
  unsaved_.push_back(std::move(result));
  metrics_.set_unsaved_results(static_cast<double>(unsaved_.size()));
}

void StoreHealth::recovery_pending(std::function<void()> recover) { recovery_ = std::move(recover); }

bool StoreHealth::write_unsaved(const UnsavedResult& r) {
  if (r.outcome) return attempt("record a verdict", [&] { store_.finish(r.job, *r.outcome, r.at); });
  return attempt("requeue an evaluation", [&] { store_.interrupt(r.job, r.note, r.at); });
}

void StoreHealth::retry() {
  const auto again = [this] {
    retry_timer_.expires_after(kStoreRetry);
    retry_timer_.async_wait([this](auto ec) {
      if (!ec) retry();
    });
  };
  if (recovery_) {
    if (!attempt("recover interrupted evaluations", recovery_)) return again();
    recovery_ = nullptr;
  }
  std::size_t written = 0;
  while (!unsaved_.empty()) {
    if (!write_unsaved(unsaved_.front())) {
      metrics_.set_unsaved_results(static_cast<double>(unsaved_.size()));
      return again();
    }
    unsaved_.pop_front();
    ++written;
  }
  metrics_.set_unsaved_results(0);
  if (!attempt("probe the store", [this] { store_.probe_write(unix_now()); })) return again();
  spdlog::info("the store takes writes again after {:.0f} s ({} kept results written): resuming work",
               unix_now() - degraded_since_, written);
  degraded_ = false;
  error_.clear();
  metrics_.set_store_writable(true);
  for (const auto& resumed : resumed_) resumed();
}

nlohmann::json StoreHealth::status() const {
  return {{"writable", !degraded_},
          {"error", degraded_ ? nlohmann::json(error_) : nlohmann::json(nullptr)},
          {"degraded_since", degraded_ ? nlohmann::json(degraded_since_) : nlohmann::json(nullptr)},
          {"unsaved_results", unsaved_.size()}};
}

}  // namespace kbv::kbvd
