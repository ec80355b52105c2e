// daemon/sweep/candidate.cpp — a candidate's key and JSON form.
#include "sweep/candidate.hpp"

namespace kbv::sweep {

std::string evaluation_key(const std::string& sha256, const std::string& problem) {
  return sha256 + "-" + (problem.empty() ? std::string("declared") : problem);
}

std::string Candidate::key() const { return evaluation_key(sha256, problem); }

nlohmann::json Candidate::to_json() const {
  return {{"path", path.string()}, {"sha256", sha256}, {"name", name},       {"model", model},   {"sample_id", sample_id},
          {"problem", problem},    {"level", level},   {"tags", tags},       {"source", source}};
}

Candidate Candidate::from_json(const nlohmann::json& json) {
  Candidate c;
  c.path = json.value("path", "");
  c.sha256 = json.value("sha256", "");
  c.name = json.value("name", "");
  c.model = json.value("model", "");
  c.sample_id = json.value("sample_id", "");
  c.problem = json.value("problem", "");
  c.level = json.value("level", 0);
  if (json.contains("tags") && json["tags"].is_array())
    for (const auto& tag : json["tags"])
      if (tag.is_string()) c.tags.push_back(tag.get<std::string>());
  c.source = json.value("source", "");
  return c;
}

}  // namespace kbv::sweep
