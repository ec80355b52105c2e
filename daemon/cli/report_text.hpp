// cli/report_text.hpp — evaluation results as text for people: one summary, or a table.
#pragma once

#include <ostream>
#include <vector>

#include "eval/verdict.hpp"

namespace kbv::cli {

void print_summary(std::ostream& out, const eval::EvalResult& result);
void print_table(std::ostream& out, const std::vector<eval::EvalResult>& results);
// "12.3 µs", "4.56 ms", "1.20 s".
std::string format_seconds(double seconds);

}  // namespace kbv::cli
