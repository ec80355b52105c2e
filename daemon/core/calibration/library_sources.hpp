// calibration/library_sources.hpp — which code kbv's library baseline of a problem is: the SHA-256
// of the baseline sources its graph's ops use (each op's own, and those every op shares), made at
// build time (library_sources_digest.cmake). A PyTorch calibration records it beside the library's
// description, so that a kernel changed under an unchanged description (a faster softmax kernel
// still called "kbv softmax kernel") cannot leave a stale ratio in use (derived_speedups.hpp).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "spec/problem.hpp"

namespace kbv::calibration {

// SHA-256 (hex) of "shared <digest>\n" and "<op> <digest>\n" for each distinct op of the graph, in
// name order. Throws std::invalid_argument for an op with no digest (a build from other sources).
std::string library_sources_sha256(const Problem& problem);

namespace detail {
const std::map<std::string, std::string, std::less<>>& op_library_sources();  // generated
std::string_view shared_library_sources();                                     // generated
}  // namespace detail

}  // namespace kbv::calibration
