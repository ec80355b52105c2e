// worker/sandbox_setup.hpp — the worker's confinement, chosen from its command line.
#pragma once

#include <string>
#include <vector>

namespace kbv::worker {

struct SandboxSettings {
  bool enabled = true;
  bool cuda = false;
  std::string scratch_dir;
  std::string candidate;
  std::vector<std::string> forbidden;
};

// Applies the sandbox to this (single-threaded) process. false with *error on a hard failure.
bool confine_worker(const SandboxSettings& settings, std::string* error);

}  // namespace kbv::worker
