// sweep/kbvd_runner.hpp — evaluate through kbvd's queue (the default): submit each candidate
// kbvd does not know (with a manifest carrying the sweep's model, sample, problem and tags),
// requeue each it evaluated only in other epochs, and wait for a verdict of this epoch. A
// candidate kbvd already evaluated in this epoch is not evaluated again. kbvd's GPUs, warm
// spares and metrics do the work; the sweep only asks and waits.
#pragma once

#include <cstdint>
#include <filesystem>

#include "sweep/run_context.hpp"

namespace kbv::sweep {

struct KbvdSettings {
  std::filesystem::path socket;
  double poll_interval_s = 1.0;
  std::filesystem::path scratch;  // the manifests handed to kbvd with each submission
};

// kbvd's current epoch; throws control::ControlError (with the fix) when kbvd is unreachable
// or draining.
std::uint64_t kbvd_epoch(const std::filesystem::path& socket);

RunResult run_through_kbvd(const RunContext& context, const KbvdSettings& settings);

}  // namespace kbv::sweep
