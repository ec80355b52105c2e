// lifetime/remove_tree.cpp — depth-first removal that walks down by name and back up by "..",
// so it never holds more than two descriptors (see remove_tree.hpp).
#include "lifetime/remove_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

namespace kbv::lifetime {
namespace {

// A bound on the walk's steps, against a tree that something keeps refilling: far beyond any
// scratch folder an evaluation leaves (each step removes an entry or moves a level).
constexpr long kMaxSteps = 50'000'000;

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

bool fail(std::string* why, const std::string& text) {
  if (why) *why = text;
  return false;
}

// Unlinks every non-directory in `dir`; returns the name of a subdirectory still there, if any.
std::optional<std::string> clear_files(int dir, long& steps) {
  ::fchmod(dir, 0700);  // a folder the candidate made unwritable still gives up its entries
  const int listing = ::dup(dir);
  if (listing < 0) return std::nullopt;
  DIR* stream = ::fdopendir(listing);
  if (!stream) {
    ::close(listing);
    return std::nullopt;
  }
  std::optional<std::string> subdirectory;
  while (dirent* entry = ::readdir(stream)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    ++steps;
    if (::unlinkat(dir, name.c_str(), 0) == 0) continue;
    if (errno == EISDIR || errno == EPERM) {  // EPERM: Linux's answer for a directory on some filesystems
      subdirectory = name;
      break;
    }
  }
  ::closedir(stream);
  return subdirectory;
}

}  // namespace

bool remove_tree(const std::filesystem::path& root, std::string* why) {
  int current = ::open(root.c_str(), kDirectoryFlags);
  if (current < 0) {
    if (errno == ENOENT) return true;
    if (errno == ENOTDIR || errno == ELOOP) {  // a file or a link where the folder was: remove that
      if (::unlink(root.c_str()) == 0 || errno == ENOENT) return true;
    }
    return fail(why, root.string() + ": " + std::strerror(errno));
  }
  std::vector<std::string> names;  // from root down to `current`
  long steps = 0;
  while (steps++ < kMaxSteps) {
    if (const auto subdirectory = clear_files(current, steps)) {
      ::fchmodat(current, subdirectory->c_str(), 0700, 0);
      const int below = ::openat(current, subdirectory->c_str(), kDirectoryFlags);
      if (below < 0) {
        ::close(current);
        return fail(why, root.string() + ": cannot open " + *subdirectory + " below it: " + std::strerror(errno));
      }
      ::close(current);
      current = below;
      names.push_back(*subdirectory);
      continue;
    }
    if (names.empty()) break;  // root is empty
    const int above = ::openat(current, "..", kDirectoryFlags);
    ::close(current);
    if (above < 0) return fail(why, root.string() + ": cannot go back up: " + std::strerror(errno));
    current = above;
    if (::unlinkat(current, names.back().c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT && errno != ENOTEMPTY) {
      ::close(current);
      return fail(why, root.string() + ": cannot remove " + names.back() + ": " + std::strerror(errno));
    }
    names.pop_back();
  }
  ::close(current);
  if (steps >= kMaxSteps) return fail(why, root.string() + ": still not empty after " + std::to_string(kMaxSteps) + " steps");
  if (::rmdir(root.c_str()) != 0 && errno != ENOENT) return fail(why, root.string() + ": " + std::strerror(errno));
  return true;
}

}  // namespace kbv::lifetime
