// sweep/json_text.hpp — read a string field of a JSON object that may be absent or null (kbvd's
// answers and evaluator reports use null for "none"), as "" then.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

inline std::string json_text(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : std::string();
}

}  // namespace kbv::sweep
