// sandbox/seccomp_filter.hpp — compile and load the worker's seccomp filter (libseccomp).
#pragma once

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// Installs the SIGSYS reporter, then loads the filter (default allow, denials from
// seccomp_rules.cpp, foreign architectures and x32 killed). Last layer: from here on the
// process cannot mount, unshare or replace the reporter. Throws on any failure.
void install_seccomp_filter(const SandboxPolicy& policy, SandboxReport& report);

}  // namespace kbv::sandbox
