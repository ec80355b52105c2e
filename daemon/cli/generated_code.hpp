// cli/generated_code.hpp — names, numbers and dims as the CLI writes them into code (`kbv prompt`'s
// Python forward and C++ candidate skeleton) and into tables (`kbv problems NAME`).
//
// Spec names are free text (docs/problem-spec.md); in practice they are identifiers already
// (x, conv_weight, t0) and come out unchanged. Anything else becomes one: every character that
// cannot appear in an identifier turns into '_', a leading digit gets a '_' in front, and a
// keyword of the language gets a '_' behind.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

std::string python_identifier(const std::string& name);
std::string cpp_identifier(const std::string& name);

// The shortest decimal that reads back as `value` ("1e-05", "0.01", "2"), valid in Python and
// C++ alike for finite values.
std::string shortest_decimal(double value);

// A tensor's declared dims as written in comments and tables: "[batch, dim]".
std::string dims_text(const std::vector<std::string>& dims);

}  // namespace kbv::cli
