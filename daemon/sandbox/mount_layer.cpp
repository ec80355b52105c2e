// sandbox/mount_layer.cpp — mount(2) work inside the worker's mount namespace. Staging tmpfs
// are mounted over scratch_dir (the one directory the worker owns) and moved or detached after.
#include "sandbox/mount_layer.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/paths.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::sandbox {
namespace {

// Staging tmpfs: a few inodes, no data. 64 KiB is the smallest size that leaves room for them.
constexpr const char* kStagingOptions = "size=64k,mode=0755";
constexpr unsigned long kStagingFlags = MS_NOSUID | MS_NODEV | MS_NOEXEC;

// The mount flags a bind remount must repeat: in a user namespace the ones inherited from the
// parent namespace are locked and a remount that drops them fails with EPERM.
unsigned long preserved_flags(const std::filesystem::path& mount_point) {
  struct statvfs info {};
  if (::statvfs(mount_point.c_str(), &info) != 0) return 0;
  unsigned long flags = 0;
  if (info.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (info.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (info.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (info.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (info.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (info.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  if (!(info.f_flag & (ST_NOATIME | ST_RELATIME))) flags |= MS_STRICTATIME;
  return flags;
}

int remount_read_only(const std::filesystem::path& mount_point) {
  const unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY | preserved_flags(mount_point);
  return ::mount(nullptr, mount_point.c_str(), nullptr, flags, nullptr) == 0 ? 0 : errno;
}

void bind_read_only(const std::filesystem::path& source, const std::filesystem::path& target) {
  if (::mount(source.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0) throw_errno("bind " + source.string() + " on " + target.string());
  if (const int error = remount_read_only(target)) throw_error(error, "make " + target.string() + " read-only");
}

void make_file(const std::filesystem::path& path, mode_t mode) {
  UniqueFd file(::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode));
  if (!file.valid()) throw_errno("create " + path.string());
  if (::fchmod(file.get(), mode) != 0) throw_errno("chmod " + path.string());  // umask-proof
}

void make_directory(const std::filesystem::path& path, mode_t mode) {
  if (::mkdir(path.c_str(), mode) != 0) throw_errno("mkdir " + path.string());
  if (::chmod(path.c_str(), mode) != 0) throw_errno("chmod " + path.string());
}

// A tmpfs over `stage` for as long as this object lives (then detached, unless moved away).
class StagingTmpfs {
 public:
  explicit StagingTmpfs(const std::filesystem::path& stage) : stage_(stage) {
    if (::mount("tmpfs", stage.c_str(), "tmpfs", kStagingFlags, kStagingOptions) != 0) throw_errno("mount staging tmpfs on " + stage.string());
  }
  ~StagingTmpfs() {
    if (!moved_) ::umount2(stage_.c_str(), MNT_DETACH);
  }
  StagingTmpfs(const StagingTmpfs&) = delete;
  StagingTmpfs& operator=(const StagingTmpfs&) = delete;

  void make_read_only() const {
    if (::mount(nullptr, stage_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY | kStagingFlags, kStagingOptions) != 0)
      throw_errno("make staging tmpfs read-only");
  }
  void move_to(const std::filesystem::path& target) {
    if (::mount(stage_.c_str(), target.c_str(), nullptr, MS_MOVE, nullptr) != 0) throw_errno("move staging tmpfs to " + target.string());
    moved_ = true;
  }
  const std::filesystem::path& path() const { return stage_; }

 private:
  std::filesystem::path stage_;
  bool moved_ = false;
};

// Covers each existing path with an empty mode-000 directory or file on a read-only tmpfs:
// opening it is EACCES without capabilities, changing it is EROFS, and a unix socket there is
// no longer reachable. Returns how many paths were covered.
int hide_paths(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& stage) {
  StagingTmpfs staging(stage);
  const std::filesystem::path empty_dir = stage / "d";
  const std::filesystem::path empty_file = stage / "f";
  make_directory(empty_dir, 0);
  make_file(empty_file, 0);
  staging.make_read_only();
  int hidden = 0;
  for (const std::filesystem::path& path : paths) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) continue;  // nothing there to read
    const std::filesystem::path& stand_in = S_ISDIR(info.st_mode) ? empty_dir : empty_file;
    if (::mount(stand_in.c_str(), path.c_str(), nullptr, MS_BIND, nullptr) != 0) throw_errno("cover forbidden path " + path.string());
    ++hidden;
  }
  return hidden;  // the staging tmpfs is detached; the covers keep its inodes alive
}

// Builds a /proc holding only "self" and "<pid>" (this process) and the read_only files
// beneath /proc, each a read-only bind of the real one, and moves it over /proc.
int reduce_proc(const SandboxPolicy& policy, const std::filesystem::path& stage) {
  const std::filesystem::path proc = "/proc";
  const std::string pid = std::to_string(::getpid());
  StagingTmpfs staging(stage);
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> binds = {
      {proc / pid, stage / "self"}, {proc / pid, stage / pid}};
  for (const std::filesystem::path& wanted : policy.read_only) {
    const std::filesystem::path path = wanted.lexically_normal();
    if (!is_within(path, proc) || path == proc) continue;
    const std::string first = path.lexically_relative(proc).begin()->string();
    if (first == "self" || first == "thread-self" || first.find_first_not_of("0123456789") == std::string::npos) continue;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) continue;
    binds.emplace_back(path, stage / path.lexically_relative(proc));
  }
  for (const auto& [source, target] : binds) {
    std::error_code error;
    struct stat info {};
    if (::stat(source.c_str(), &info) != 0) throw_errno("stat " + source.string());
    std::filesystem::create_directories(S_ISDIR(info.st_mode) ? target : target.parent_path(), error);
    if (error) throw_error(error.value(), "mkdir " + target.string());
    if (!S_ISDIR(info.st_mode)) make_file(target, 0444);
  }
  for (const auto& [source, target] : binds) bind_read_only(source, target);
  staging.make_read_only();
  staging.move_to(proc);
  return static_cast<int>(binds.size()) - 2;
}

}  // namespace

void apply_mount_layer(const SandboxPolicy& policy, const MountPlan& plan, SandboxReport& report) {
  const std::filesystem::path scratch = resolved(policy.scratch_dir);
  if (!plan.hide.empty()) {
    const int hidden = hide_paths(plan.hide, scratch);
    report.applied.push_back("mount: " + std::to_string(hidden) + " forbidden paths covered by empty read-only stand-ins");
  }
  if (plan.reduce_proc) {
    const int extra = reduce_proc(policy, scratch);
    report.applied.push_back("mount: /proc reduced to this process and " + std::to_string(extra) + " read_only paths");
  }
  // Extra writable directories: a private tmpfs each (unless shared), kept writable below.
  for (const std::filesystem::path& path : policy.extra_writable) {
    std::error_code missing;
    if (!std::filesystem::is_directory(path, missing) || policy.shared_extra_writable) continue;
    if (::mount("kbv-worker-tmpfs", path.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=1g") != 0)
      throw_errno("mount a private tmpfs on " + path.string());
    report.applied.push_back("mount: private tmpfs on " + path.string());
  }
  // scratch becomes a mount of its own, so it stays writable when everything else is not: a
  // bounded private tmpfs (SandboxPolicy::max_scratch_bytes), else the folder bound on itself.
  if (policy.max_scratch_bytes) {
    const std::string options = "mode=0700,size=" + std::to_string(*policy.max_scratch_bytes) + ",nr_inodes=" + std::to_string(policy.max_scratch_inodes);
    if (::mount("kbv-worker-scratch", scratch.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
      throw_errno("mount a private tmpfs on scratch " + scratch.string());
    report.applied.push_back("mount: scratch is a private tmpfs of " + std::to_string(*policy.max_scratch_bytes >> 20) + " MiB, " +
                             std::to_string(policy.max_scratch_inodes) + " inodes");
  } else if (plan.read_only_everything && ::mount(scratch.c_str(), scratch.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
    throw_errno("bind scratch on itself");
  }
  if (!plan.read_only_everything) return;
  std::string refused;
  int read_only = 0;
  for (const MountEntry& entry : read_mount_table()) {
    if (is_within(entry.mount_point, scratch)) continue;
    bool extra = false;
    for (const std::filesystem::path& path : policy.extra_writable) extra |= is_within(entry.mount_point, path);
    for (const std::filesystem::path& path : policy.untouched_mounts) extra |= is_within(entry.mount_point, path);
    if (extra) continue;
    const int error = remount_read_only(entry.mount_point);
    if (error == 0) {
      ++read_only;
    } else if (error != ENOENT && error != EACCES) {  // ENOENT/EACCES: covered by a later mount
      if (entry.mount_point == "/") throw_error(error, "make / read-only");
      refused += (refused.empty() ? "" : ", ") + entry.mount_point.string() + " (" + std::to_string(error) + ")";
    }
  }
  report.applied.push_back("mount: " + std::to_string(read_only) + " mounts read-only, " + scratch.string() + " writable");
  for (const std::filesystem::path& path : policy.untouched_mounts) report.unavailable.push_back("mount: left as it is (not read-only): " + path.string());
  if (!refused.empty()) report.unavailable.push_back("mount: could not make read-only (errno): " + refused);
}

}  // namespace kbv::sandbox
