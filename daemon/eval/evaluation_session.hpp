// eval/evaluation_session.hpp — what consecutive evaluations in one process share, so that a batch
// of candidates of one problem (`kbv eval a.so b.so …`, a sweep's) pays once for what does not
// depend on the candidate:
//   - the data plane: its device buffers, the baselines' plans and workspaces, and the setup the
//     worker maps (each candidate still gets a fresh worker in a fresh sandbox; every input is
//     generated again before each call and every output poisoned);
//   - each family's problem validation for the epoch (the fp32 baseline passes it, which trivial
//     outputs pass it): a property of the problem, the shape set and the inputs, not of the
//     candidate;
//   - the next candidate's worker, started while this candidate's correctness is checked and up
//     before its timing starts, so nothing of it runs while a candidate is timed (on CUDA only
//     when CUPTI counts the candidate's memory: the next worker's contexts, ~1 GB, show in the
//     device-wide view, so the `resource` threshold, half the free memory, moves by that much).
// A plane is shared only when nothing a candidate started can outlive its worker and reach the next
// candidate's arena: the worker's seccomp filter refused new processes, or its cgroup was emptied.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/data_plane.hpp"
#include "eval/evaluator.hpp"
#include "eval/started_worker.hpp"

namespace kbv::eval {

// The problem's own validation of one family draw (evaluation_correctness.cpp).
struct FamilyValidation {
  bool baseline_passed = true;
  std::vector<std::string> trivial_outputs_passing;
  double reference_l2_norm = 0;  // sqrt(Σ ref²) of the largest output: a bound on every |ref|
};

// Whether nothing a candidate started can outlive its worker, so its plane may serve the next
// candidate: only seccomp, which refuses every new process (sandbox/seccomp_rules.cpp), means so.
// Decided first on what the evaluator knows itself: the sandbox was asked for (`sandbox_on`), this
// kbv was built with it, and the operator's skips (sandbox/operator_skips.hpp, passed on to the
// worker) leave seccomp in; then on the worker's report (`worker_sandbox`, its ready message's
// "sandbox"), which must name seccomp as applied. The report alone is not enough: the candidate runs
// in the worker before the report is sent, and a candidate that speaks the protocol in the worker's
// place (red-team harness_impostor) can write any report.
bool worker_leaves_nothing(bool sandbox_on, bool built_with_sandbox, const std::vector<std::string>& operator_skips,
                           const nlohmann::json& worker_sandbox);

class EvaluationSession {
 public:
  // `base`: the options every candidate of the session shares (device, GPU, key file, forbidden
  // paths, sandbox, worker binary): a worker started for one serves any of them.
  EvaluationSession(const EvalOptions& base, const ProblemCatalog& catalog) : base_(base), catalog_(catalog) {}

  // How many candidates follow the one about to be evaluated: the next worker starts only for one.
  void set_candidates_after_this(size_t count) { candidates_after_ = count; }

  // The worker started for the next candidate (kbvd's warm spare starts one before its candidate
  // is known), when there is one and it is still alive.
  std::unique_ptr<StartedWorker> take_worker();
  // Starts the next candidate's worker (if one follows and none is started); never throws: a
  // worker that cannot start is started again, and reported, by that candidate's evaluation.
  void start_next_worker();
  // Waits (at most `timeout_s`) until the next worker has brought its device up and said so.
  void wait_for_next_worker(double timeout_s);

  // The data plane kept from the previous evaluation, when it was made for the same problem,
  // shape set and device with the sandbox on; else nullptr, and any other plane is released first
  // (its device memory is free for the footprint check).
  struct KeptPlane {
    std::shared_ptr<const ResolvedProblem> problem;  // the plane refers to it (declared first: outlives it)
    std::unique_ptr<DataPlane> plane;
    nlohmann::json setup;  // allocate()'s message, sent again to each worker
  };
  std::optional<KeptPlane> take_plane(const std::string& problem, const std::string& shape_set, const EvalOptions& options);
  // An evaluation that finished without an exception hands its plane back for the next one; kept
  // only when `worker_left_nothing`: the worker's seccomp filter refused new processes, or its
  // cgroup was killed and emptied, so nothing of the candidate can still reach the arena.
  void keep_plane(const std::string& problem, const std::string& shape_set, const EvalOptions& options, KeptPlane plane,
                  bool worker_left_nothing);

  // Family validations of this session, by validation_key().
  const FamilyValidation* validation(const std::string& key) const;
  void remember_validation(const std::string& key, FamilyValidation validation) { validations_[key] = std::move(validation); }
  static std::string validation_key(const std::string& problem, const std::string& shape_set, const EvalOptions& options,
                                    const std::string& family, uint64_t seed);

 private:
  static std::string plane_key(const std::string& problem, const std::string& shape_set, const EvalOptions& options);

  EvalOptions base_;
  const ProblemCatalog& catalog_;
  size_t candidates_after_ = 0;
  std::unique_ptr<StartedWorker> next_worker_;
  std::string plane_key_;
  std::optional<KeptPlane> plane_;
  std::map<std::string, FamilyValidation> validations_;
};

}  // namespace kbv::eval
