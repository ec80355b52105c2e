// io/whole_file.hpp — files written whole and read back bounded. A write goes to a temporary
// beside the file, is synced and renamed over it, so a reader (another shard, an evaluation
// loading ceilings or a calibration, `kbv report`) sees all of it or nothing, also on NFS, and a
// full disk or a kill mid-write leaves the old file as it was. A read opens without blocking and
// refuses what is not a regular file of a bounded size (a FIFO or /dev/zero planted at the name).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kbv::io {

// The temporaries write_file_whole makes start with this: ".tmp-NAME-RANDOM" in the file's folder
// (hidden; remove_stale_temporaries in sweep/ removes those a killed writer left).
inline constexpr std::string_view kTemporaryPrefix = ".tmp-";

// Writes `text` to `path` (mode 0644 less the umask) through a temporary created with O_EXCL (never
// a file or a link someone left at that name), fsync, rename; a link at `path` is replaced, not
// followed. Throws std::runtime_error naming the file and the fix, leaving no temporary behind.
void write_file_whole(const std::filesystem::path& path, const std::string& text);

// Why read_bounded_file gave no bytes.
enum class ReadRefusal { cannot_open, not_regular, too_large };

struct BoundedRead {
  std::optional<ReadRefusal> refused;  // nullopt: `text` holds the file
  int open_errno = 0;                  // with cannot_open
  std::string text;
};

// The bytes of `path` when it is a regular file of at most `max_bytes`, opened non-blocking (a
// FIFO answers at once instead of hanging the reader); otherwise why not. Callers word the error.
BoundedRead read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace kbv::io
