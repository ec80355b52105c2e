// sweep/issue.hpp — one piece of bad input a sweep met and went on without: the file, the field,
// what is wrong and how to fix it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

struct Issue {
  std::string file;     // the file at fault (sweep config, manifest or candidate)
  std::string field;    // the field or part of it ("candidates[2].folder", "problem", "(file)")
  std::string problem;  // what is wrong, in words
  std::string fix;      // what to do about it

  // "FILE: FIELD: PROBLEM; fix: FIX" — the form every kbv input error takes.
  std::string text() const;
  nlohmann::json to_json() const;
  static Issue from_json(const nlohmann::json& json);
};

using Issues = std::vector<Issue>;

// A candidate whose bytes as evaluated are not the planned ones (its file rewritten between
// planning and evaluation): an issue, never a verdict under the planned key.
Issue changed_since_planned(const std::string& file, const std::string& planned_sha256, const std::string& evaluated_sha256);

}  // namespace kbv::sweep
