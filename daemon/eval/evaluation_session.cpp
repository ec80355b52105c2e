// eval/evaluation_session.cpp — the next worker, the kept data plane and the family validations of
// consecutive evaluations (see evaluation_session.hpp).
#include "eval/evaluation_session.hpp"
#include "eval/message_fields.hpp"

#include <algorithm>

namespace kbv::eval {

bool worker_leaves_nothing(bool sandbox_on, bool built_with_sandbox, const std::vector<std::string>& operator_skips,
                           const nlohmann::json& worker_sandbox) {
  // Without the sandbox (--no-sandbox, debugging only) a candidate may fork and move its child to
  // a cgroup of this user's. The worker's cgroup alone is not enough either (killed as a whole, but
  // a child could move itself out where the filesystem lets it, and a kill that timed out leaves it).
  if (!sandbox_on || !built_with_sandbox) return false;
  if (std::find(operator_skips.begin(), operator_skips.end(), "seccomp") != operator_skips.end()) return false;
  if (!worker_sandbox.is_object() || !worker_sandbox.contains("applied") || !worker_sandbox["applied"].is_array()) return false;
  for (const auto& line : worker_sandbox["applied"])
    if (line.is_string() && line.get<std::string>().rfind("seccomp:", 0) == 0) return true;
  return false;
}

std::unique_ptr<StartedWorker> EvaluationSession::take_worker() {
  if (next_worker_ && !next_worker_->alive()) next_worker_.reset();  // died while it waited
  return std::move(next_worker_);
}

void EvaluationSession::start_next_worker() {
  if (candidates_after_ == 0 || next_worker_) return;
  try {
    next_worker_ = std::make_unique<StartedWorker>(base_, catalog_);
  } catch (const std::exception&) {
    next_worker_.reset();
  }
}

void EvaluationSession::wait_for_next_worker(double timeout_s) {
  if (!next_worker_) return;
  const auto first = next_worker_->wait_until_started(std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)));
  const std::string type = first ? message_type(*first) : "";
  // started, or load_failed (its sandbox or device: the next evaluation notes it in its report and
  // starts a fresh worker, evaluator.cpp); anything else is kbv's own failure in that worker: the
  // next evaluation starts a fresh one.
  if (type != "started" && type != "load_failed") next_worker_.reset();
}

std::string EvaluationSession::plane_key(const std::string& problem, const std::string& shape_set, const EvalOptions& options) {
  return problem + "|" + shape_set + "|" + options.device + "|" + std::to_string(options.gpu);
}

std::optional<EvaluationSession::KeptPlane> EvaluationSession::take_plane(const std::string& problem, const std::string& shape_set,
                                                                          const EvalOptions& options) {
  const bool same = plane_ && plane_key_ == plane_key(problem, shape_set, options);
  if (!same) {
    plane_.reset();  // its memory is free before the next problem's footprint is checked
    return std::nullopt;
  }
  return std::exchange(plane_, std::nullopt);
}

void EvaluationSession::keep_plane(const std::string& problem, const std::string& shape_set, const EvalOptions& options, KeptPlane plane,
                                   bool worker_left_nothing) {
  if (!worker_left_nothing || candidates_after_ == 0) return;
  plane_key_ = plane_key(problem, shape_set, options);
  plane_ = std::move(plane);
}

const FamilyValidation* EvaluationSession::validation(const std::string& key) const {
  const auto found = validations_.find(key);
  return found == validations_.end() ? nullptr : &found->second;
}

std::string EvaluationSession::validation_key(const std::string& problem, const std::string& shape_set, const EvalOptions& options,
                                              const std::string& family, uint64_t seed) {
  return plane_key(problem, shape_set, options) + "|" + std::to_string(options.epoch) + "|" + family + "|" + std::to_string(seed);
}

}  // namespace kbv::eval
