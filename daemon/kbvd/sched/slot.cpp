// A slot's life: spare started, candidate handed over, deadline enforced, result recorded.
#include "sched/slot.hpp"

#include <csignal>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/printable.hpp"
#include "sched/epoch.hpp"
#include "sched/evaluator_command.hpp"

namespace kbv::kbvd {
namespace {
using Clock = std::chrono::steady_clock;
// A spare that keeps dying, or an evaluator that will not start, is retried at 1 s, 2 s, …
// up to a minute apart: fast recovery from a blip, no fork storm from a broken install.
constexpr std::chrono::seconds kFirstBackoff{1};
constexpr std::chrono::seconds kMaxBackoff{60};

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
std::string describe(const ChildResult& r) {
  if (r.term_signal) return fmt::format("signal {}", *r.term_signal);
  return fmt::format("exit {}", r.exit_code.value_or(-1));
}
std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return {};
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}
}  // namespace

Slot::Slot(boost::asio::io_context& io, DeviceSlot device, Store& store, Metrics& metrics,
           const LiveConfig& config, EvaluatorCgroups& cgroups, StoreHealth& health, Idle on_idle)
    : io_(io), device_(std::move(device)), store_(store), metrics_(metrics), config_(config), cgroups_(cgroups),
      health_(health), on_idle_(std::move(on_idle)), deadline_(io), backoff_timer_(io) {}

Slot::~Slot() {
  for (auto* child : {&spare_, &active_})
    if (*child) {
      (*child)->set_done(nullptr);
      (*child)->kill_group(SIGKILL);
    }
}

bool Slot::can_take() const { return !active_ && spares_allowed_ && !evaluator_broken_; }

bool Slot::spare_fits(std::int64_t epoch) const {
  return spare_ && spare_->running() && spare_epoch_ == epoch && spare_generation_ == config_.generation();
}

std::size_t Slot::batch_capacity(std::int64_t epoch) const {
  return spare_fits(epoch) ? static_cast<std::size_t>(config_.get().evaluator.batch) : 1;
}

void Slot::start(const std::vector<Job>& jobs) {
  const auto t0 = Clock::now();
  const auto& cfg = config_.get();
  const Job& first = jobs.front();
  std::shared_ptr<Child> child;
  std::vector<Job> handed = jobs;
  if (spare_ && !spare_fits(first.epoch)) retire_spare();
  if (spare_fits(first.epoch)) {
    child = std::move(spare_);
    child->set_done([this](const ChildResult& r) { finish(r); });
    child->set_on_line([this](const std::string& line) { line_from_evaluator(line); });
    std::vector<std::string> lines;
    for (const Job& job : jobs) lines.push_back(spare_line(job));
    if (!child->send_lines_and_close(lines)) {
      // The spare died before it could read: count it as such and start fresh.
      child->set_done([this](const ChildResult&) { metrics_.worker_exit("spare_exit"); });
      child->set_on_line(nullptr);
      child->kill_group(SIGKILL);
      child.reset();
    }
  }
  if (!child) {
    // A fresh evaluator takes the first job on its command line; the others wait for a spare.
    for (std::size_t i = 1; i < handed.size(); ++i) requeue(handed[i], "handed back: no warm spare to take a batch");
    handed.resize(1);
    try {
      child = Child::spawn(io_, evaluator_argv(cfg.evaluator, device_, first.epoch, &first), false,
                           [this](const ChildResult& r) { finish(r); }, cgroups_.make());
    } catch (const SpawnError& e) {
      requeue(first, e.what());
      metrics_.worker_exit("exec_failed");
      spdlog::error("slot {}: {}; candidate {} requeued", device_.label, e.what(), printable(first.name));
      back_off(e.what(), true);
      return;
    }
  }
  active_ = child;
  jobs_.assign(handed.begin(), handed.end());
  timed_out_ = aborted_ = false;
  busy_accounted_ = Clock::now();
  // Recovery finds what these evaluations leave behind by these; a store that refuses the write
  // now still has the evaluations' rows (recovery requeues them; the evaluator dies with kbvd).
  for (const Job& job : jobs_)
    health_.attempt("record the evaluator's process",
                    [&] { store_.set_process(job.evaluation_id, child->pid(), child->start_ticks(), child->cgroup()); });
  metrics_.set_in_flight(device_.label, true);
  begin_current();
  dispatch_seconds_ = seconds_since(t0);
  spdlog::debug("slot {}: evaluating {} ({}), attempt {}{}", device_.label, printable(first.name), first.sha256.substr(0, 12),
                first.attempt, jobs_.size() > 1 ? fmt::format(", and {} more of problem {} in the same evaluator", jobs_.size() - 1, first.problem) : "");
  ensure_spare();
}

void Slot::begin_current() {
  handed_over_ = Clock::now();
  deadline_.expires_after(std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(config_.get().evaluator.timeout_s)));
  deadline_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || !active_) return;
    timed_out_ = true;
    spdlog::warn("slot {}: {} exceeded evaluator.timeout_s; killing its process group and cgroup",
                 device_.label, jobs_.empty() ? "?" : printable(jobs_.front().name));
    active_->kill_group(SIGKILL);
  });
}

void Slot::record(const Job& job, const Outcome& evaluated, double seconds, Clock::time_point t0) {
  const Outcome outcome = checked_against_job(evaluated, job.sha256);
  const double now = unix_now();
  if (!health_.attempt("record a verdict", [&] { store_.finish(job, outcome, now); }))
    health_.keep({job, outcome, "", now});
  metrics_.evaluation_finished(outcome);
  metrics_.observe_overhead(dispatch_seconds_ + seconds_since(t0));
  if (outcome.worker_exit == "completed" || outcome.worker_exit == "bad_input")
    backoff_ = std::chrono::seconds(0);
  // The detail holds the candidate's own stderr: one escaped line, never a forged log line.
  spdlog::info("slot {}: {} ({}) -> {} in {:.2f} s{}", device_.label, printable(job.name),
               job.sha256.substr(0, 12), outcome.verdict, seconds,
               outcome.detail.empty() ? "" : ": " + printable(outcome.detail.substr(0, 200)));
}

void Slot::line_from_evaluator(const std::string& line) {
  // A candidate is done: its verdict is recorded now, and the next one's deadline starts (after
  // the last, the deadline still bounds the evaluator's exit; the slot is free when it has exited).
  if (jobs_.empty() || line.empty() || line.front() != '{' || timed_out_ || aborted_) return;
  const auto t0 = Clock::now();
  const double seconds = seconds_since(handed_over_);
  const Job job = jobs_.front();
  jobs_.pop_front();
  deadline_.cancel();
  record(job, decide_line_outcome(line, seconds, config_.get().evaluator.timeout_s), seconds, t0);
  dispatch_seconds_ = 0;
  // The batch's last verdict is in: no evaluation is in flight while its evaluator exits (the slot
  // stays busy until it has).
  if (jobs_.empty()) metrics_.set_in_flight(device_.label, false);
  begin_current();
}

void Slot::finish(const ChildResult& result) {
  const auto t0 = Clock::now();
  deadline_.cancel();
  account_busy();
  ChildExit exit;
  exit.exit_code = result.exit_code;
  exit.term_signal = result.term_signal;
  exit.timed_out = timed_out_;
  exit.timeout_s = config_.get().evaluator.timeout_s;
  exit.seconds = seconds_since(handed_over_);
  std::deque<Job> jobs = std::move(jobs_);
  jobs_.clear();
  active_.reset();
  metrics_.set_in_flight(device_.label, false);
  if (aborted_) {
    for (const Job& job : jobs) {
      requeue(job, "kbvd stopped before the evaluation finished; requeued");
      metrics_.worker_exit("drained");
      spdlog::info("slot {}: {} interrupted by shutdown and requeued", device_.label, printable(job.name));
    }
  } else if (!jobs.empty()) {
    // The evaluator ended on the first: its exit and what it printed since the last verdict are
    // that candidate's; the ones after it were never evaluated and go back to the queue.
    const Outcome outcome = decide_outcome(exit, result.out, result.err);
    if (outcome.worker_exit == "exec_failed") {
      // Its own set-up failed (a problem spec that does not parse, say): no candidate's fault.
      // Every one stays queued, and the slot waits as broken until the fix.
      for (const Job& job : jobs) requeue(job, outcome.detail);
      metrics_.worker_exit("exec_failed");
      spdlog::error("slot {}: {}; {} candidate(s) requeued", device_.label, printable(outcome.detail), jobs.size());
      back_off(outcome.detail, true);
      on_idle_();
      return;
    }
    record(jobs.front(), outcome, exit.seconds, t0);
    for (std::size_t i = 1; i < jobs.size(); ++i) {
      requeue(jobs[i], "handed back: its batch's evaluator ended before it (" + printable(jobs.front().name) + ")");
      spdlog::info("slot {}: {} handed back: its batch's evaluator ended before it", device_.label, printable(jobs[i].name));
    }
  }
  on_idle_();
}

void Slot::requeue(const Job& job, const std::string& note) {
  const double now = unix_now();
  if (!health_.attempt("requeue an evaluation", [&] { store_.interrupt(job, note, now); }))
    health_.keep({job, std::nullopt, note, now});
}

void Slot::ensure_spare() {
  const auto& cfg = config_.get();
  if (!cfg.evaluator.warm_spare || !spares_allowed_ || spare_ || backing_off_) return;
  const auto epoch = epoch_at(cfg.epoch, std::chrono::system_clock::now()).number;
  try {
    spare_ = Child::spawn(io_, evaluator_argv(cfg.evaluator, device_, epoch, nullptr), true, nullptr, cgroups_.make());
  } catch (const SpawnError& e) {
    spdlog::error("slot {}: warm spare: {}", device_.label, e.what());
    metrics_.worker_exit("exec_failed");
    back_off(e.what(), true);
    return;
  }
  spare_->set_done([this, weak = std::weak_ptr<Child>(spare_)](const ChildResult& r) {
    spare_ended(weak.lock(), r);
  });
  spare_epoch_ = epoch;
  spare_generation_ = config_.generation();
}

void Slot::spare_ended(const std::shared_ptr<Child>& child, const ChildResult& result) {
  if (!child || child != spare_) return;  // a spare kbvd retired on purpose
  spare_.reset();
  metrics_.worker_exit("spare_exit");
  const auto why = fmt::format("warm spare ended ({}) before it got a candidate{}", describe(result),
                               result.err.empty() ? "" : ": " + printable(last_line(result.err)));
  spdlog::warn("slot {}: {}", device_.label, why);
  // Exit 3: the evaluator's own set-up failed, and a cold start would fail the same way.
  back_off(why, result.exit_code == kEvaluatorSetupExit);
}

void Slot::back_off(const std::string& why, bool broken) {
  last_error_ = why;
  backoff_ = backoff_.count() == 0 ? kFirstBackoff : std::min(backoff_ * 2, kMaxBackoff);
  backing_off_ = true;
  evaluator_broken_ = evaluator_broken_ || broken;
  backoff_timer_.expires_after(backoff_);
  backoff_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    backing_off_ = false;
    evaluator_broken_ = false;
    ensure_spare();
    on_idle_();
  });
}

void Slot::stop_spares() {
  spares_allowed_ = false;
  backoff_timer_.cancel();
  backing_off_ = false;
  retire_spare();
}

void Slot::retire_spare() {
  if (!spare_) return;
  auto spare = std::move(spare_);
  spare->kill_group(SIGKILL);
}

void Slot::abort_running() {
  if (!active_) return;
  aborted_ = true;
  active_->kill_group(SIGKILL);
}

void Slot::account_busy() {
  if (!active_) return;
  const auto now = Clock::now();
  metrics_.add_busy_seconds(device_.label, std::chrono::duration<double>(now - busy_accounted_).count());
  busy_accounted_ = now;
}

nlohmann::json Slot::status() const {
  nlohmann::json s;
  s["slot"] = device_.label;
  s["device"] = device_.device;
  s["gpu"] = device_.gpu ? nlohmann::json(*device_.gpu) : nlohmann::json(nullptr);
  s["state"] = active_ ? "busy" : evaluator_broken_ ? "evaluator_unavailable" : "idle";
  if (!jobs_.empty())
    s["evaluation"] = {{"evaluation_id", jobs_.front().evaluation_id}, {"sha256", jobs_.front().sha256},
                       {"name", jobs_.front().name}, {"attempt", jobs_.front().attempt},
                       {"running_s", seconds_since(handed_over_)}, {"queued_behind_in_batch", jobs_.size() - 1}};
  s["spare"] = spare_ ? "warm" : backing_off_ ? "backoff" : "none";
  s["last_error"] = last_error_.empty() ? nlohmann::json(nullptr) : nlohmann::json(last_error_);
  return s;
}

}  // namespace kbv::kbvd
