// sandbox/worker_policy.cpp — the read-only set kbv-worker needs, host or CUDA.
#include <cstdlib>
#include <sstream>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {
namespace {

// What the dynamic loader, glibc and libstdc++ read at run time. Missing ones are skipped.
const char* const kSystemPaths[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/bin",
    "/etc/ld.so.cache",                 // dlopen by soname (cudart → libcuda.so.1)
    "/etc/localtime",                   // localtime() in log lines
    "/proc/self",                       // maps, status, fd: glibc, CUDA, the thread count check
    "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
    "/proc/sys/vm/overcommit_memory",   // glibc malloc reads it before shrinking heaps
    "/sys/devices/system/cpu",          // online CPUs (sysconf), caches
    "/sys/devices/system/node",         // NUMA nodes
};

// What the CUDA driver reads besides its device nodes (docs/sandbox.md, What CUDA tolerates kept /sys whole).
const char* const kCudaPaths[] = {
    "/proc/driver/nvidia",  // params (device file modes), gpus/*, capabilities (MIG)
    "/proc/devices",        // nvidia-uvm's major number
    "/sys",                 // PCI topology, NUMA affinity, module parameters
};

}  // namespace

SandboxPolicy worker_policy(const std::filesystem::path& scratch_dir, const std::filesystem::path& candidate,
                            const std::vector<std::string>& forbidden, bool cuda) {
  SandboxPolicy policy;
  policy.scratch_dir = scratch_dir;
  policy.read_only.push_back(candidate);
  for (const char* path : kSystemPaths) policy.read_only.emplace_back(path);
  if (cuda)
    for (const char* path : kCudaPaths) policy.read_only.emplace_back(path);
  // Libraries the evaluator's environment points at (a CUDA toolkit outside /usr, say).
  if (const char* library_path = std::getenv("LD_LIBRARY_PATH")) {
    std::istringstream entries(library_path);
    std::string entry;
    while (std::getline(entries, entry, ':'))
      if (!entry.empty() && entry.front() == '/') policy.read_only.emplace_back(entry);
  }
  for (const std::string& path : forbidden) policy.forbidden.emplace_back(path);
  policy.allow_cuda_devices = cuda;
  // System V objects (shmget, msgget, semget) live in the IPC namespace, past the process that made
  // them: in the host's, a segment of outputs one candidate stashed waited for the next evaluation
  // of its problem to copy (red-team sysv_stash). The host worker gets a namespace of its own,
  // which dies with it. The CUDA worker keeps the host's: CUDA IPC (the evaluator's arena) is
  // reported to need a shared IPC namespace, untested here (docs/threat-model.md, pattern 16).
  policy.new_ipc_namespace = !cuda;
  if (cuda) {
    policy.extra_writable.emplace_back("/dev/shm");  // the CUDA driver's shared-memory files
    // cuInit names its threads through /proc/self/task/<tid>/comm and fails with
    // cudaErrorOperatingSystem when it cannot (H200, 2026-11-29; NVIDIA/OpenShell#710): Landlock
    // binds the rule to this process's task directory, so threads created later are beneath it.
    policy.landlock_extra_write.emplace_back("/proc/self/task");
    // The same write fails with EROFS when the mount layer makes /proc read-only: /proc stays
    // as it is (Landlock still refuses writes there except beneath /proc/self/task).
    policy.untouched_mounts.emplace_back("/proc");
    // RLIMIT_AS waits for the device: the worker sets it from the device's memory once CUDA is
    // up and before the candidate loads (address_space.hpp). A fixed 256 GiB made every
    // cudaMallocAsync fail on an H200, whose default pool reserves ~300 GB of address space.
    policy.max_address_space_bytes.reset();
  }
  return policy;
}

}  // namespace kbv::sandbox
