// sandbox/operator_skips.hpp — the sandbox layers an operator leaves out for diagnosis
// (KBV_SANDBOX_SKIP=token,token,…; docs/sandbox.md). kbv-worker reads it to build its policy, and
// the evaluator, which passes the variable on to the worker, reads the same tokens to know on its
// own which layers the worker cannot have applied, whatever the worker's report says.
#pragma once

#include <string>
#include <vector>

namespace kbv::sandbox {

// The tokens of KBV_SANDBOX_SKIP in this process's environment, in order (empty when unset).
std::vector<std::string> operator_skipped_layers();

}  // namespace kbv::sandbox
