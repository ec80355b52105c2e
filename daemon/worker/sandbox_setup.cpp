// worker/sandbox_setup.cpp — translate the worker's settings into a kbv::sandbox policy.
#include "worker/sandbox_setup.hpp"

#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <sstream>
#include <vector>
#include <string>
#include <system_error>

#ifdef KBV_HAVE_SANDBOX
#include "protocol/messages.hpp"
#include "sandbox/sandbox.hpp"
#endif

namespace kbv::worker {

bool confine_worker(const SandboxSettings& settings, std::string* error) {
  // Always: no privilege gain through exec, and no ptrace or /proc/pid/mem by same-uid peers.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    *error = "prctl(NO_NEW_PRIVS / DUMPABLE) failed";
    return false;
  }
  if (!settings.enabled) return true;
#ifdef KBV_HAVE_SANDBOX
  try {
    sandbox::SandboxPolicy policy = sandbox::worker_policy(settings.scratch_dir, settings.candidate, settings.forbidden, settings.cuda);
    policy.violation_fd = protocol::kViolationFd;
    // KBV_SANDBOX_SKIP=userns,netns,mountns,filesystem,landlock,seccomp: the operator leaves layers out
    // to diagnose a device that fails under the full sandbox. Each is reported on stderr.
    if (const char* skip = std::getenv("KBV_SANDBOX_SKIP")) {
      const std::string layers = skip;
      std::vector<std::string> tokens;
      std::stringstream list(layers);
      for (std::string token; std::getline(list, token, ',');) tokens.push_back(token);
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
    const sandbox::SandboxReport report = sandbox::apply_sandbox(policy);
    for (const auto& line : report.unavailable) std::fprintf(stderr, "kbv-worker: sandbox layer unavailable: %s\n", line.c_str());
  } catch (const std::exception& failure) {
    *error = std::string("sandbox: ") + failure.what();
    return false;
  }
#endif
  return true;
}

}  // namespace kbv::worker
