// spec/name_suggestions.hpp — the fix for an unknown name: the known names closest to it (a typo's
// likely target) instead of the whole list, which for the problem catalog is 230+ names long.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kbv {

// Lists shorter than this are given whole; longer ones only by their closest names.
inline constexpr std::size_t kListWholeBelow = 16;
// At most this many close names are suggested.
inline constexpr std::size_t kMostSuggestions = 5;

// The known names within a typo's reach of `given` (edit distance at most a third of its length,
// at least 2; or one containing the other), closest first, at most kMostSuggestions.
std::vector<std::string> closest_names(const std::string& given, const std::vector<std::string>& known);

// "use one of: a, b, c" for a short list; else "did you mean x or y? (LISTER lists all N)", or
// "LISTER lists all N" when nothing is close. LISTER names the command that lists them all.
std::string unknown_name_fix(const std::string& given, const std::vector<std::string>& known, const std::string& lister);

}  // namespace kbv
