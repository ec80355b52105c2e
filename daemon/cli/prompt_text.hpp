// cli/prompt_text.hpp — the self-contained Markdown prompt `kbv prompt` prints, from which a
// language model can write a candidate with nothing else to read: the task; the problem and
// where it comes from (KernelBench's file and level/id); its PyTorch forward (cli/pytorch_forward);
// inputs and outputs in order with roles, shapes, dtypes and value scales; attributes; the
// tolerance; the plugin ABI with a complete example for the device (cli/candidate_skeleton); how
// to build and evaluate; and what kbv checks (cli/prompt_rules).
#pragma once

#include <string>

#include "cli/candidate_device.hpp"
#include "spec/problem.hpp"

namespace kbv::cli {

// Throws SpecError when `shape_set` does not resolve, std::invalid_argument when an op of the
// graph has no PyTorch form.
std::string prompt_text(const Problem& problem, CandidateDevice device, const std::string& shape_set);

}  // namespace kbv::cli
