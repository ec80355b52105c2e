// worker/sandbox_setup.cpp — translate the worker's settings into a kbv::sandbox policy.
#include "worker/sandbox_setup.hpp"

#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#ifdef KBV_HAVE_SANDBOX
#include "protocol/messages.hpp"
#include "sandbox/address_space.hpp"
#include "sandbox/operator_skips.hpp"
#include "sandbox/sandbox.hpp"
#endif

namespace kbv::worker {


bool confine_worker(const SandboxSettings& settings, ConfinementReport* report, std::string* error) {
  // Always: no privilege gain through exec, and no ptrace or /proc/pid/mem by same-uid peers.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    *error = "prctl(NO_NEW_PRIVS / DUMPABLE) failed";
    return false;
  }
  if (!settings.enabled) {
    report->unavailable.push_back("sandbox: off (kbv eval --no-sandbox): only no_new_privs and not dumpable");
    return true;
  }
#ifdef KBV_HAVE_SANDBOX
  try {
    sandbox::SandboxPolicy policy = sandbox::worker_policy(settings.scratch_dir, settings.candidate, settings.forbidden, settings.cuda);
    policy.violation_fd = protocol::kViolationFd;
    // KBV_SANDBOX_SKIP=userns,netns,mountns,filesystem,landlock,seccomp: the operator leaves layers out
    // to diagnose a device that fails under the full sandbox. Each is in the report.
    if (const std::vector<std::string> tokens = sandbox::operator_skipped_layers(); !tokens.empty()) {
      auto has = [&](const char* layer) { return std::find(tokens.begin(), tokens.end(), layer) != tokens.end(); };
      if (has("userns")) policy.new_user_namespace = false;
      if (has("netns")) policy.new_network_namespace = false;
      if (has("mountns")) policy.new_mount_namespace = false;
      if (has("filesystem")) policy.confine_filesystem = false;
      if (has("seccomp")) policy.install_seccomp = false;
      if (has("landlock")) policy.filesystem = sandbox::FilesystemLayer::mount_namespace;
      if (has("forcelandlock")) policy.filesystem = sandbox::FilesystemLayer::automatic;
      if (has("privateshm")) policy.shared_extra_writable = true;
      if (has("readall")) policy.read_only.emplace_back("/");
      if (has("procall")) policy.read_only.emplace_back("/proc");
      if (has("devall")) policy.read_only.emplace_back("/dev");
      if (has("runall")) policy.read_only.emplace_back("/run");
      if (has("noforbid")) policy.forbidden.clear();
      if (has("devnullrw")) policy.extra_writable.emplace_back("/dev/null");
      if (has("procselfrw")) policy.extra_writable.emplace_back("/proc/self");
      if (has("devrw")) policy.extra_writable.emplace_back("/dev");
      if (has("tmprw")) policy.extra_writable.emplace_back("/tmp");
      // llro:PATH / llrw:PATH add a Landlock rule and nothing else (extra_writable paths also
      // get a private tmpfs from the mount layer, which hides what was there).
      for (const std::string& token : tokens) {
        if (token.rfind("llro:", 0) == 0) policy.landlock_extra_read.emplace_back(token.substr(5));
        if (token.rfind("llrw:", 0) == 0) policy.landlock_extra_write.emplace_back(token.substr(5));
      }
      if (has("landlock_abi4")) policy.landlock_abi_cap = 4;
      if (has("landlock_noscope")) policy.landlock_signal_scope = policy.landlock_socket_scope = false;
      if (has("landlock_nosignalscope")) policy.landlock_signal_scope = false;
      if (has("landlock_signalscope")) policy.landlock_signal_scope = true;
      if (has("hideonly")) policy.filesystem = sandbox::FilesystemLayer::hide_only;
      if (has("noproctask")) policy.landlock_extra_write.clear();
      if (has("procreadonly")) policy.untouched_mounts.clear();
      if (has("landlock_abi3")) policy.landlock_abi_cap = 3;
      if (has("landlock_noioctl")) policy.landlock_ioctl_dev = false;
      if (has("rlimit_as")) policy.max_address_space_bytes.reset();
      if (has("rlimit_fsize")) policy.max_file_size_bytes.reset();
      if (has("rlimit_nproc")) policy.max_processes.reset();
      if (has("rlimit_nofile")) policy.max_open_files.reset();
    }
    const sandbox::SandboxReport applied = sandbox::apply_sandbox(policy);
    report->applied = applied.applied;
    report->unavailable = applied.unavailable;
    // The CUDA worker's limit comes later (limit_cuda_address_space), and says so there.
    if (!settings.cuda && !policy.max_address_space_bytes)
      report->unavailable.push_back("rlimits: as: skipped by the operator (KBV_SANDBOX_SKIP=rlimit_as)");
  } catch (const std::exception& failure) {
    *error = std::string("sandbox: ") + failure.what();
    return false;
  }
#else
  report->unavailable.push_back("sandbox: this kbv-worker was built without it");
#endif
  return true;
}

bool limit_cuda_address_space(const SandboxSettings& settings, uint64_t device_memory_bytes, ConfinementReport* report,
                              std::string* error) {
  if (!settings.enabled) return true;
#ifdef KBV_HAVE_SANDBOX
  const std::vector<std::string> skipped = sandbox::operator_skipped_layers();
  if (std::find(skipped.begin(), skipped.end(), "rlimit_as") != skipped.end()) {
    report->unavailable.push_back("rlimits: as: skipped by the operator (KBV_SANDBOX_SKIP=rlimit_as)");
    return true;
  }
  const std::optional<uint64_t> mapped = sandbox::mapped_address_space_bytes();
  if (!mapped || device_memory_bytes == 0) {
    *error = "sandbox: cannot size the address-space limit (" + std::string(mapped ? "the device reports no memory" : "VmSize unreadable") + ")";
    return false;
  }
  try {
    report->applied.push_back(sandbox::apply_address_space_limit(
        sandbox::cuda_worker_address_space_bytes(*mapped, device_memory_bytes),
        "sized from " + std::to_string(*mapped) + " B mapped and " + std::to_string(device_memory_bytes) + " B of device memory"));
  } catch (const std::exception& failure) {
    *error = std::string("sandbox: ") + failure.what();
    return false;
  }
#else
  (void)device_memory_bytes;
  (void)report;
  (void)error;
#endif
  return true;
}

}  // namespace kbv::worker
