// eval/message_fields.hpp — reading fields of the worker's messages, which are untrusted: a
// field of the wrong type reads as absent (nlohmann's value() would throw), text is bounded.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::eval {

// Longest text the evaluator copies from one field of a worker message into a report.
constexpr size_t kMaxWorkerTextBytes = 2000;

inline std::string text_field(const nlohmann::json& message, const char* key) {
  if (!message.is_object() || !message.contains(key) || !message[key].is_string()) return "";
  std::string text = message[key].get<std::string>();
  if (text.size() > kMaxWorkerTextBytes) text = text.substr(0, kMaxWorkerTextBytes) + "…";
  return text;
}

inline double number_field(const nlohmann::json& message, const char* key, double fallback = 0) {
  if (!message.is_object() || !message.contains(key) || !message[key].is_number()) return fallback;
  return message[key].get<double>();
}

inline bool bool_field(const nlohmann::json& message, const char* key) {
  return message.is_object() && message.contains(key) && message[key].is_boolean() && message[key].get<bool>();
}

}  // namespace kbv::eval
