// spec/name_suggestions.cpp — closest known names by edit distance, for unknown-name errors.
#include "spec/name_suggestions.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace kbv {
namespace {

std::string lowered(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Levenshtein distance, two rows.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string joined(const std::vector<std::string>& names, const std::string& last_separator) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? last_separator : ", ") + names[i];
  return text;
}

}  // namespace

std::vector<std::string> closest_names(const std::string& given, const std::vector<std::string>& known) {
  const std::string wanted = lowered(given);
  if (wanted.empty()) return {};
  const std::size_t reach = std::max<std::size_t>(2, wanted.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const auto& name : known) {
    const std::string candidate = lowered(name);
    std::size_t distance = edit_distance(wanted, candidate);
    // A fragment of a long name ("matmul" for matmul_scale_residual) is close however many
    // characters it lacks; ranked after true typos of the same distance.
    const bool contains = wanted.size() >= 3 && (candidate.find(wanted) != std::string::npos || wanted.find(candidate) != std::string::npos);
    if (distance <= reach || contains) near.emplace_back(contains && distance > reach ? reach + 1 : distance, name);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (const auto& [distance, name] : near) {
    if (names.size() == kMostSuggestions) break;
    names.push_back(name);
  }
  return names;
}

std::string unknown_name_fix(const std::string& given, const std::vector<std::string>& known, const std::string& lister) {
  if (known.size() < kListWholeBelow) return known.empty() ? "none is known; " + lister + " lists them" : "use one of: " + joined(known, ", ");
  const std::string all = lister + " lists all " + std::to_string(known.size());
  const auto close = closest_names(given, known);
  if (close.empty()) return all;
  return "did you mean " + joined(close, " or ") + "? (" + all + ")";
}

}  // namespace kbv
