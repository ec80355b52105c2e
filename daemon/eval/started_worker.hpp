// eval/started_worker.hpp — a kbv-worker started before its candidate is known, with the two
// folders it was confined to: its writable scratch folder and the read-only folder the candidate
// is copied into. kbvd's warm spare starts one while it waits for its candidate, so the sandbox,
// the worker's CUDA context and CUPTI are up when the candidate comes; a plain evaluation starts
// one as its first step.
//
// The candidate is loaded from a copy the evaluator makes (place_candidate): the bytes the ELF
// check, the sha256 and the build record read are the bytes the worker loads, whatever happens
// to the submitted file afterwards.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "eval/evaluator.hpp"
#include "eval/worker_process.hpp"
#include "lifetime/owned_folder.hpp"

namespace kbv::eval {

class StartedWorker {
 public:
  // Makes the folders, spawns the worker and, while it starts, brings up this process's device
  // (warm_up_device). Throws what WorkerProcess and OwnedFolder throw.
  StartedWorker(const EvalOptions& options, const ProblemCatalog& catalog);

  // Copies `candidate` into the candidate folder under its own file name; the copy's path, or
  // nullopt with *error saying why the file could not be copied.
  std::optional<std::filesystem::path> place_candidate(const std::filesystem::path& candidate, std::string* error) const;
  // False once the worker has exited (a spare's worker that died while it waited is not used).
  bool alive() const { return worker_ && !worker_->exited(); }
  // Hands the worker to the evaluation; the folders stay with this object, which must outlive it.
  std::unique_ptr<WorkerProcess> take_worker() { return std::move(worker_); }
  // Waits at most `timeout` for the worker's first message ({"type":"started"}, or load_failed when
  // its sandbox or device failed) and keeps it for the evaluation; returns it, or nullopt when none
  // came (the worker died or is still starting).
  std::optional<nlohmann::json> wait_until_started(std::chrono::milliseconds timeout);
  // The message wait_until_started() kept, once; nullopt when it was not called or got none.
  std::optional<nlohmann::json> take_first_message() { return std::exchange(first_message_, std::nullopt); }

  // Seconds this process spent bringing up its own device while the worker started.
  double device_warm_up_s() const { return device_warm_up_s_; }
  // Seconds since the worker was spawned.
  double age_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - spawned_).count(); }

 private:
  lifetime::OwnedFolder scratch_;
  lifetime::OwnedFolder candidate_folder_;
  std::unique_ptr<WorkerProcess> worker_;
  std::chrono::steady_clock::time_point spawned_;
  double device_warm_up_s_ = 0;
  std::optional<nlohmann::json> first_message_;
};

}  // namespace kbv::eval
