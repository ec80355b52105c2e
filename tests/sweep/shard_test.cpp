// tests/sweep/shard_test.cpp — --shard I/N parsing and the deterministic, problem-grouped
// assignment of a sweep's candidates to shards.
#include "sweep/shard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace kbv::sweep {
namespace {

TEST(Shard, ParsesIOfN) {
  const auto spec = parse_shard("2/8");
  EXPECT_EQ(spec.index, 2);
  EXPECT_EQ(spec.count, 8);
  EXPECT_EQ(spec.name(), "2-of-8");
  EXPECT_TRUE(parse_shard("1/1").whole());
  for (const char* bad : {"", "2", "0/3", "4/3", "a/b", "1/", "/2", "1/2/3", "1.5/2", "-1/2"})
    EXPECT_THROW(parse_shard(bad), std::invalid_argument) << bad;
  try {
    parse_shard("3");
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("fix: write e.g. --shard 2/8"), std::string::npos) << error.what();
  }
}

TEST(Shard, KeepsEachProblemTogetherWhenItFits) {
  // 4 problems of 3 candidates over 4 shards: a fair share is 3, so each problem is one piece.
  std::vector<std::string> problems;
  for (const char* p : {"a", "b", "c", "d"})
    for (int i = 0; i < 3; ++i) problems.push_back(p);
  const auto shard = assign_shards(problems, 4);
  std::map<std::string, std::set<int>> shards_of;
  std::map<int, int> load;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    shards_of[problems[i]].insert(shard[i]);
    ++load[shard[i]];
  }
  for (const auto& [problem, shards] : shards_of) EXPECT_EQ(shards.size(), 1u) << problem << " is split";
  for (int s = 1; s <= 4; ++s) EXPECT_EQ(load[s], 3) << "shard " << s;
}

TEST(Shard, CutsAProblemLargerThanAFairShare) {
  // 10 candidates of one problem and 2 of another over 3 shards: fair share 4.
  std::vector<std::string> problems(10, "big");
  problems.insert(problems.end(), {"small", "small"});
  const auto shard = assign_shards(problems, 3);
  std::map<int, int> load;
  for (const int s : shard) ++load[s];
  for (int s = 1; s <= 3; ++s) EXPECT_LE(load[s], 4) << "shard " << s;
  EXPECT_EQ(shard[10], shard[11]) << "the small problem stays together";
  // Consecutive candidates of the big problem share a shard (pieces are contiguous).
  EXPECT_EQ(shard[0], shard[3]);
  EXPECT_EQ(shard[4], shard[7]);
}

TEST(Shard, SameInputSameAnswerAndEveryItemAssigned) {
  std::vector<std::string> problems;
  for (int i = 0; i < 97; ++i) problems.push_back("p" + std::to_string(i * 7 % 13));
  const auto first = assign_shards(problems, 5);
  EXPECT_EQ(first, assign_shards(problems, 5));
  for (const int s : first) {
    EXPECT_GE(s, 1);
    EXPECT_LE(s, 5);
  }
  EXPECT_EQ(assign_shards(problems, 1), std::vector<int>(problems.size(), 1));
  EXPECT_TRUE(assign_shards({}, 4).empty());
}

}  // namespace
}  // namespace kbv::sweep
