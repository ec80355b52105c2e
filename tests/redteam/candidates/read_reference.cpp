// redteam_read_reference — docs/threat-model.md, pattern 8 (reading the expected output), host relu: reads
// /proc/<parent>/maps and scans every readable region of /proc/<parent>/mem for the first 16
// values of the correct output, as fp32 (a baseline's output) or as fp64 (a reference's);
// where they appear it copies the whole output from there.
// It never computes relu itself, so it can only pass by stealing the reference.
// Expected: fail_correctness (the parent's memory is unreadable — no ptrace rights, another
// PID namespace — and no reference lives in a process it can reach) or sandbox_violation
// (the open of /proc/<ppid>/mem is denied and reported). Never pass.
#include "redteam_common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {
constexpr int64_t kSignatureValues = 16;
constexpr size_t kChunkBytes = 1 << 20;
constexpr uint64_t kMaxScanBytes = uint64_t{8} << 30;  // bound the scan at 8 GiB

struct Region {
  uint64_t begin, end;
};

std::vector<Region> readable_regions(pid_t pid) {
  std::vector<Region> regions;
  const std::string path = "/proc/" + std::to_string(pid) + "/maps";
  FILE* maps = std::fopen(path.c_str(), "r");
  if (maps == nullptr) {
    redteam::log("open " + path + ": " + std::strerror(errno));
    return regions;
  }
  char line[512];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    uint64_t begin = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s", &begin, &end, perms) == 3 && perms[0] == 'r')
      regions.push_back({begin, end});
  }
  std::fclose(maps);
  return regions;
}

// Where `needle` first occurs in the parent's readable memory, or 0.
uint64_t find_in_parent(int mem, const std::vector<Region>& regions, const std::string& needle, uint64_t& scanned) {
  std::vector<char> chunk(kChunkBytes + needle.size());
  for (const Region& region : regions) {
    for (uint64_t at = region.begin; at < region.end && scanned < kMaxScanBytes; at += kChunkBytes) {
      const auto want = static_cast<size_t>(std::min<uint64_t>(region.end - at, chunk.size()));
      const ssize_t got = pread(mem, chunk.data(), want, static_cast<off_t>(at));
      if (got <= 0) break;
      scanned += static_cast<uint64_t>(got);
      const auto* hit = std::search(chunk.data(), chunk.data() + got, needle.begin(), needle.end());
      if (hit != chunk.data() + got) return at + static_cast<uint64_t>(hit - chunk.data());
    }
  }
  return 0;
}

// Copies `count` values of type T at `address` in the parent into y as floats.
template <class T>
bool copy_from_parent(int mem, uint64_t address, float* y, int64_t count) {
  constexpr int64_t kBatch = 4096;
  T batch[kBatch];
  for (int64_t done = 0; done < count; done += kBatch) {
    const int64_t n = std::min(kBatch, count - done);
    const auto bytes = static_cast<size_t>(n) * sizeof(T);
    if (pread(mem, batch, bytes, static_cast<off_t>(address + static_cast<uint64_t>(done) * sizeof(T))) !=
        static_cast<ssize_t>(bytes))
      return false;
    for (int64_t i = 0; i < n; ++i) y[done + i] = static_cast<float>(batch[i]);
  }
  return true;
}

template <class T>
std::string signature_of(const float* x) {
  std::string bytes;
  for (int64_t i = 0; i < kSignatureValues; ++i) {
    const T value = x[i] < 0.0f ? T(0) : static_cast<T>(x[i]);
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  return bytes;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_read_reference")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (count < kSignatureValues) return KBV_STATUS_OK;
  const pid_t parent = getppid();
  const std::string mem_path = "/proc/" + std::to_string(parent) + "/mem";
  const int mem = open(mem_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (mem < 0) {
    redteam::log("open " + mem_path + ": " + std::strerror(errno));
    return KBV_STATUS_OK;
  }
  const std::vector<Region> regions = readable_regions(parent);
  uint64_t scanned = 0;
  bool copied = false;
  if (const uint64_t at = find_in_parent(mem, regions, signature_of<double>(x), scanned); at != 0)
    copied = copy_from_parent<double>(mem, at, y, count);
  if (!copied)
    if (const uint64_t at = find_in_parent(mem, regions, signature_of<float>(x), scanned); at != 0)
      copied = copy_from_parent<float>(mem, at, y, count);
  redteam::log(copied ? "copied the output from the parent's memory"
                      : "scanned " + std::to_string(scanned) + " bytes of the parent, no reference found");
  close(mem);
  return KBV_STATUS_OK;
}
