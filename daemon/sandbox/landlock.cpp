// sandbox/landlock.cpp — Landlock ruleset built for the kernel's ABI (syscalls via syscall(2):
// glibc has no wrappers, and <linux/landlock.h> here may predate the kernel).
#include "sandbox/landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>

#include "sandbox/errors.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::sandbox {
namespace {

// Access rights by the ABI that introduced them (Documentation/userspace-api/landlock.rst;
// the installed header may stop at ABI 1, so the later bits are spelled out here).
constexpr std::uint64_t kFsExecute = 1ull << 0;
constexpr std::uint64_t kFsWriteFile = 1ull << 1;
constexpr std::uint64_t kFsReadFile = 1ull << 2;
constexpr std::uint64_t kFsReadDir = 1ull << 3;
constexpr std::uint64_t kFsRemoveDir = 1ull << 4;
constexpr std::uint64_t kFsRemoveFile = 1ull << 5;
constexpr std::uint64_t kFsMakeDir = 1ull << 7;
constexpr std::uint64_t kFsMakeReg = 1ull << 8;
constexpr std::uint64_t kFsAbi1All = (1ull << 13) - 1;  // EXECUTE … MAKE_SYM
constexpr std::uint64_t kFsRefer = 1ull << 13;          // ABI 2
constexpr std::uint64_t kFsTruncate = 1ull << 14;       // ABI 3
constexpr std::uint64_t kFsIoctlDev = 1ull << 15;       // ABI 5
constexpr std::uint64_t kNetBindTcp = 1ull << 0;        // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ull << 1;     // ABI 4
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ull << 0;  // ABI 6
constexpr std::uint64_t kScopeSignal = 1ull << 1;              // ABI 6
constexpr unsigned kCreateRulesetVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;

// Rights that make sense on a non-directory (others make landlock_add_rule fail with EINVAL).
constexpr std::uint64_t kFileRights = kFsExecute | kFsWriteFile | kFsReadFile | kFsTruncate | kFsIoctlDev;

// struct landlock_ruleset_attr as of ABI 6; the size passed tells the kernel which fields exist.
struct RulesetAttr {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;
  std::uint64_t scoped;
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
};

std::uint64_t handled_fs_rights(int abi) {
  std::uint64_t rights = kFsAbi1All;
  if (abi >= 2) rights |= kFsRefer;
  if (abi >= 3) rights |= kFsTruncate;
  if (abi >= 5) rights |= kFsIoctlDev;
  return rights;
}

// Adds one path-beneath rule. false when the path does not exist.
bool allow_beneath(int ruleset, const std::filesystem::path& path, std::uint64_t rights) {
  UniqueFd target(::open(path.c_str(), O_PATH | O_CLOEXEC));
  if (!target.valid()) {
    if (errno == ENOENT || errno == ENOTDIR || errno == EACCES) return false;
    throw_errno("landlock: open " + path.string());
  }
  struct stat info {};
  if (::fstat(target.get(), &info) != 0) throw_errno("landlock: fstat " + path.string());
  PathBeneathAttr rule{S_ISDIR(info.st_mode) ? rights : rights & kFileRights, target.get()};
  if (rule.allowed_access == 0) return true;
  if (::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0) != 0)
    throw_errno("landlock_add_rule " + path.string());
  return true;
}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

int landlock_abi(std::string* why_not) {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  if (abi > 0) return static_cast<int>(abi);
  if (errno == ENOSYS)
    *why_not = "the kernel has no Landlock (ENOSYS: CONFIG_SECURITY_LANDLOCK off or kernel < 5.13)";
  else if (errno == EOPNOTSUPP)
    *why_not = "Landlock is built but not enabled (EOPNOTSUPP: add landlock to the lsm= boot parameter)";
  else
    *why_not = with_errno("landlock_create_ruleset(version)", errno);
  return 0;
}

void apply_landlock(const SandboxPolicy& policy, int kernel_abi, const DeviceAccess& devices, SandboxReport& report) {
  const int abi = policy.landlock_abi_cap > 0 ? std::min(kernel_abi, policy.landlock_abi_cap) : kernel_abi;
  if (abi != kernel_abi) report.unavailable.push_back("landlock: ABI capped at " + std::to_string(abi) + " by the operator (kernel: " + std::to_string(kernel_abi) + ")");
  std::uint64_t handled = handled_fs_rights(abi);
  if (!policy.landlock_ioctl_dev && (handled & kFsIoctlDev)) {
    handled &= ~kFsIoctlDev;
    report.unavailable.push_back("landlock: ioctl on devices left uncontrolled by the operator");
  }
  RulesetAttr attr{handled, 0, 0};
  size_t attr_size = sizeof attr.handled_access_fs;
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;  // handled and never allowed: no TCP
    attr_size += sizeof attr.handled_access_net;
  }
  const std::uint64_t scopes = (policy.landlock_socket_scope ? kScopeAbstractUnixSocket : 0) | (policy.landlock_signal_scope ? kScopeSignal : 0);
  if (abi >= 6) {
    if (!policy.landlock_signal_scope) report.unavailable.push_back("landlock: signals not scoped (seccomp still refuses signals to other processes)");
    if (!policy.landlock_socket_scope) report.unavailable.push_back("landlock: abstract unix sockets not scoped");
    attr.scoped = scopes;
    attr_size += sizeof attr.scoped;
  }
  const bool scoped = abi >= 6 && scopes == (kScopeAbstractUnixSocket | kScopeSignal);
  UniqueFd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0)));
  if (!ruleset.valid()) throw_errno("landlock_create_ruleset");

  const std::uint64_t read_exec = kFsReadFile | kFsReadDir | kFsExecute;
  const std::uint64_t read_write = (kFsReadFile | kFsReadDir | kFsWriteFile | kFsTruncate | kFsMakeReg | kFsMakeDir |
                                    kFsRemoveFile | kFsRemoveDir | kFsRefer) & handled;
  const std::uint64_t device_rights = (kFsReadFile | kFsReadDir | kFsWriteFile | kFsIoctlDev) & handled;

  int readable = 0;
  std::string missing;
  for (const std::filesystem::path& path : policy.read_only) {
    if (allow_beneath(ruleset.get(), path, read_exec & handled))
      ++readable;
    else
      missing += (missing.empty() ? "" : ", ") + path.string();
  }
  if (!allow_beneath(ruleset.get(), policy.scratch_dir, read_write)) throw_error(ENOENT, "landlock: scratch " + policy.scratch_dir.string());
  for (const std::filesystem::path& path : policy.extra_writable)
    if (!allow_beneath(ruleset.get(), path, read_write)) missing += (missing.empty() ? "" : ", ") + path.string();
  for (const std::filesystem::path& path : policy.landlock_extra_read)
    if (allow_beneath(ruleset.get(), path, read_exec & handled)) report.applied.push_back("landlock: read+exec beneath " + path.string());
  for (const std::filesystem::path& path : policy.landlock_extra_write)
    if (allow_beneath(ruleset.get(), path, (kFsAbi1All | kFsRefer | kFsTruncate | kFsIoctlDev) & handled))
      report.unavailable.push_back("landlock: writable beyond scratch: " + path.string());
  int device_count = 0;
  for (const std::filesystem::path& device : devices.devices)
    if (allow_beneath(ruleset.get(), device, device_rights)) ++device_count;

  if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) throw_errno("landlock_restrict_self");

  std::string line = "filesystem: landlock ABI " + std::to_string(abi) + ", read+exec beneath " + std::to_string(readable) +
                     " paths, read+write beneath " + policy.scratch_dir.string() + ", read+write+ioctl on " +
                     std::to_string(device_count) + " devices, handled fs rights " + hex(handled);
  if (abi >= 4) line += "; TCP bind/connect denied";
  if (scoped) line += "; signals and abstract unix sockets scoped to the sandbox";
  if (!missing.empty()) line += "; skipped missing: " + missing;
  report.applied.push_back(line);
  if (abi < 3) report.unavailable.push_back("landlock ABI " + std::to_string(abi) + " < 3: truncate(2) on readable files is not controlled");
  if (abi < 4) report.unavailable.push_back("landlock ABI " + std::to_string(abi) + " < 4: no TCP rules (seccomp still refuses non-unix sockets)");
  if (abi < 5) report.unavailable.push_back("landlock ABI " + std::to_string(abi) + " < 5: ioctl on devices is not controlled");
  if (abi < 6)
    report.unavailable.push_back("landlock ABI " + std::to_string(abi) +
                                 " < 6: signals are not scoped (seccomp still refuses signals to other processes)");
}

}  // namespace kbv::sandbox
