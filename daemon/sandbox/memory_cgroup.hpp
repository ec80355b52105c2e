// sandbox/memory_cgroup.hpp — the worker's best-effort memory limit: a cgroup v2 child with memory.max.
#pragma once

#include <filesystem>
#include <optional>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// The cgroup the worker's child is created under: policy.cgroup_parent, else this process's
// own cgroup v2 directory; nullopt (with the reason) when there is no cgroup2 mount.
std::optional<std::filesystem::path> resolve_cgroup_parent(const SandboxPolicy& policy, std::string* why_not);

// Moves this process into kbv-worker-<pid> under the parent with memory.max set, when the
// policy asks for a memory limit. Every obstacle is reported unavailable, never thrown.
void apply_memory_limit(const SandboxPolicy& policy, SandboxReport& report);

}  // namespace kbv::sandbox
