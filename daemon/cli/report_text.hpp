// cli/report_text.hpp — evaluation results as text for people: one summary, or a table whose rows
// are printed as each candidate finishes.
#pragma once

#include <ostream>
#include <vector>

#include "eval/verdict.hpp"

namespace kbv::cli {

void print_summary(std::ostream& out, const eval::EvalResult& result);
void print_table_header(std::ostream& out);
void print_table_row(std::ostream& out, const eval::EvalResult& result);
// "2 of 3 candidates passed", and which candidates could not be evaluated at all and why.
void print_table_footer(std::ostream& out, const std::vector<eval::EvalResult>& results);
// The tail of what the worker (and so the candidate) wrote on stderr, indented (kbv eval --verbose).
void print_worker_output(std::ostream& out, const eval::EvalResult& result);
// "12.3 us", "4.56 ms", "1.20 s".
std::string format_seconds(double seconds);

}  // namespace kbv::cli
