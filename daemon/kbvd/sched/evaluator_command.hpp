// The command line of one evaluator child (kbv eval …), cold or as a warm spare.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "sched/devices.hpp"
#include "store/store.hpp"

namespace kbv::kbvd {

// With a job: `kbv eval PATH --json … [--problem P]`. Without: the warm spare
// `kbv eval --json … --wait-for-candidate`, which reads the candidate line on stdin.
std::vector<std::string> evaluator_argv(const EvaluatorConfig& config, const DeviceSlot& slot,
                                        std::int64_t epoch, const Job* job);

// The line a warm spare reads: PATH, then a tab and per-candidate options as JSON.
std::string spare_line(const Job& job);

}  // namespace kbv::kbvd
