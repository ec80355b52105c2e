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

}  // namespace kbv::sweep
