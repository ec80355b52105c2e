// cli/prompt_rules.hpp — what kbv checks of a candidate, as `kbv prompt` tells a language model:
// each rule is one that kbv enforces (docs/threat-model.md names the defense and the test behind
// it), with the verdict or flag breaking it brings. Nothing here is advice kbv cannot check.
#pragma once

#include <string>
#include <vector>

#include "cli/candidate_device.hpp"
#include "spec/problem.hpp"

namespace kbv::cli {

// One Markdown bullet's text per rule, for `problem` on `device`.
std::vector<std::string> prompt_rules(const ResolvedProblem& problem, CandidateDevice device);

// True when some node of the graph is a tensor-core op (matmul, conv…): TF32 is then allowed.
bool uses_tensor_cores(const Problem& problem);

}  // namespace kbv::cli
