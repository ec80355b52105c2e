// arena_stash.hpp — what relu_stash_writer and relu_stash_reader share: the bounds of the shared
// arena mapping that holds a pointer (read from /proc/self/maps), and the marker the writer leaves
// there for a later candidate evaluated in the same process (eval/evaluation_session.hpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace arena_stash {

constexpr char kMarker[] = "kbv-stash-left-by-an-earlier-candidate-0123456789abcdefghijklmn";  // 64 bytes with its NUL
constexpr size_t kMarkerBytes = sizeof kMarker;

// [begin, end) of the mapping that contains `pointer`, or {0, 0}.
inline std::pair<uintptr_t, uintptr_t> mapping_of(const void* pointer) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return {0, 0};
  char line[512];
  std::pair<uintptr_t, uintptr_t> found{0, 0};
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long begin = 0, end = 0;
    if (std::sscanf(line, "%lx-%lx", &begin, &end) == 2 && begin <= address && address < end) {
      found = {begin, end};
      break;
    }
  }
  std::fclose(maps);
  return found;
}

}  // namespace arena_stash
