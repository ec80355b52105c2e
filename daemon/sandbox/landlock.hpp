// sandbox/landlock.hpp — filesystem (and TCP, and scope) confinement with Landlock.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// The Landlock ABI version the kernel offers, or 0 (then *why_not says why).
int landlock_abi(std::string* why_not);

// Paths the worker may read, write and ioctl (device nodes: /dev/null…, /dev/nvidia*).
struct DeviceAccess {
  std::vector<std::filesystem::path> devices;
};

// Restricts the calling thread (and every thread it creates later) to: read+exec beneath
// policy.read_only, read+write beneath policy.scratch_dir, read+write+ioctl on `devices`;
// no TCP bind/connect (ABI ≥ 4); no signals or abstract-socket connections to processes
// outside the sandbox (ABI ≥ 6). Needs no_new_privs. Throws on failure.
void apply_landlock(const SandboxPolicy& policy, int abi, const DeviceAccess& devices, SandboxReport& report);

}  // namespace kbv::sandbox
