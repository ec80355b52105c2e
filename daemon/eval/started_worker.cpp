// eval/started_worker.cpp — the folders, the worker's launch and the candidate's copy (see
// started_worker.hpp).
#include "eval/started_worker.hpp"

#include <system_error>

#include "eval/data_plane_factory.hpp"

namespace kbv::eval {

StartedWorker::StartedWorker(const EvalOptions& options, const ProblemCatalog& catalog)
    // $TMPDIR/kbv-scratch-<pid>-XXXXXX and kbv-candidate-<pid>-XXXXXX: removed however the
    // evaluation ends, by the next evaluation's sweep when this process was killed.
    : scratch_(std::filesystem::temp_directory_path(), "kbv-scratch-"),
      candidate_folder_(std::filesystem::temp_directory_path(), "kbv-candidate-") {
  WorkerLaunch launch;
  launch.worker_binary = options.worker_binary;
  launch.candidate_dir = candidate_folder_.path();
  launch.device = options.device;
  launch.gpu = options.gpu;
  launch.scratch_dir = scratch_.path();
  launch.forbidden = {options.key_file, catalog.directory()};
  launch.forbidden.insert(launch.forbidden.end(), options.forbidden.begin(), options.forbidden.end());
  launch.sandbox = options.sandbox;
  spawned_ = std::chrono::steady_clock::now();
  worker_ = std::make_unique<WorkerProcess>(launch);
  const auto warm_up_start = std::chrono::steady_clock::now();
  warm_up_device(options.device, options.gpu);
  device_warm_up_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - warm_up_start).count();
}

std::optional<nlohmann::json> StartedWorker::wait_until_started(std::chrono::milliseconds timeout) {
  if (!first_message_ && worker_) first_message_ = worker_->receive(timeout);
  return first_message_;
}

std::optional<std::filesystem::path> StartedWorker::place_candidate(const std::filesystem::path& candidate, std::string* error) const {
  const std::filesystem::path copy = candidate_folder_.path() / candidate.filename();
  std::error_code failure;
  std::filesystem::copy_file(candidate, copy, std::filesystem::copy_options::overwrite_existing, failure);
  if (failure) {
    *error = candidate.string() + ": cannot be copied for loading (" + failure.message() + ")";
    return std::nullopt;
  }
  return copy;
}

}  // namespace kbv::eval
