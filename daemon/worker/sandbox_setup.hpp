// worker/sandbox_setup.hpp — the worker's confinement, chosen from its command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kbv::worker {

struct SandboxSettings {
  bool enabled = true;
  bool cuda = false;
  std::string scratch_dir;
  std::string candidate;  // the read-only folder the evaluator copies the candidate into
  std::vector<std::string> forbidden;
};

// What was applied and what was left out, one line per layer with its reason (the sandbox's
// report). The worker sends it to the evaluator with its ready message, not to stderr: the
// worker's stderr is the candidate's output (kbv eval --verbose).
struct ConfinementReport {
  std::vector<std::string> applied;
  std::vector<std::string> unavailable;
};

// Applies the sandbox to this (single-threaded) process. false with *error on a hard failure.
bool confine_worker(const SandboxSettings& settings, ConfinementReport* report, std::string* error);

// The CUDA worker's RLIMIT_AS, sized from its device's memory (sandbox/address_space.hpp): called
// once the device is up and before the candidate loads. Adds its line to *report (or says why
// no limit was set: sandbox off, KBV_SANDBOX_SKIP=rlimit_as). false with *error when it fails.
bool limit_cuda_address_space(const SandboxSettings& settings, uint64_t device_memory_bytes, ConfinementReport* report,
                              std::string* error);

}  // namespace kbv::worker
