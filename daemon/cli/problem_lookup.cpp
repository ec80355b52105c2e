// cli/problem_lookup.cpp — problem names and KernelBench references ("L1/19").
#include "cli/problem_lookup.hpp"

#include "spec/name_suggestions.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <stdexcept>
#include <vector>

namespace kbv::cli {

std::optional<std::pair<int, int>> parse_kernelbench_ref(const std::string& text) {
  static const std::regex form(R"([Ll]([0-9]{1,3})/([0-9]{1,5}))");
  std::smatch match;
  if (!std::regex_match(text, match, form)) return std::nullopt;
  return std::pair{std::stoi(match[1]), std::stoi(match[2])};
}

std::string kernelbench_ref(const Problem& problem) {
  if (problem.level <= 0 || problem.kernelbench_id <= 0) return "";
  return "L" + std::to_string(problem.level) + "/" + std::to_string(problem.kernelbench_id);
}

namespace {

// For an id no problem carries: the ids of its level that are nearest, or the levels there are.
std::string known_levels(std::pair<int, int> wanted, const std::vector<std::string>& known) {
  const std::string level = "L" + std::to_string(wanted.first) + "/";
  std::vector<std::pair<int, std::string>> same_level;
  for (const auto& entry : known)
    if (entry.rfind(level, 0) == 0) same_level.emplace_back(std::abs(std::stoi(entry.substr(level.size())) - wanted.second), entry);
  const std::string all = "kbv problems lists all " + std::to_string(known.size()) + " KernelBench references";
  if (same_level.empty()) return "level " + std::to_string(wanted.first) + " has none; " + all;
  std::stable_sort(same_level.begin(), same_level.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string nearest;
  for (std::size_t i = 0; i < std::min(same_level.size(), kMostSuggestions); ++i) nearest += (i ? ", " : "") + same_level[i].second;
  return "the nearest are " + nearest + "; " + all;
}

}  // namespace

std::string resolve_problem_name(const ProblemCatalog& catalog, const std::string& text) {
  if (catalog.contains(text)) return text;
  if (const auto broken = catalog.load_errors().find(text); broken != catalog.load_errors().end())
    throw std::invalid_argument("problem '" + text + "' cannot be loaded: " + std::string(broken->second.what()));
  const auto ref = parse_kernelbench_ref(text);
  if (!ref)
    throw std::invalid_argument("unknown problem '" + text + "' (fix: " + unknown_name_fix(text, catalog.names(), "kbv problems") +
                                "; or KernelBench's L<level>/<id>, e.g. L1/19)");
  std::vector<std::string> matches;
  std::vector<std::string> known;
  for (const auto& name : catalog.names()) {
    const Problem& problem = catalog.get(name);
    if (problem.level == ref->first && problem.kernelbench_id == ref->second) matches.push_back(name);
    if (const std::string id = kernelbench_ref(problem); !id.empty()) known.push_back(id + " " + name);
  }
  if (matches.size() == 1) return matches.front();
  // A curated problem may carry the id of the KernelBench problem it is a variant of (softmax at
  // 65536 columns for L1/23's 393216): the reference names KernelBench's own problem, the one whose
  // `kernelbench:` provenance says it is that file; the variant is reached by its name.
  if (const Problem* own = catalog.find_kernelbench(ref->first, ref->second);
      own && std::find(matches.begin(), matches.end(), own->name) != matches.end())
    return own->name;
  if (matches.empty())
    throw std::invalid_argument("no problem is KernelBench " + text + " (fix: " +
                                (known.empty() ? std::string("none carries a KernelBench id") : known_levels(*ref, known)) + ")");
  std::string both;
  for (const auto& name : matches) both += (both.empty() ? "" : ", ") + name;
  throw std::invalid_argument("KernelBench " + text + " is claimed by several problems: " + both +
                              " (fix: give each problem a distinct level and kernelbench_id, or use the problem's name)");
}

}  // namespace kbv::cli
