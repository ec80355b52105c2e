// cli/generated_code.cpp — spec names as Python and C++ identifiers; shortest decimals; dims.
#include "cli/generated_code.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>
#include <string_view>

namespace kbv::cli {

namespace {

// Python 3's keyword.kwlist.
constexpr std::string_view kPythonKeywords[] = {
    "False", "None",   "True",    "and",      "as",   "assert", "async", "await",  "break", "class", "continue", "def",
    "del",   "elif",   "else",    "except",   "finally", "for", "from",  "global", "if",    "import", "in",      "is",
    "lambda", "nonlocal", "not",  "or",       "pass", "raise",  "return", "try",   "while", "with",  "yield"};

// C++20's keywords and alternative tokens ([lex.key], [lex.digraph]).
constexpr std::string_view kCppKeywords[] = {
    "alignas",   "alignof",      "and",        "and_eq",      "asm",          "auto",        "bitand",   "bitor",     "bool",
    "break",     "case",         "catch",      "char",        "char8_t",      "char16_t",    "char32_t", "class",     "compl",
    "concept",   "const",        "consteval",  "constexpr",   "constinit",    "const_cast",  "continue", "co_await",  "co_return",
    "co_yield",  "decltype",     "default",    "delete",      "do",           "double",      "dynamic_cast", "else",  "enum",
    "explicit",  "export",       "extern",     "false",       "float",        "for",         "friend",   "goto",      "if",
    "inline",    "int",          "long",       "mutable",     "namespace",    "new",         "noexcept", "not",       "not_eq",
    "nullptr",   "operator",     "or",         "or_eq",       "private",      "protected",   "public",   "register",  "reinterpret_cast",
    "requires",  "return",       "short",      "signed",      "sizeof",       "static",      "static_assert", "static_cast", "struct",
    "switch",    "template",     "this",       "thread_local", "throw",       "true",        "try",      "typedef",   "typeid",
    "typename",  "union",        "unsigned",   "using",       "virtual",      "void",        "volatile", "wchar_t",   "while",
    "xor",       "xor_eq",       "final",      "override",    "import"};

template <size_t N>
std::string identifier(const std::string& name, const std::string_view (&keywords)[N]) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out.insert(out.begin(), '_');
  if (std::find(std::begin(keywords), std::end(keywords), out) != std::end(keywords)) out += '_';
  return out;
}

}  // namespace

std::string python_identifier(const std::string& name) { return identifier(name, kPythonKeywords); }
std::string cpp_identifier(const std::string& name) { return identifier(name, kCppKeywords); }

std::string shortest_decimal(double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest round trip
  return std::string(buffer, error == std::errc() ? end : buffer);
}

std::string dims_text(const std::vector<std::string>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + dims[i];
  return text + "]";
}

}  // namespace kbv::cli
