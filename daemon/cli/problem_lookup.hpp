// cli/problem_lookup.hpp — find a problem by its name or by KernelBench's "L<level>/<id>" (e.g.
// "L1/19" for 19_ReLU.py), through the spec's `level` and `kernelbench_id` fields.
#pragma once

#include <optional>
#include <string>

#include "spec/catalog.hpp"

namespace kbv::cli {

// {level, id} when `text` is KernelBench's form ("L1/19", "l1/19"); nullopt otherwise.
std::optional<std::pair<int, int>> parse_kernelbench_ref(const std::string& text);

// The problem name `text` stands for: itself when the catalog has a problem by that name, else
// the one problem whose spec says level L and kernelbench_id N. Throws std::invalid_argument
// whose message names what was asked, what exists and the fix.
std::string resolve_problem_name(const ProblemCatalog& catalog, const std::string& text);

// "L1/19" for a problem that carries a KernelBench id; "" for one that does not.
std::string kernelbench_ref(const Problem& problem);

}  // namespace kbv::cli
