// sweep/shard.hpp — split a sweep into N deterministic shards (`kbv sweep --shard I/N`), one per
// task of a job array: candidates stay grouped by problem, so each shard evaluates few problems
// with many candidates each.
#pragma once

#include <string>
#include <vector>

namespace kbv::sweep {

struct ShardSpec {
  int index = 1;  // 1-based
  int count = 1;
  bool whole() const { return count == 1; }
  std::string name() const;  // "I-of-N"
};

// Parses "I/N" (1 <= I <= N); throws std::invalid_argument with a message naming the fix.
ShardSpec parse_shard(const std::string& text);

// The shard (1-based) of each item, given each item's problem. The same inputs always give the
// same answer: items of one problem are kept together unless the problem alone holds more than
// a fair share (ceil(items / N)), in which case it is cut into consecutive pieces of at most
// that size; pieces go, largest first, to the least loaded shard (lowest index on ties).
std::vector<int> assign_shards(const std::vector<std::string>& problem_of_item, int count);

}  // namespace kbv::sweep
