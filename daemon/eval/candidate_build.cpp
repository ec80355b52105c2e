// eval/candidate_build.cpp — read the compile command lines a library carries and classify
// their optimisation level (see candidate_build.hpp).
#include "eval/candidate_build.hpp"

#include <sstream>

#include "eval/elf_check.hpp"

namespace kbv::eval {

namespace {

// The NUL-separated strings of a string section.
std::vector<std::string> strings_of(const std::string& section) {
  std::vector<std::string> strings;
  std::string::size_type start = 0;
  while (start < section.size()) {
    const auto end = section.find('\0', start);
    const auto stop = end == std::string::npos ? section.size() : end;
    if (stop > start) strings.push_back(section.substr(start, stop - start));
    start = stop + 1;
  }
  return strings;
}

// GCC's DW_AT_producer: "GNU C17 12.2.0 -mtune=generic -O2 …", "GNU C++20 12.2.0 …".
bool is_gcc_producer(const std::string& text) { return text.rfind("GNU C", 0) == 0 && text.find(' ') != std::string::npos; }

bool is_optimisation_token(const std::string& token) { return token.size() >= 2 && token.compare(0, 2, "-O") == 0; }

}  // namespace

std::string_view optimisation_name(BuildRecord::Optimisation optimisation) {
  switch (optimisation) {
    case BuildRecord::Optimisation::optimised: return "optimised";
    case BuildRecord::Optimisation::unoptimised: return "unoptimised";
    case BuildRecord::Optimisation::unknown: break;
  }
  return "unknown";
}

std::string effective_optimisation_flag(const std::string& command_line) {
  std::istringstream words(command_line);
  std::string token, last = "-O0";
  while (words >> token)
    if (is_optimisation_token(token)) last = token == "-O" ? "-O1" : token;
  return last;
}

BuildRecord classify_command_lines(const std::vector<std::string>& command_lines, const std::string& source) {
  BuildRecord record;
  record.source = source;
  for (const std::string& line : command_lines) {
    const std::string level = effective_optimisation_flag(line);
    record.levels.push_back(level);
    if (level == "-O0" || level == "-Og") ++record.unoptimised_lines;
  }
  if (command_lines.empty()) record.optimisation = BuildRecord::Optimisation::unknown;
  else if (record.unoptimised_lines > 0) record.optimisation = BuildRecord::Optimisation::unoptimised;
  else record.optimisation = BuildRecord::Optimisation::optimised;
  return record;
}

BuildRecord read_build_record(const std::filesystem::path& path) {
  if (const auto section = section_contents(path, ".GCC.command.line")) {
    const auto lines = strings_of(*section);
    if (!lines.empty()) return classify_command_lines(lines, ".GCC.command.line (-frecord-gcc-switches)");
  }
  if (const auto section = section_contents(path, ".debug_str")) {
    std::vector<std::string> producers;
    for (const std::string& text : strings_of(*section))
      if (is_gcc_producer(text)) producers.push_back(text);
    if (!producers.empty()) return classify_command_lines(producers, "GCC's DW_AT_producer in .debug_str (-g)");
  }
  return classify_command_lines({}, "no compile flags recorded in the library (kbv_add_candidate() records them with -frecord-gcc-switches)");
}

nlohmann::json BuildRecord::to_json() const {
  nlohmann::json out = {{"optimisation", optimisation_name(optimisation)}, {"source", source}, {"levels", levels}, {"scope", "host code"}};
  if (const auto text = note()) out["note"] = *text;
  return out;
}

std::optional<std::string> BuildRecord::note() const {
  if (optimisation != Optimisation::unoptimised) return std::nullopt;
  return "the candidate's host code was compiled without optimisation (" + std::to_string(unoptimised_lines) + " of " +
         std::to_string(levels.size()) + " recorded compile lines at -O0 or -Og, from " + source +
         "): its timing reflects that (fix: build with -O3, e.g. -DCMAKE_BUILD_TYPE=Release, or no build type with kbv_add_candidate())";
}

}  // namespace kbv::eval
