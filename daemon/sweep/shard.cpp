// daemon/sweep/shard.cpp — shard specs and the deterministic problem-grouped assignment.
#include "sweep/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace kbv::sweep {

std::string ShardSpec::name() const { return fmt::format("{}-of-{}", index, count); }

ShardSpec parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  ShardSpec spec;
  try {
    if (slash == std::string::npos) throw std::invalid_argument(text);
    std::size_t used = 0;
    spec.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument(text);
    spec.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("--shard '{}' is not I/N; fix: write e.g. --shard 2/8 (shard 2 of 8)", text));
  }
  if (spec.count < 1 || spec.index < 1 || spec.index > spec.count)
    throw std::invalid_argument(fmt::format("--shard {}: needs 1 <= I <= N; fix: number shards from 1 to N", text));
  return spec;
}

std::vector<int> assign_shards(const std::vector<std::string>& problem_of_item, int count) {
  std::vector<int> shard(problem_of_item.size(), 1);
  if (count <= 1 || problem_of_item.empty()) return shard;
  std::map<std::string, std::vector<std::size_t>> by_problem;
  for (std::size_t i = 0; i < problem_of_item.size(); ++i) by_problem[problem_of_item[i]].push_back(i);
  const std::size_t fair = (problem_of_item.size() + static_cast<std::size_t>(count) - 1) / static_cast<std::size_t>(count);
  struct Piece {
    std::string problem;
    std::size_t first = 0;
    std::vector<std::size_t> items;
  };
  std::vector<Piece> pieces;
  for (const auto& [problem, items] : by_problem)
    for (std::size_t first = 0; first < items.size(); first += fair)
      pieces.push_back({problem, first, {items.begin() + static_cast<std::ptrdiff_t>(first),
                                         items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), first + fair))}});
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    return std::make_tuple(b.items.size(), a.problem, a.first) < std::make_tuple(a.items.size(), b.problem, b.first);
  });
  std::vector<std::size_t> load(static_cast<std::size_t>(count), 0);
  for (const auto& piece : pieces) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[least] += piece.items.size();
    for (const auto item : piece.items) shard[item] = static_cast<int>(least) + 1;
  }
  return shard;
}

}  // namespace kbv::sweep
