// tests/sandbox/filesystem_test.cpp — files: scratch is the only writable place, read_only
// paths are readable, forbidden paths are not (even beneath a readable directory), under
// Landlock and under the mount-namespace fallback alike.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

// Reads a file through open/read: "ok:<content>" or the errno name.
std::string read_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno_name();
  char buffer[256] = {};
  const ssize_t got = ::read(fd, buffer, sizeof buffer - 1);
  const std::string result = got < 0 ? errno_name() : "ok:" + std::string(buffer, static_cast<size_t>(got));
  ::close(fd);
  return result;
}

std::string write_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno_name();
  const std::string result = ::write(fd, "x", 1) == 1 ? "ok" : errno_name();
  ::close(fd);
  return result;
}

std::string list_directory(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_name();
  ::close(fd);
  return "ok";
}

// The same attempts under both filesystem layers.
class FilesystemTest : public SandboxTest, public ::testing::WithParamInterface<FilesystemLayer> {
 protected:
  SandboxPolicy layered_policy() const {
    SandboxPolicy policy = base_policy();
    policy.filesystem = GetParam();
    return policy;
  }
};

TEST_P(FilesystemTest, OnlyScratchIsWritable) {
  const auto scratch = scratch_;
  const auto outside = outside_;
  const auto root = root_;
  const auto candidate = candidate_;
  // Outside the test tree too; removed below should a broken sandbox let it through.
  const std::filesystem::path system_tmp = "/tmp/kbv-sandbox-escape-" + std::to_string(::getpid());
  const ChildOutcome outcome = run_sandboxed(layered_policy(), [=](const SandboxReport&) {
    std::string results = write_file(scratch / "inside.txt");
    results += " " + std::string(::mkdir((scratch / "cache").c_str(), 0755) == 0 ? "ok" : errno_name());
    results += " " + std::string(::rename((scratch / "inside.txt").c_str(), (scratch / "cache" / "moved.txt").c_str()) == 0 ? "ok" : errno_name());
    results += " " + std::string(::unlink((scratch / "cache" / "moved.txt").c_str()) == 0 ? "ok" : errno_name());
    results += " | " + write_file(outside);
    results += " " + write_file(root / "new.txt");
    results += " " + write_file(candidate);
    results += " " + write_file(system_tmp);
    results += " " + std::string(::unlink(outside.c_str()) == 0 ? "ok" : errno_name());
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  // Landlock says EACCES, a read-only mount EROFS; with both, the kernel reports either.
  const auto bar = outcome.result.find(" | ");
  ASSERT_NE(bar, std::string::npos) << outcome.result;
  EXPECT_EQ(outcome.result.substr(0, bar), "ok ok ok ok");
  std::istringstream outside_results(outcome.result.substr(bar + 3));
  std::string denial;
  int denials = 0;
  while (outside_results >> denial) {
    EXPECT_TRUE(denial == "EACCES" || denial == "EROFS") << outcome.result;
    ++denials;
  }
  EXPECT_EQ(denials, 5) << outcome.result;
  EXPECT_EQ(read_file(outside_), "ok:outside");  // untouched
  std::error_code ignored;
  EXPECT_FALSE(std::filesystem::remove(system_tmp, ignored));
}

TEST_P(FilesystemTest, ReadOnlyPathsAreReadable) {
  const auto candidate = candidate_;
  const ChildOutcome outcome = run_sandboxed(layered_policy(), [=](const SandboxReport&) {
    return read_file(candidate) + " " + read_file("/proc/self/status").substr(0, 8) + " " + list_directory("/usr/lib");
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "ok:not really a shared object ok:Name: ok");
}

TEST_P(FilesystemTest, ForbiddenPathsAreUnreadable) {
  const auto secret = secret_;
  const auto results_dir = results_;
  const ChildOutcome outcome = run_sandboxed(layered_policy(), [=](const SandboxReport&) {
    return read_file(secret) + " " + read_file(results_dir / "store.sqlite") + " " + list_directory(results_dir);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  // Landlock refuses what no rule allows (EACCES); the mount layer covers each path with an
  // empty mode-000 stand-in (EACCES for it and for anything looked up inside it).
  EXPECT_EQ(outcome.result, "EACCES EACCES EACCES");
}

TEST_P(FilesystemTest, ForbiddenPathBeneathAReadableDirectoryIsCovered) {
  std::string why;
  if (!mount_namespace_available(&why)) GTEST_SKIP() << "no mount namespace to cover it with: " << why;
  SandboxPolicy policy = layered_policy();
  policy.forbidden.push_back(hidden_);
  const auto hidden = hidden_;
  const auto candidate = candidate_;
  const ChildOutcome outcome = run_sandboxed(policy, [=](const SandboxReport&) {
    return read_file(hidden) + " " + read_file(candidate);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EACCES ok:not really a shared object");
}

// Bytes written into `folder` as 1 MiB files until a write fails: "<MiB written> <errno name>".
std::string fill_folder(const std::filesystem::path& folder, int max_files) {
  const std::string chunk(1u << 20, 'x');
  int mib = 0;
  for (int file = 0; file < max_files; ++file) {
    const int fd = ::open((folder / ("fill-" + std::to_string(file))).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return std::to_string(mib) + " " + errno_name();
    const ssize_t wrote = ::write(fd, chunk.data(), chunk.size());
    const std::string failure = wrote == static_cast<ssize_t>(chunk.size()) ? "" : (wrote < 0 ? errno_name() : "short write");
    ::close(fd);
    if (!failure.empty()) return std::to_string(mib) + " " + failure;
    ++mib;
  }
  return std::to_string(mib) + " unbounded";
}

// A candidate cannot fill the disk through scratch: with a mount namespace it is a private tmpfs
// of max_scratch_bytes (and max_scratch_inodes), whose files the caller never sees.
TEST_P(FilesystemTest, ScratchIsBoundedInAllAndPrivate) {
  std::string why;
  if (!mount_namespace_available(&why)) GTEST_SKIP() << "no mount namespace for a private scratch: " << why;
  SandboxPolicy policy = layered_policy();
  policy.max_scratch_bytes = 8u << 20;
  policy.max_scratch_inodes = 64;
  const auto scratch = scratch_;
  const ChildOutcome outcome = run_sandboxed(policy, [=](const SandboxReport&) {
    std::string result = fill_folder(scratch, 32);
    int made = 0;  // then empty files until the inodes run out
    for (int fd = 0; made < 1000; ++made) {
      fd = ::open((scratch / ("empty-" + std::to_string(made))).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) break;
      ::close(fd);
    }
    return result + " | " + std::to_string(made) + " " + (made < 1000 ? errno_name() : "unbounded");
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  std::istringstream fields(outcome.result);
  int mib = -1, files = -1;
  std::string bytes_stop, bar, inodes_stop;
  fields >> mib >> bytes_stop >> bar >> files >> inodes_stop;
  EXPECT_EQ(bytes_stop, "ENOSPC") << outcome.result;
  EXPECT_LE(mib, 8) << "more than 8 MiB went into an 8 MiB scratch: " << outcome.result;
  EXPECT_EQ(inodes_stop, "ENOSPC") << outcome.result;
  EXPECT_LT(files, 64) << outcome.result;
  EXPECT_TRUE(std::filesystem::is_empty(scratch_)) << "the worker's scratch files are visible outside it";
}

TEST_P(FilesystemTest, ParentProcessIsInvisible) {
  const ChildOutcome outcome = run_sandboxed(layered_policy(), [](const SandboxReport&) {
    const std::string parent = "/proc/" + std::to_string(::getppid());
    return read_file(parent + "/environ") + " " + read_file(parent + "/mem") + " " + list_directory(parent);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_TRUE(outcome.result == "EACCES EACCES EACCES" || outcome.result == "ENOENT ENOENT ENOENT") << outcome.result;
}

TEST_P(FilesystemTest, ReportNamesTheLayerUsed) {
  const ChildOutcome outcome = run_sandboxed(layered_policy(), [](const SandboxReport& report) { return joined(report.applied); });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  const char* expected = GetParam() == FilesystemLayer::mount_namespace ? "filesystem: mount-namespace fallback" : "filesystem: landlock ABI";
  EXPECT_NE(outcome.result.find(expected), std::string::npos) << outcome.result;
  EXPECT_NE(outcome.result.find("no_new_privs"), std::string::npos);
  EXPECT_NE(outcome.result.find("seccomp:"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Layers, FilesystemTest, ::testing::Values(FilesystemLayer::landlock, FilesystemLayer::mount_namespace),
                         [](const ::testing::TestParamInfo<FilesystemLayer>& layer) {
                           return layer.param == FilesystemLayer::landlock ? std::string("Landlock") : std::string("MountNamespace");
                         });

}  // namespace
}  // namespace kbv::sandbox::testing
