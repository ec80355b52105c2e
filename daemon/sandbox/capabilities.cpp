// sandbox/capabilities.cpp — capability dropping with prctl(2) and capset(2), no libcap.
#include "sandbox/capabilities.hpp"

#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/paths.hpp"

namespace kbv::sandbox {
namespace {

// The highest capability number this kernel knows (the headers may be older).
int last_capability() {
  const std::optional<std::string> text = read_small_file("/proc/sys/kernel/cap_last_cap");
  if (text) {
    try {
      return std::stoi(*text);
    } catch (const std::exception&) {
    }
  }
  return CAP_LAST_CAP;
}

}  // namespace

void drop_capabilities(SandboxReport& report) {
  std::string notes;
  // uid 0 never regains capabilities through exec or setuid fix-ups; locked so it stays so.
  constexpr unsigned long kSecurebits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                                        SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
                                        SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
  if (::prctl(PR_SET_SECUREBITS, kSecurebits, 0, 0, 0) != 0) notes += with_errno("; securebits not locked", errno);
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    notes += with_errno("; ambient set not cleared", errno);
  int kept_in_bounding = 0;
  for (int capability = 0; capability <= last_capability(); ++capability)
    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL) ++kept_in_bounding;
  if (kept_in_bounding > 0)
    notes += "; " + std::to_string(kept_in_bounding) + " capabilities left in the bounding set (no CAP_SETPCAP)";

  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capset, &header, data) != 0) throw_errno("capset(all sets empty)");
  report.applied.push_back("capabilities: effective, permitted, inheritable and ambient sets empty" + notes);
}

}  // namespace kbv::sandbox
