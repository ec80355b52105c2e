// daemon/sweep/issue.cpp — text and JSON forms of a sweep's input issues.
#include "sweep/issue.hpp"

#include <fmt/format.h>

namespace kbv::sweep {

std::string Issue::text() const { return file + ": " + field + ": " + problem + "; fix: " + fix; }

nlohmann::json Issue::to_json() const { return {{"file", file}, {"field", field}, {"problem", problem}, {"fix", fix}}; }

Issue Issue::from_json(const nlohmann::json& json) {
  return {json.value("file", ""), json.value("field", ""), json.value("problem", ""), json.value("fix", "")};
}

Issue changed_since_planned(const std::string& file, const std::string& planned_sha256, const std::string& evaluated_sha256) {
  return {file, "(file)",
          fmt::format("changed since the sweep planned it: planned sha256 {}, evaluated {}", planned_sha256.substr(0, 12), evaluated_sha256.substr(0, 12)),
          "leave candidates unchanged while a sweep runs; the next run plans the bytes the file has then"};
}

}  // namespace kbv::sweep
