// tests/sweep/sweep_folder_test.cpp — the output folder: records written whole and read back,
// epochs and runs listed in order, stale temporaries of a killed writer removed (and only those).
#include "sweep/sweep_folder.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include "io/whole_file.hpp"
#include "sweep_test_files.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

TEST(SweepFolder, RecordsRoundTripPerEpoch) {
  test::TempFolder dir;
  const SweepFolder folder(dir.path());
  EXPECT_FALSE(folder.result(3, "k"));
  folder.write_result(3, "k", {{"verdict", "pass"}});
  folder.write_result(3, "j", {{"verdict", "crash"}});
  folder.write_result(10, "k", {{"verdict", "timeout"}});
  ASSERT_TRUE(folder.result(3, "k"));
  EXPECT_EQ((*folder.result(3, "k"))["verdict"], "pass");
  EXPECT_EQ(folder.results(3).size(), 2u);
  EXPECT_EQ(folder.epochs(), (std::vector<std::uint64_t>{3, 10})) << "numeric order, not text order";
  // Nothing but the records is left in the results folder.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(folder.results_dir(3))) files += entry.path().filename().string().starts_with(".") ? 100 : 1;
  EXPECT_EQ(files, 2);
}

TEST(SweepFolder, AnUnreadableRecordIsNamedNotFatal) {
  test::TempFolder dir;
  const SweepFolder folder(dir.path());
  folder.write_result(1, "good", {{"verdict", "pass"}});
  test::write_text(folder.results_dir(1) / "torn.json", "{\"verdict\": ");
  std::vector<SweepFolder::UnusableRecord> unreadable;
  const auto records = folder.results(1, &unreadable);
  EXPECT_EQ(records.size(), 1u);
  ASSERT_EQ(unreadable.size(), 1u);
  EXPECT_NE(unreadable[0].path.find("torn.json"), std::string::npos);
  EXPECT_NE(unreadable[0].why.find("not a readable result record"), std::string::npos) << unreadable[0].why;
  EXPECT_FALSE(folder.result(1, "torn")) << "treated as not evaluated, so it is evaluated again";
}

// Red-team: a record that is /dev/zero grew the reader to 17 GB, a FIFO hung it, and a valid
// 100000-deep document overflowed the stack of the report that copied it.
TEST(SweepFolder, RecordsThatAreNotPlainBoundedFilesAreUnreadableNotFatal) {
  test::TempFolder dir;
  const SweepFolder folder(dir.path());
  folder.write_result(1, "good", {{"verdict", "pass"}});
  std::filesystem::create_symlink("/dev/zero", folder.results_dir(1) / "zero.json");
  ASSERT_EQ(::mkfifo((folder.results_dir(1) / "fifo.json").c_str(), 0600), 0);
  test::write_text(folder.results_dir(1) / "deep.json", std::string(100000, '[') + std::string(100000, ']'));
  std::vector<SweepFolder::UnusableRecord> unreadable;
  const auto records = folder.results(1, &unreadable);
  EXPECT_EQ(records.size(), 1u);
  EXPECT_EQ(unreadable.size(), 3u);
  try {
    read_json_file(folder.results_dir(1) / "deep.json");
    ADD_FAILURE() << "a 100000-deep document was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
  }
  try {
    read_json_file(folder.results_dir(1) / "zero.json");
    ADD_FAILURE() << "/dev/zero was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

TEST(SweepFolder, RunsAreUniqueAndInOrder) {
  test::TempFolder dir;
  const SweepFolder folder(dir.path());
  const auto a = folder.create_run(4);
  const auto b = folder.create_run(4);
  EXPECT_NE(a, b) << "two runs within one second get distinct folders";
  EXPECT_NE(a.filename().string().find("-epoch-4"), std::string::npos);
  EXPECT_EQ(folder.runs(), (std::vector<fs::path>{a, b}));
}

TEST(SweepFolder, OnlyOldTemporariesAreRemoved) {
  test::TempFolder dir;
  const auto old_one = dir.path() / ".tmp-x.json-1";
  const auto fresh = dir.path() / ".tmp-y.json-2";
  test::write_text(old_one, "{");
  test::write_text(fresh, "{");
  fs::last_write_time(old_one, fs::file_time_type::clock::now() - std::chrono::hours(1));
  remove_stale_temporaries(dir.path());
  EXPECT_FALSE(fs::exists(old_one)) << "left by a killed writer";
  EXPECT_TRUE(fs::exists(fresh)) << "may be a shard writing right now";
}

TEST(SweepFolder, AtomicWriteReplacesWhole) {
  test::TempFolder dir;
  const auto path = dir.path() / "f.json";
  io::write_file_whole(path, "first");
  io::write_file_whole(path, "second");
  EXPECT_EQ(test::read_text(path), "second");
  EXPECT_THROW(io::write_file_whole(dir.path() / "no" / "such" / "dir" / "f", "x"), std::runtime_error);
  EXPECT_THROW(read_json_file(dir.path() / "missing.json"), std::runtime_error);
}

}  // namespace
}  // namespace kbv::sweep
