// sandbox/mount_layer.hpp — what a private mount namespace adds: forbidden paths covered by
// empty, mode-000, read-only stand-ins; every mount but scratch read-only; and, as the
// fallback for kernels without Landlock, /proc reduced to this process and the listed files.
#pragma once

#include <filesystem>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

struct MountPlan {
  std::vector<std::filesystem::path> hide;  // forbidden paths (and unusable devices) to cover
  bool reduce_proc = false;                 // fallback: /proc shows only self + read_only files
  bool read_only_everything = true;         // remount every mount but scratch read-only
};

// Needs the process to be in its own, private mount namespace with CAP_SYS_ADMIN there.
// Throws when a step fails that the policy relies on (a forbidden path left visible, "/" left
// writable); mounts that refuse to become read-only are reported.
void apply_mount_layer(const SandboxPolicy& policy, const MountPlan& plan, SandboxReport& report);

}  // namespace kbv::sandbox
