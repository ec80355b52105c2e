// client/json_parse.hpp — JSON read from a local client (a control request): parsed with its
// nesting bounded. nlohmann parses and frees deep nesting without recursion, but dump() and copies
// recurse once per level, so a 1 MiB request 500 000 arrays deep overflowed kbvd's stack when an
// error message quoted it (review).
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::control {

// Deepest nesting a control request may have: kbv's own are at most 3 levels deep.
inline constexpr int kMaxRequestDepth = 32;

// The parsed value, or a discarded one (is_discarded()) when `text` is not JSON or nests deeper
// than kMaxRequestDepth.
inline nlohmann::json parse_bounded(const std::string& text) {
  const nlohmann::json::parser_callback_t bounded = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxRequestDepth) throw std::length_error("nested too deeply");
    return true;
  };
  try {
    return nlohmann::json::parse(text, bounded, false);
  } catch (const std::length_error&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

}  // namespace kbv::control
