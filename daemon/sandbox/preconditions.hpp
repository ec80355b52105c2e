// sandbox/preconditions.hpp — what must hold before the first layer, and after the last.
#pragma once

#include <filesystem>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// The policy with scratch, read_only and forbidden paths resolved (symlinks followed) and
// checked: scratch an existing directory; nothing forbidden inside scratch or above a
// readable path; CUDA's minimum limits (docs/sandbox.md, What CUDA tolerates) kept; violation_fd open.
// Throws std::system_error(errc::invalid_argument) naming the field.
SandboxPolicy validated_policy(const SandboxPolicy& policy);

// Landlock, capabilities, no_new_privs and unshare(CLONE_NEWUSER) act on the calling thread;
// a thread already running (CUDA's, after cuInit) would stay unconfined. Throws EINVAL.
void require_single_thread();

// A forbidden file already open in this process stays readable whatever the layers do.
// Throws EACCES naming the fd.
void refuse_open_forbidden_files(const std::vector<std::filesystem::path>& forbidden);

// After all layers: opening each forbidden path must fail. Throws EACCES when one opens; a
// unix socket left reachable (no mount namespace to cover it) is reported unavailable.
void verify_forbidden_unreadable(const std::vector<std::filesystem::path>& forbidden, SandboxReport& report);

}  // namespace kbv::sandbox
