// sweep/candidate.hpp — one candidate a sweep evaluates: a .so file, its identity (sha256), and
// what its sidecar manifest or its source says about it (model, sample, problem, tags).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

struct Candidate {
  std::filesystem::path path;
  std::string sha256;
  std::string name;       // the file name
  std::string model;      // empty: no model named
  std::string sample_id;
  std::string problem;    // empty: the problem the candidate declares (known after evaluation)
  int level = 0;          // the problem's level when the problem is known, else 0
  std::vector<std::string> tags;
  std::string source;     // where the sweep found it: "candidates[N]", or "history" (re-verification)

  // Identity of one evaluation row: the bytes and the problem they are evaluated as.
  std::string key() const;
  nlohmann::json to_json() const;
  static Candidate from_json(const nlohmann::json& json);
};

// "<sha256>-<problem>", or "<sha256>-declared" when the candidate names its own problem.
std::string evaluation_key(const std::string& sha256, const std::string& problem);

}  // namespace kbv::sweep
