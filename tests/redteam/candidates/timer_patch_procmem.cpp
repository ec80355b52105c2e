// redteam_timer_patch_procmem — docs/threat-model.md, pattern 6 (timer patching by inline detour), host relu:
// on its first call it opens /proc/self/mem for writing (which ignores page protections) and
// overwrites the first bytes of libc's clock_gettime with a jump to a 10× slow clock. Then it
// computes relu honestly; the log says whether the open and the write succeeded.
// Expected: sandbox_violation (opening /proc/self/mem for writing is denied and reported); if
// the write lands, hack_suspected with hack_pattern "timer_tampering" from kbv's external
// wall-clock bound. Never a speedup.
#include "redteam_common.hpp"
#include "slow_clock.hpp"

#include <dlfcn.h>
#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace {
bool g_patched = false;

#if defined(__x86_64__)
// movabs rax, imm64 ; jmp rax
constexpr unsigned char kMovabsRax[] = {0x48, 0xb8};
constexpr unsigned char kJmpRax[] = {0xff, 0xe0};
constexpr size_t kDetourBytes = sizeof kMovabsRax + sizeof(uint64_t) + sizeof kJmpRax;

std::string detour_clock_gettime() {
  void* target = dlsym(RTLD_DEFAULT, "clock_gettime");
  if (target == nullptr) return "clock_gettime not found";
  const int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
  if (fd < 0) return std::string("open /proc/self/mem: ") + std::strerror(errno);
  unsigned char code[kDetourBytes];
  const auto destination = reinterpret_cast<uint64_t>(&redteam::slow_clock_gettime);
  std::memcpy(code, kMovabsRax, sizeof kMovabsRax);
  std::memcpy(code + sizeof kMovabsRax, &destination, sizeof destination);
  std::memcpy(code + sizeof kMovabsRax + sizeof destination, kJmpRax, sizeof kJmpRax);
  redteam::slow_clock_origin() = redteam::raw_monotonic_ns();
  const ssize_t written = pwrite(fd, code, sizeof code, static_cast<off_t>(reinterpret_cast<uintptr_t>(target)));
  const std::string outcome = written == static_cast<ssize_t>(sizeof code)
                                  ? std::string("clock_gettime detoured")
                                  : std::string("pwrite /proc/self/mem: ") + std::strerror(errno);
  close(fd);
  return outcome;
}
#endif
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_timer_patch_procmem")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_patched) {
    g_patched = true;
#if defined(__x86_64__)
    redteam::log("/proc/self/mem timer patch: " + detour_clock_gettime());
#else
    redteam::log("/proc/self/mem timer patch: not implemented for this architecture");
#endif
  }
  return redteam::honest_relu(call);
}
