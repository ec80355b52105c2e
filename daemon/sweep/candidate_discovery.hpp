// sweep/candidate_discovery.hpp — find a sweep's candidates: walk its folders and globs, read
// each .so's sidecar manifest (kbvd's format), check the file is an ELF shared object, resolve
// its problem against the catalog and apply the filters. Bad input becomes an Issue; the
// candidate is left out and the rest go on.
#pragma once

#include <vector>

#include "spec/catalog.hpp"
#include "sweep/candidate.hpp"
#include "sweep/issue.hpp"
#include "sweep/sweep_config.hpp"

namespace kbv::sweep {

struct Discovery {
  std::vector<Candidate> candidates;  // sorted by key, each key once
  Issues issues;
  int filtered_out = 0;  // found, valid, but not admitted by the filters
  int duplicates = 0;    // the same bytes and problem found again (kept once)
};

Discovery discover_candidates(const SweepConfig& config, const ProblemCatalog& catalog);

// Whether the filters admit a candidate whose problem (and level) is known; a candidate with an
// unknown problem is admitted only when no problem or level filter is set.
bool filters_admit(const Filters& filters, const Candidate& candidate);

// Issues about the filters themselves (a problem name the catalog does not know).
Issues check_filters(const SweepConfig& config, const ProblemCatalog& catalog);

// An Issue from a message of the form "NAME: PROBLEM (fix: FIX)" or "NAME: FIELD: PROBLEM; fix:
// FIX" (kbv's error texts), about `file`.
Issue issue_from_message(const std::string& file, const std::string& field, const std::string& message,
                         const std::string& default_fix);

}  // namespace kbv::sweep
