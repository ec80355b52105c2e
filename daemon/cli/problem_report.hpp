// cli/problem_report.hpp — one problem in full, as JSON and as text for `kbv problems NAME`:
// inputs, outputs, graph, the attributes a candidate receives, tolerance, every shape set with
// its shapes and work, level and KernelBench id.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "spec/problem.hpp"

namespace kbv::cli {

// Throws SpecError when a shape set does not resolve.
nlohmann::json describe_problem(const Problem& problem);
// The classes of hidden families that are degenerate for `problem` ([{class, reason}]); null when
// the probe (on the host, at the small set) cannot run, with *why_not saying why: a GPU-only
// problem has no small set; a small set beyond the host's available memory is not probed.
nlohmann::json degenerate_classes_json(const Problem& problem, std::string* why_not = nullptr);
// Whether the precision check runs on the problem (verify/precision_signature.hpp) and on which
// inputs, or why not: {"runs": true, "rounded_inputs": [...]} or {"runs": false, "why_not": "..."}.
nlohmann::json precision_check_json(const Problem& problem);
void print_problem(std::ostream& out, const nlohmann::json& described);

}  // namespace kbv::cli
