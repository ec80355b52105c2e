// tests/lifetime/remove_tree_test.cpp — remove_tree() removes what a hostile candidate builds in
// its scratch folder: a tree deeper than the descriptor limit, folders without permissions, links
// (removed, never followed).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "lifetime/remove_tree.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;

fs::path fresh_folder() {
  std::string pattern = (fs::temp_directory_path() / "kbv-remove-tree-test-XXXXXX").string();
  return ::mkdtemp(pattern.data());
}

// Nests `depth` folders named d below `root` by descriptor (the path would pass PATH_MAX), with
// a file at the bottom.
void nest(const fs::path& root, int depth) {
  int dir = ::open(root.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dir, 0);
  for (int level = 0; level < depth; ++level) {
    ASSERT_EQ(::mkdirat(dir, "d", 0700), 0);
    const int below = ::openat(dir, "d", O_RDONLY | O_DIRECTORY);
    ::close(dir);
    dir = below;
    ASSERT_GE(dir, 0);
  }
  const int file = ::openat(dir, "blob", O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::write(file, "x", 1), 1);
  ::close(file);
  ::close(dir);
}

// The descriptor limit lowered for one test, then put back.
struct FewDescriptors {
  rlimit saved{};
  explicit FewDescriptors(rlim_t limit) {
    ::getrlimit(RLIMIT_NOFILE, &saved);
    rlimit lower = saved;
    lower.rlim_cur = limit;
    ::setrlimit(RLIMIT_NOFILE, &lower);
  }
  ~FewDescriptors() { ::setrlimit(RLIMIT_NOFILE, &saved); }
};

TEST(RemoveTree, ATreeDeeperThanTheDescriptorLimitGoes) {
  const fs::path root = fresh_folder();
  nest(root, 3000);
  {
    FewDescriptors few(256);
    std::error_code ec;
    fs::remove_all(root, ec);
    EXPECT_TRUE(fs::exists(root)) << "remove_all managed it: the attack this guards against needs a deeper tree";
    std::string why;
    EXPECT_TRUE(remove_tree(root, &why)) << why;
  }
  EXPECT_FALSE(fs::exists(root));
}

TEST(RemoveTree, FoldersWithoutPermissionsAndLinksGoAndLinksAreNotFollowed) {
  const fs::path root = fresh_folder();
  const fs::path outside = fresh_folder();
  std::ofstream(outside / "keep") << "precious";
  fs::create_directories(root / "a" / "b");
  std::ofstream(root / "a" / "b" / "f") << "x";
  fs::create_directory_symlink(outside, root / "a" / "to_outside");
  fs::create_symlink(outside / "keep", root / "link_to_file");
  ::chmod((root / "a" / "b").c_str(), 0);
  ::chmod((root / "a").c_str(), 0500);
  std::string why;
  EXPECT_TRUE(remove_tree(root, &why)) << why;
  EXPECT_FALSE(fs::exists(root));
  EXPECT_TRUE(fs::exists(outside / "keep")) << "a link was followed";
  fs::remove_all(outside);
}

TEST(RemoveTree, AMissingFolderIsAlreadyGoneAndALinkInItsPlaceIsRemovedNotFollowed) {
  std::string why;
  EXPECT_TRUE(remove_tree("/nonexistent/kbv-remove-tree", &why)) << why;
  const fs::path outside = fresh_folder();
  std::ofstream(outside / "keep") << "precious";
  const fs::path link = fs::temp_directory_path() / ("kbv-remove-tree-link-" + std::to_string(::getpid()));
  fs::create_directory_symlink(outside, link);
  EXPECT_TRUE(remove_tree(link, &why)) << why;
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_TRUE(fs::exists(outside / "keep"));
  fs::remove_all(outside);
}

}  // namespace
}  // namespace kbv::lifetime
