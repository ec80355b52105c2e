// lifetime/dir_lock.hpp — an flock on a directory as the sign that its owner lives.
//
// The owner makes a directory, opens it (close-on-exec) and holds LOCK_EX for as long as it uses
// it. Another process that can take the lock knows the owner is gone. A sweeper may take the lock
// of a directory made a moment ago and not yet locked, and remove it: the owner then finds its
// directory gone (or another inode at its path) and makes a new one.
#pragma once

#include <filesystem>

namespace kbv::lifetime {

// Opens `dir` and takes its lock, checking that the path still names the opened directory.
// Returns the locked fd, or -1 (errno set) when the directory is gone or another process holds
// the lock.
int lock_directory(const std::filesystem::path& dir);

// Closes a fd from lock_directory (the lock goes with it); ignores -1.
void unlock_directory(int fd);

}  // namespace kbv::lifetime
