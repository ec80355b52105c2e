// client/json_dump.hpp — JSON as text where its strings may hold a submitter's bytes (file names,
// manifest fields, a candidate's output): a sequence that is not UTF-8 becomes U+FFFD instead of
// nlohmann's type_error, which ended `kbv sweep` on a candidate named "\xff.so".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::control {

inline std::string json_dump(const nlohmann::json& value, int indent = -1) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kbv::control
