// cli/candidate_skeleton.hpp — the example candidate `kbv prompt` prints: one complete source
// file for a problem and a device, in the KBV_CANDIDATE form (README.md), that compiles with
// `kbv build`, loads and runs.
//
// It names every input and output by the problem's names (with shapes in comments), reads
// every attribute, launches on call.stream() (cuda) and writes every output element, with 0:
// it is the frame for the computation, not the computation, so `kbv eval` gives it
// fail_correctness. tests/cli/cli_prompt_test.cpp builds it for every problem.
#pragma once

#include <string>

#include "cli/candidate_device.hpp"
#include "spec/problem.hpp"

namespace kbv::cli {

struct CandidateSkeleton {
  std::string file_name;       // "my_relu.cu"
  std::string candidate_name;  // "my_relu": KBV_CANDIDATE's label
  std::string source;
};

// `problem` at the shape set the comments quote.
CandidateSkeleton candidate_skeleton(const ResolvedProblem& problem, CandidateDevice device);

}  // namespace kbv::cli
