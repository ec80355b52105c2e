// Plain-text renderings of kbvd's control answers, for terminals (kbv status/results, kbvctl).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kbv::control {

std::string format_status(const nlohmann::json& status);
std::string format_results(const nlohmann::json& list);   // the answer of results_list
std::string format_result(const nlohmann::json& shown);   // the answer of results_show
std::string format_submit(const nlohmann::json& answer);

}  // namespace kbv::control
