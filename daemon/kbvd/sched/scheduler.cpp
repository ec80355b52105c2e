// FIFO dispatch from the durable queue to idle slots; busy-time accounting; draining.
#include "sched/scheduler.hpp"

#include <chrono>
#include <vector>
#include <spdlog/spdlog.h>

#include "sched/epoch.hpp"

namespace kbv::kbvd {
namespace {
// How often busy seconds of running evaluations reach the counter between finishes.
constexpr std::chrono::seconds kBusyTick{5};

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

Scheduler::Scheduler(boost::asio::io_context& io, Store& store, Metrics& metrics,
                     const LiveConfig& config, const std::vector<DeviceSlot>& devices, EvaluatorCgroups& cgroups,
                     StoreHealth& health)
    : io_(io), store_(store), metrics_(metrics), config_(config), health_(health), tick_timer_(io), drain_timer_(io) {
  for (const auto& d : devices)
    slots_.push_back(std::make_unique<Slot>(io, d, store, metrics, config, cgroups, health, [this] { pump(); }));
}

void Scheduler::start() {
  for (auto& s : slots_) s->ensure_spare();
  tick();
  pump();
}

void Scheduler::tick() {
  for (auto& s : slots_) s->account_busy();
  tick_timer_.expires_after(kBusyTick);
  tick_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) tick();
  });
}

void Scheduler::pump() {
  if (draining_) {
    check_drained();
    return;
  }
  if (pumping_) return;
  pumping_ = true;
  // Reset however pump() ends: an exception left it set, and nothing was dispatched again.
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{pumping_};
  const auto epoch = epoch_at(config_.get().epoch, std::chrono::system_clock::now());
  if (epoch.number != epoch_) {
    if (epoch_ >= 0) {
      spdlog::info("epoch {} begins; restarting warm spares", epoch.number);
      for (auto& s : slots_) s->retire_spare();
    }
    epoch_ = epoch.number;
    metrics_.set_epoch(static_cast<double>(epoch_));
  }
  for (auto& s : slots_) {
    // A store that refuses writes takes no new work (store_health.hpp): the queue waits.
    while (s->can_take() && health_.writable()) {
      std::optional<Job> job;
      if (!health_.attempt("start an evaluation",
                           [&] { job = store_.start_next(epoch, s->device().device, s->device().label, unix_now()); }))
        break;
      if (!job) break;
      // Queued candidates of the same problem go with it to the warm spare, up to evaluator.batch:
      // one evaluator shares its data plane, family validations and next worker between them.
      std::vector<Job> jobs{*job};
      while (!job->problem.empty() && jobs.size() < s->batch_capacity(epoch.number)) {
        std::optional<Job> more;
        if (!health_.attempt("start an evaluation", [&] {
              more = store_.start_next_of_problem(epoch, s->device().device, s->device().label, unix_now(), job->problem);
            }) || !more)
          break;
        jobs.push_back(*more);
      }
      s->start(jobs);
    }
    s->ensure_spare();
  }
  // A store that cannot be read now leaves the gauge as it was (store_health.hpp says so).
  std::int64_t waiting = 0;
  if (health_.attempt("count the queue", [&] { waiting = store_.waiting_count(); })) metrics_.set_queue_depth(static_cast<double>(waiting));
}

void Scheduler::drain(double timeout_s, std::function<void()> drained) {
  draining_ = true;
  drained_ = std::move(drained);
  for (auto& s : slots_) s->stop_spares();
  drain_timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(timeout_s)));
  drain_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    spdlog::warn("drain timeout reached: killing in-flight evaluations and requeueing them");
    abort_now();
  });
  check_drained();
}

void Scheduler::abort_now() {
  for (auto& s : slots_) s->abort_running();
}

void Scheduler::check_drained() {
  for (const auto& s : slots_)
    if (!s->quiescent()) return;
  drain_timer_.cancel();
  tick_timer_.cancel();
  if (auto done = std::move(drained_)) {
    drained_ = nullptr;
    done();
  }
}

void Scheduler::config_reloaded() {
  for (auto& s : slots_) s->retire_spare();
  pump();
}

nlohmann::json Scheduler::status() const {
  nlohmann::json slots = nlohmann::json::array();
  for (const auto& s : slots_) slots.push_back(s->status());
  return slots;
}

}  // namespace kbv::kbvd
