// io/whole_file.hpp — write a file whole or not at all: a temporary beside it, renamed over it,
// so a reader (an evaluation loading ceilings or a calibration) never sees half of one, and a
// full disk or a kill mid-write leaves the old file as it was.
#pragma once

#include <filesystem>
#include <string>

namespace kbv::io {

// Writes `text` to `path` (mode 0644 less the umask) through a temporary `path`.tmp.XXXXXX made
// with mkstemp; throws std::runtime_error naming the file and what failed, leaving no temporary
// behind. A link at `path` is replaced, not followed.
void write_file_whole(const std::filesystem::path& path, const std::string& text);

}  // namespace kbv::io
