// calibration/problem_fingerprint.hpp — a hash of what a problem's timing depends on at one shape
// set, so a PyTorch calibration taken before its spec changed is never applied after.
#pragma once

#include <string>

#include "spec/problem.hpp"

namespace kbv::calibration {

// SHA-256 (hex) of a canonical text of the resolved problem: every input's and output's name
// and concrete shape, and every graph node's op, wiring and attributes (defaults included).
// Left out, as they do not change what runs: descriptions, node names, tolerances, input
// scales, other shape sets.
std::string problem_fingerprint(const ResolvedProblem& problem);

}  // namespace kbv::calibration
