// daemon/sweep/issue.cpp — text and JSON forms of a sweep's input issues.
#include "sweep/issue.hpp"

namespace kbv::sweep {

std::string Issue::text() const { return file + ": " + field + ": " + problem + "; fix: " + fix; }

nlohmann::json Issue::to_json() const { return {{"file", file}, {"field", field}, {"problem", problem}, {"fix", fix}}; }

Issue Issue::from_json(const nlohmann::json& json) {
  return {json.value("file", ""), json.value("field", ""), json.value("problem", ""), json.value("fix", "")};
}

}  // namespace kbv::sweep
