// sandbox/capabilities.hpp — empty every capability set and lock the securebits.
#pragma once

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// Clears ambient, bounding, inheritable, permitted and effective capabilities (in the worker's
// user namespace the creator holds all of them). Throws if the final capset fails.
void drop_capabilities(SandboxReport& report);

}  // namespace kbv::sandbox
