// sandbox/sandbox.hpp — the confinement kbv-worker applies to itself before it loads a candidate.
//
// apply_sandbox() runs in the worker, single-threaded, after its control fds exist and before
// the candidate is dlopen'ed (and before CUDA starts: Landlock, capabilities and
// unshare(CLONE_NEWUSER) act on the calling thread only). Layers, in the order applied:
//   1. no_new_privs                    no privilege gain through exec
//   2. rlimits                         open files, CPU seconds, file size, address space (the
//                                      CUDA worker's later, from its device: address_space.hpp)
//   3. cgroup v2 memory.max            best effort, when a memory controller is delegated
//   4. namespaces                      user (+ uid/gid map), network, IPC, mount
//   5. RLIMIT_NPROC                    after the user namespace, so it counts only its tasks
//   6. not dumpable                    after the uid map (a non-dumpable /proc/self is root's)
//   7. mount layer                     private propagation; forbidden paths covered; when
//                                      Landlock is missing, everything but scratch read-only
//                                      and /proc reduced to this process
//   8. Landlock                        read+exec under read_only, read+write under scratch
//   9. capabilities                    every set emptied, securebits locked
//  10. seccomp                         default allow, denials listed in seccomp_rules.cpp;
//                                      the escape set traps and is reported on violation_fd
// A layer the kernel lacks is listed in SandboxReport::unavailable with the reason; a layer
// that fails half-way, or a policy that cannot be honoured (a forbidden path still readable,
// no filesystem confinement at all), throws std::system_error. docs/sandbox.md explains each
// layer, what CUDA needs from it, and the residual risks.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbv::sandbox {

// docs/sandbox.md, What CUDA tolerates (measured on the H200): RLIMIT_NOFILE = 32 breaks CUDA, 64 works.
constexpr std::uint64_t kCudaMinOpenFiles = 64;
// docs/sandbox.md, What CUDA tolerates: RLIMIT_AS = 4 GB breaks CUDA, 64 GB works (bound memory with the cgroup).
constexpr std::uint64_t kCudaMinAddressSpaceBytes = 64ull << 30;

// Defaults for the worker. Each is a backstop, not a measurement bound:
// 1024 fds: CUDA opens several per device plus its libraries, well above the 64 minimum.
constexpr std::uint64_t kDefaultOpenFiles = 1024;
// 15 min of CPU: CUDA spin-waits burn host CPU for the whole timed run (≤ 15 s per
// measurement, docs/measurement.md, Timing) over many families, trials and interleaved samples.
constexpr std::uint64_t kDefaultCpuSeconds = 900;
// 1 GiB per file: scratch is for a JIT cache, not for data (pattern 11: no cache on disk).
constexpr std::uint64_t kDefaultFileSizeBytes = 1ull << 30;
// 512 MiB in scratch, all files together, and 16384 files and folders: with a mount namespace
// scratch is a private tmpfs of that size, so a candidate cannot fill the disk the daemon keeps
// its results on (RLIMIT_FSIZE bounds each file only). Twice the CUDA JIT cache's default
// maximum (CUDA_CACHE_MAXSIZE, 256 MiB), which is what scratch is for; tmpfs pages are memory,
// charged to the worker's cgroup where it has one.
constexpr std::uint64_t kDefaultScratchBytes = 512ull << 20;
constexpr std::uint64_t kDefaultScratchInodes = 16384;
// 256 GiB of address space for a host worker; the cgroup, not this, bounds real memory. A CUDA
// worker's limit is sized from its device's memory once the device is up (address_space.hpp):
// the stream-ordered allocator's pool alone reserves about twice the device's memory.
constexpr std::uint64_t kDefaultAddressSpaceBytes = 256ull << 30;
// 1024 tasks (threads included) in the worker's user namespace: a thread bomb stops there,
// a host candidate may still use one thread per core of a 128-core node.
constexpr std::uint64_t kDefaultProcesses = 1024;

// Which layer confines the filesystem.
enum class FilesystemLayer {
  automatic,        // Landlock when the kernel has it, else the mount-namespace fallback
  landlock,         // Landlock or a hard failure
  mount_namespace,  // the fallback only (read-only binds; for tests and Landlock-less kernels)
  hide_only,        // only cover the forbidden paths in the mount namespace (diagnosis)
};

struct SandboxPolicy {
  std::filesystem::path scratch_dir;             // the only writable place (must exist)
  std::vector<std::filesystem::path> read_only;  // readable (and executable) paths; missing ones are skipped
  std::vector<std::filesystem::path> forbidden;  // must become unreadable (key file, results store, watch folder)
  bool allow_cuda_devices = true;                // /dev/nvidia* stay usable (read, write, ioctl)
  // Extra writable directories (CUDA: /dev/shm, where the driver keeps shared-memory files).
  // With a mount namespace each gets a private, empty tmpfs first unless shared_extra_writable,
  // so nothing written there is seen outside the worker.
  std::vector<std::filesystem::path> extra_writable;
  bool shared_extra_writable = false;

  bool new_user_namespace = true;
  bool new_network_namespace = true;
  bool new_ipc_namespace = false;
  bool new_mount_namespace = true;

  // Resource limits (soft = hard, except CPU: hard = soft + a grace so SIGXCPU comes first).
  // nullopt leaves the inherited limit; a limit above the inherited hard limit keeps the latter.
  std::optional<std::uint64_t> max_open_files = kDefaultOpenFiles;             // RLIMIT_NOFILE
  std::optional<std::uint64_t> max_cpu_seconds = kDefaultCpuSeconds;           // RLIMIT_CPU
  std::optional<std::uint64_t> max_file_size_bytes = kDefaultFileSizeBytes;    // RLIMIT_FSIZE
  std::optional<std::uint64_t> max_address_space_bytes = kDefaultAddressSpaceBytes;  // RLIMIT_AS
  // RLIMIT_NPROC counts every task (threads too) of the real uid in one user namespace: set
  // after the new user namespace it bounds this worker alone; without one it counts all of
  // the uid's tasks on the machine; real uid 0 is exempt from it.
  std::optional<std::uint64_t> max_processes = kDefaultProcesses;
  // With a mount namespace, scratch is a private, empty tmpfs of this many bytes and inodes
  // (nothing written there is seen outside the worker); nullopt, or no mount namespace, leaves
  // scratch the caller's folder, bounded per file only (reported).
  std::optional<std::uint64_t> max_scratch_bytes = kDefaultScratchBytes;
  std::uint64_t max_scratch_inodes = kDefaultScratchInodes;

  // cgroup v2 memory.max for the worker, in a child "kbv-worker-<pid>" of cgroup_parent
  // (empty: the caller's own cgroup). Best effort: needs a writable cgroup2 fs with the memory
  // controller available to the parent. The caller removes the child after the worker exits
  // (remove_worker_cgroup).
  std::optional<std::uint64_t> memory_limit_bytes;
  std::filesystem::path cgroup_parent;

  FilesystemLayer filesystem = FilesystemLayer::automatic;
  // Operator switches for diagnosis (kbv-worker reads KBV_SANDBOX_SKIP): leaving a layer out
  // is reported in SandboxReport::unavailable, never silent.
  bool confine_filesystem = true;
  bool install_seccomp = true;
  // Landlock features the operator leaves out to find which one a device driver trips on
  // (KBV_SANDBOX_SKIP tokens landlock_abi4, landlock_noscope, landlock_noioctl); reported.
  int landlock_abi_cap = 0;  // 0: the kernel's ABI
  // Landlock rules with no mount-layer effect (extra_writable paths also get a private tmpfs):
  // the CUDA device's /proc/self/task (the driver names its threads through
  // /proc/self/task/<tid>/comm), and the operator's llro:PATH / llrw:PATH tokens.
  std::vector<std::filesystem::path> landlock_extra_read, landlock_extra_write;
  // Mount points (with what is mounted below them) that the read-only pass of the mount layer
  // leaves as they are, and which /proc reduction skips: the CUDA device's /proc, where cuInit
  // names its threads (a read-only /proc made cudaSetDevice fail, H200 2026-11-29).
  std::vector<std::filesystem::path> untouched_mounts;
  // ABI 6 scopes, each on unless a device needs it off (reported).
  bool landlock_signal_scope = true;
  bool landlock_socket_scope = true;
  bool landlock_ioctl_dev = true;

  // Pre-opened fd (a pipe to the evaluator) that receives one native-endian int32 syscall
  // number per trapped violation; -1: violations are refused (EPERM) but not reported.
  int violation_fd = -1;
};

// What was applied and what was not, one line per layer, each with its reason.
struct SandboxReport {
  std::vector<std::string> applied;
  std::vector<std::string> unavailable;
};

// Confines the calling process. Must be called single-threaded. Throws std::system_error on a
// hard failure or an invalid policy (errc::invalid_argument).
SandboxReport apply_sandbox(const SandboxPolicy& policy);

// One line for logs: every path, namespace, limit and option of the policy.
std::string describe_policy(const SandboxPolicy& policy);

// The policy kbv-worker uses: scratch writable; the candidate (kbv-worker: the folder its
// evaluator copies the candidate into), system libraries, LD_LIBRARY_PATH
// directories, /proc/self, /sys and the NVIDIA driver's /proc files readable; `forbidden`
// unreadable; CUDA devices only when `cuda`, and then no RLIMIT_AS: the worker sets it once
// its device is up (address_space.hpp).
SandboxPolicy worker_policy(const std::filesystem::path& scratch_dir, const std::filesystem::path& candidate,
                            const std::vector<std::string>& forbidden, bool cuda);

// The name of a syscall number reported on the violation fd ("socket"), or "syscall <n>".
std::string syscall_name(int number);

// The cgroup apply_sandbox creates for `worker` under `policy` (whether or not it exists).
std::filesystem::path worker_cgroup_path(const SandboxPolicy& policy, pid_t worker);
// Removes that cgroup once the worker has exited; true when it is gone.
bool remove_worker_cgroup(const SandboxPolicy& policy, pid_t worker);

}  // namespace kbv::sandbox
