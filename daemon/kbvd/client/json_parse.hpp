// client/json_parse.hpp — JSON read from outside kbv's own process (a control request, a worker's
// message, a record read back from disk): parsed with its nesting bounded. nlohmann parses and
// frees deep nesting without recursion, but dump() and copies recurse once per level, so a 1 MiB
// request 500 000 arrays deep overflowed kbvd's stack when an error message quoted it, and a
// worker's forged message the evaluator's when it copied a field (review). Header-only, so the
// worker protocol, kbvd and the sweep share it (kbv_protocol reaches it as kbvd/client/…).
#pragma once

#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kbv::control {

// Deepest nesting a control request may have: kbv's own are at most 3 levels deep.
inline constexpr int kMaxRequestDepth = 32;

// The parsed value, or a discarded one (is_discarded()) when `text` is not JSON or nests deeper
// than `max_depth`; `*too_deep` (when given) tells the second from the first.
inline nlohmann::json parse_bounded(std::string_view text, int max_depth, bool* too_deep = nullptr) {
  if (too_deep) *too_deep = false;
  struct TooDeep : std::length_error {
    using std::length_error::length_error;
  };
  const nlohmann::json::parser_callback_t bounded = [max_depth](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > max_depth) throw TooDeep("nested too deeply");
    return true;
  };
  try {
    return nlohmann::json::parse(text, bounded, false);
  } catch (const TooDeep&) {
    if (too_deep) *too_deep = true;
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

}  // namespace kbv::control
