// tests/kbvd/watch_test.cpp — tests of when a watch-folder file is complete: stamps, the writer
// check (a read lease is refused while a writer holds the file), and the settling rules.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include "harness.hpp"
#include "watch/settle.hpp"

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
using test::TempDir;
using Clock = Settling::Clock;

TEST(Settle, StampsSeeWritesRenamesAndManifests) {
  TempDir dir;
  test::write_file(dir.path() / "a.so", "one");
  const auto first = stamp_of(dir.path(), "a.so");
  ASSERT_TRUE(first);
  EXPECT_EQ(stamp_of(dir.path(), "a.so"), first);
  test::write_file(dir.path() / "a.so", "two!");
  EXPECT_NE(stamp_of(dir.path(), "a.so"), first);
  const auto second = stamp_of(dir.path(), "a.so");
  test::write_file(dir.path() / "a.so.yaml", "model: m\n");
  EXPECT_NE(stamp_of(dir.path(), "a.so"), second) << "a manifest is part of the stamp";
  EXPECT_FALSE(stamp_of(dir.path(), "gone.so"));
}

TEST(Settle, AWriterHoldingTheFileIsSeen) {
  TempDir dir;
  const auto file = dir.path() / "w.so";
  const int writer = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(writer, 0);
  EXPECT_EQ(open_writers(file), Writers::some);
  ::close(writer);
  EXPECT_EQ(open_writers(file), Writers::none);
}

FileStamp stamp(std::int64_t size) { return FileStamp{1, 2, size, 3, 4, ""}; }

TEST(Settle, ReadyOnlyAfterTheSettleTimeUnchangedAndWithoutWriters) {
  Settling s(2000ms);
  const auto t0 = Clock::now();
  s.seen("a.so", stamp(10), true, t0);
  auto same = [](const std::string&) { return std::optional<FileStamp>(stamp(10)); };
  auto none = [](const std::string&) { return Writers::none; };
  EXPECT_TRUE(s.ready(t0 + 1999ms, same, none).empty());
  EXPECT_EQ(s.next_check(t0 + 1s), t0 + 2000ms);
  EXPECT_EQ(s.ready(t0 + 2000ms, same, none), std::vector<std::string>{"a.so"});
  EXPECT_FALSE(s.contains("a.so"));
}

TEST(Settle, AChangeStartsTheWaitOver) {
  Settling s(2000ms);
  const auto t0 = Clock::now();
  s.seen("a.so", stamp(10), true, t0);
  auto grown = [](const std::string&) { return std::optional<FileStamp>(stamp(20)); };
  auto none = [](const std::string&) { return Writers::none; };
  EXPECT_TRUE(s.ready(t0 + 2s, grown, none).empty()) << "it grew since it was seen";
  EXPECT_TRUE(s.ready(t0 + 3s, grown, none).empty()) << "a new settle time from the change";
  EXPECT_EQ(s.ready(t0 + 4s, grown, none).size(), 1u);
  s.seen("b.so", stamp(1), false, t0);
  s.seen("b.so", stamp(2), false, t0 + 1s);  // a rescan saw it grow
  EXPECT_TRUE(s.ready(t0 + 2500ms, [](const std::string&) { return std::optional<FileStamp>(stamp(2)); }, none).empty());
}

TEST(Settle, AnOpenWriterKeepsItWaitingWhateverTheTime) {
  Settling s(100ms);
  const auto t0 = Clock::now();
  s.seen("slow.so", stamp(10), true, t0);
  auto same = [](const std::string&) { return std::optional<FileStamp>(stamp(10)); };
  EXPECT_TRUE(s.ready(t0 + 1h, same, [](const std::string&) { return Writers::some; }).empty());
  EXPECT_EQ(s.next_check(t0 + 1h), t0 + 1h + kWriterPoll);
}

TEST(Settle, WithoutALeaseACloseOrAQuietMinuteDecides) {
  Settling s(100ms);
  const auto t0 = Clock::now();
  auto same = [](const std::string&) { return std::optional<FileStamp>(stamp(10)); };
  auto unknown = [](const std::string&) { return Writers::unknown; };
  s.seen("closed.so", stamp(10), true, t0);   // inotify: closed after writing
  s.seen("found.so", stamp(10), false, t0);   // a rescan found it
  EXPECT_EQ(s.ready(t0 + 200ms, same, unknown), std::vector<std::string>{"closed.so"});
  EXPECT_TRUE(s.ready(t0 + kQuietWithoutClose - 1s, same, unknown).empty());
  EXPECT_EQ(s.ready(t0 + kQuietWithoutClose, same, unknown), std::vector<std::string>{"found.so"});
}

TEST(Settle, AFileThatWentAwayIsForgotten) {
  Settling s(0ms);
  const auto t0 = Clock::now();
  s.seen("gone.so", stamp(1), true, t0);
  EXPECT_TRUE(s.ready(t0, [](const std::string&) { return std::optional<FileStamp>(); },
                      [](const std::string&) { return Writers::none; })
                  .empty());
  EXPECT_FALSE(s.contains("gone.so"));
  EXPECT_FALSE(s.next_check(t0));
}

}  // namespace
}  // namespace kbv::kbvd
