// sandbox/rlimits.cpp — setrlimit for each limit in the policy, and for the CUDA worker's
// address space once its device is up (address_space.hpp), reported with its value.
#include "sandbox/rlimits.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "sandbox/address_space.hpp"
#include "sandbox/errors.hpp"

namespace kbv::sandbox {
namespace {

// SIGXCPU at the soft limit, SIGKILL at the hard one: 5 s lets the evaluator see the former.
constexpr rlim_t kCpuHardGraceSeconds = 5;

// Sets soft/hard; a hard limit above the inherited one is lowered to it (raising needs
// CAP_SYS_RESOURCE and would loosen the parent's choice). Returns the line for the report.
std::string set_limit(int resource, const char* name, rlim_t soft, rlim_t hard) {
  rlimit current{};
  if (::getrlimit(resource, &current) != 0) throw_errno(std::string("getrlimit ") + name);
  std::string note;
  if (current.rlim_max != RLIM_INFINITY && hard > current.rlim_max) {
    hard = current.rlim_max;
    note = " (inherited hard limit kept)";
  }
  if (soft > hard) soft = hard;
  const rlimit wanted{soft, hard};
  if (::setrlimit(resource, &wanted) != 0) throw_errno(std::string("setrlimit ") + name);
  return std::string(name) + "=" + std::to_string(soft) + (hard != soft ? "/" + std::to_string(hard) : "") + note;
}

}  // namespace

void apply_resource_limits(const SandboxPolicy& policy, SandboxReport& report) {
  std::string line = "rlimits:";
  if (policy.max_open_files) line += " " + set_limit(RLIMIT_NOFILE, "nofile", *policy.max_open_files, *policy.max_open_files);
  if (policy.max_cpu_seconds)
    line += " " + set_limit(RLIMIT_CPU, "cpu_s", *policy.max_cpu_seconds, *policy.max_cpu_seconds + kCpuHardGraceSeconds);
  if (policy.max_file_size_bytes)
    line += " " + set_limit(RLIMIT_FSIZE, "fsize", *policy.max_file_size_bytes, *policy.max_file_size_bytes);
  if (policy.max_address_space_bytes)
    line += " " + set_limit(RLIMIT_AS, "as", *policy.max_address_space_bytes, *policy.max_address_space_bytes);
  report.applied.push_back(line);
}

std::string apply_address_space_limit(std::uint64_t bytes, const std::string& reason) {
  return "rlimits: " + set_limit(RLIMIT_AS, "as", bytes, bytes) + " (" + reason + ")";
}

void apply_process_limit(const SandboxPolicy& policy, bool own_user_namespace, SandboxReport& report) {
  if (!policy.max_processes) return;
  std::string line = "rlimits: " + set_limit(RLIMIT_NPROC, "nproc", *policy.max_processes, *policy.max_processes);
  if (::getuid() == 0) {
    // copy_process() exempts real uid 0 (INIT_USER) and CAP_SYS_RESOURCE/ADMIN holders.
    report.unavailable.push_back(line + ": not enforced, real uid 0 is exempt from RLIMIT_NPROC");
    return;
  }
  line += own_user_namespace ? " (counts the tasks of this worker's user namespace)"
                             : " (no user namespace: counts every task of uid " + std::to_string(::getuid()) + ")";
  report.applied.push_back(line);
}

}  // namespace kbv::sandbox
