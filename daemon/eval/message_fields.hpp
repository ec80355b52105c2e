// eval/message_fields.hpp — reading fields of the worker's messages, which are untrusted: a
// field of the wrong type reads as absent (nlohmann's value() would throw, and a forged frame
// became the caller's bad_input), text is bounded. Every read of a worker message goes through these.
#pragma once

#include <string>
#include <vector>

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

// A message's "type": "" when absent or not text.
inline std::string message_type(const nlohmann::json& message) { return text_field(message, "type"); }

// Whether a message answers request `id` with `type` (an id of another type never matches).
inline bool answers(const nlohmann::json& message, const char* type, long long id) {
  return message_type(message) == type && message.is_object() && message.contains("id") && message["id"].is_number_integer() &&
         message["id"].get<long long>() == id;
}

// An object field, or an empty object when absent or not an object.
inline nlohmann::json object_field(const nlohmann::json& message, const char* key) {
  if (!message.is_object() || !message.contains(key) || !message[key].is_object()) return nlohmann::json::object();
  return message[key];
}

// A list of texts, each bounded; empty when absent, not a list, or holding anything but text.
inline std::vector<std::string> text_list_field(const nlohmann::json& message, const char* key) {
  if (!message.is_object() || !message.contains(key) || !message[key].is_array()) return {};
  std::vector<std::string> texts;
  for (const auto& item : message[key]) {
    if (!item.is_string()) return {};
    std::string text = item.get<std::string>();
    if (text.size() > kMaxWorkerTextBytes) text = text.substr(0, kMaxWorkerTextBytes) + "…";
    texts.push_back(std::move(text));
  }
  return texts;
}

}  // namespace kbv::eval
