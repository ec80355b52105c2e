// tests/lifetime/owned_folder_test.cpp — owned folders: removed when their owner lets go, swept
// when their owner was killed, left alone while their owner lives or when they are not ours.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "lifetime/owned_folder.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;

// A fresh parent folder for one test.
struct Parent {
  fs::path path;
  Parent() {
    std::string pattern = (fs::temp_directory_path() / "kbv-lifetime-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~Parent() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

TEST(OwnedFolder, NamedWithThePidAndRemovedWithItsContents) {
  Parent parent;
  fs::path made;
  {
    OwnedFolder folder(parent.path, "kbv-scratch-");
    made = folder.path();
    EXPECT_EQ(made.filename().string().rfind("kbv-scratch-" + std::to_string(::getpid()) + "-", 0), 0u) << made;
    std::ofstream(made / "file") << "x";
    fs::create_directories(made / "sub" / "deeper");
  }
  EXPECT_FALSE(fs::exists(made));
}

TEST(OwnedFolder, TheNextOneSweepsTheFolderOfAKilledOwner) {
  Parent parent;
  // A child makes a folder and dies without cleaning up, as a SIGKILLed evaluator would.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    OwnedFolder folder(parent.path, "kbv-scratch-");
    std::ofstream(folder.path() / "left") << "x";
    ::_exit(0);  // no destructors
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  int left = 0;
  for (const auto& entry : fs::directory_iterator(parent.path)) left += entry.path().filename().string().rfind("kbv-scratch-", 0) == 0;
  ASSERT_EQ(left, 1) << "the killed owner left its folder";
  // An older kbv's folder (no pid, no lock) and a folder of a live owner stay.
  fs::create_directories(parent.path / "kbv-scratch-AbC123");
  OwnedFolder live(parent.path, "kbv-scratch-");
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(parent.path)) {
    const auto name = entry.path().filename().string();
    EXPECT_NE(name, "kbv-scratch-" + std::to_string(child) + "-") << "swept";
    EXPECT_TRUE(name == "kbv-scratch-AbC123" || entry.path() == live.path()) << name << " should have been swept";
    ++seen;
  }
  EXPECT_EQ(seen, 2);
  EXPECT_EQ(sweep_abandoned_folders(parent.path, "kbv-scratch-"), 0) << "a live owner's folder is not swept";
  EXPECT_TRUE(fs::exists(live.path()));
}

}  // namespace
}  // namespace kbv::lifetime
