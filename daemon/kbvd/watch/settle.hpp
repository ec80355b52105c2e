// watch/settle.hpp — when a file in the watch folder is complete enough to judge: closed by its
// writer and unchanged for watch.settle_s, whatever the writer did (a slow non-atomic copy, a file
// written through one descriptor with pauses, a manifest changed after its candidate). A file
// judged early is a false load_error and a candidate made of half a file.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbv::kbvd {

// Default of watch.settle_s: a file must look the same this long. At least the 2 s timestamp
// granularity of FAT and exFAT (1 s on ext3, HFS+ and NFSv3), so a write landing in the same
// tick as the previous look still shows as a change at the next one.
inline constexpr double kDefaultSettleSeconds = 2.0;
// A file whose close kbvd did not see (found by a rescan) and whose writers it cannot check (no
// read lease: another user's file without CAP_LEASE, a file system without leases) must be
// unchanged this long instead: NFS caches attributes for up to 60 s (acregmax), and a copy that
// stalls for a minute is rare.
inline constexpr std::chrono::seconds kQuietWithoutClose{60};
// How often files waiting for a writer (or the quiet period) are looked at again.
inline constexpr std::chrono::milliseconds kWriterPoll{250};

// What a file looks like: any write changes size or mtime, and ctime (which no writer can set)
// catches the rest; a replaced file has another inode. The manifest beside a candidate is part of
// its stamp, so a fixed manifest is a change too.
struct FileStamp {
  std::int64_t dev = 0, ino = 0, size = 0, mtime_ns = 0, ctime_ns = 0;
  std::string manifest;  // the manifests' own stamps, "" when there is none
  bool operator==(const FileStamp&) const = default;
};

// lstat of `dir/name` and of its NAME.yaml / NAME.json; nothing when the file is gone.
std::optional<FileStamp> stamp_of(const std::filesystem::path& dir, const std::string& name);
// The manifest part of a stamp alone.
std::string manifest_stamp(const std::filesystem::path& candidate);

// Whether some process has the file open for writing. A read lease (fcntl F_SETLEASE, F_RDLCK) is
// refused with EAGAIN exactly then; where no lease may be taken the answer is unknown.
enum class Writers { none, some, unknown };
Writers open_writers(const std::filesystem::path& file);
// The same, on a descriptor opened O_RDONLY; with `hold`, a granted lease is kept (released by
// close or F_UNLCK), so no writer can open the file while kbvd reads it.
Writers open_writers(int fd, bool hold);

// The files seen and not yet judged, with when each last changed.
class Settling {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Settling(std::chrono::milliseconds settle) : settle_(settle) {}

  void set_settle(std::chrono::milliseconds settle) { settle_ = settle; }
  // A file was seen: through an inotify close or rename (`closed`), or by a rescan.
  void seen(const std::string& name, const FileStamp& stamp, bool closed, Clock::time_point now);
  // The files that may be judged now. `restamp` looks at a due file again (nothing: gone);
  // `writers` checks it for writers. Ready files leave the set.
  std::vector<std::string> ready(Clock::time_point now,
                                 const std::function<std::optional<FileStamp>(const std::string&)>& restamp,
                                 const std::function<Writers(const std::string&)>& writers);
  // When ready() may next return something; nothing when no file is waiting.
  std::optional<Clock::time_point> next_check(Clock::time_point now) const;
  bool contains(const std::string& name) const { return files_.count(name) != 0; }
  void forget(const std::string& name) { files_.erase(name); }

 private:
  struct Entry {
    FileStamp stamp;
    Clock::time_point stable_since;
    bool closed = false;
  };
  std::chrono::milliseconds settle_;
  std::map<std::string, Entry> files_;
};

}  // namespace kbv::kbvd
