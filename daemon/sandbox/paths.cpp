// sandbox/paths.cpp — path comparison, small-file I/O and mountinfo parsing.
#include "sandbox/paths.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <sstream>

#include "sandbox/unique_fd.hpp"

namespace kbv::sandbox {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
std::string unescape_mountinfo(const std::string& field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const std::string octal = field.substr(i + 1, 3);
      if (octal.size() == 3 && octal.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::stoi(octal, nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

}  // namespace

std::filesystem::path resolved(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path result = std::filesystem::weakly_canonical(path, error);
  if (error) result = std::filesystem::absolute(path, error).lexically_normal();
  return result;
}

bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir) {
  auto path_part = path.begin();
  for (auto dir_part = dir.begin(); dir_part != dir.end(); ++dir_part) {
    if (dir_part->empty()) continue;  // a trailing separator
    if (path_part == path.end() || *path_part != *dir_part) return false;
    ++path_part;
  }
  return true;
}

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  std::string content;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) break;
    content.append(buffer, static_cast<size_t>(got));
  }
  return content;
}

int write_small_file(const std::filesystem::path& path, const std::string& content) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd.valid()) return errno;
  const ssize_t written = ::write(fd.get(), content.data(), content.size());
  if (written < 0) return errno;
  return static_cast<size_t>(written) == content.size() ? 0 : EIO;
}

std::vector<MountEntry> read_mount_table() {
  std::vector<MountEntry> mounts;
  const std::optional<std::string> table = read_small_file("/proc/self/mountinfo");
  if (!table) return mounts;
  std::istringstream lines(*table);
  std::string line;
  while (std::getline(lines, line)) {
    // id parent major:minor root mount_point options [optional fields...] - fs_type source super_options
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point, field;
    if (!(fields >> id >> parent >> device >> root >> mount_point)) continue;
    std::string fs_type;
    while (fields >> field)
      if (field == "-") {
        fields >> fs_type;
        break;
      }
    mounts.push_back({unescape_mountinfo(mount_point), fs_type});
  }
  return mounts;
}

}  // namespace kbv::sandbox
