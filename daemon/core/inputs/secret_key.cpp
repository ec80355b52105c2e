// inputs/secret_key.cpp — load, create and locate the secret key file.
#include "inputs/secret_key.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kbv::inputs {

SecretKey SecretKey::from_bytes(const std::array<uint8_t, kSecretKeyBytes>& bytes) {
  SecretKey key;
  key.bytes_ = bytes;
  return key;
}

namespace {
// Throws when the key file could be someone else's choice or is readable by others: either lets a
// candidate's author (another user of the machine) predict every hidden input
// (docs/threat-model.md: keep it 0600, owned by the user kbv runs as).
void check_key_file_is_private(const std::filesystem::path& path) {
  struct stat file {};
  if (::stat(path.c_str(), &file) != 0) return;  // the read below says it cannot
  const std::string fix_mode = "chmod 600 " + path.string() + ", or create a new key with `kbv keygen --key-file PATH`";
  if (file.st_uid != ::geteuid())
    throw std::runtime_error(path.string() + ": the secret key file is owned by uid " + std::to_string(file.st_uid) + ", not by this user (uid " +
                             std::to_string(::geteuid()) + "): someone else may have chosen the key (fix: create your own with `kbv keygen "
                             "--key-file PATH` in a folder only you can write)");
  if ((file.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(file.st_mode & 07777));
    throw std::runtime_error(path.string() + ": the secret key file has mode " + mode +
                             ": others can read it (and predict every hidden input) or replace it (fix: " + fix_mode + ")");
  }
}
}  // namespace

SecretKey SecretKey::load(const std::filesystem::path& path) {
  check_key_file_is_private(path);
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path.string() + ": cannot read the secret key (fix: create one with `kbv keygen --key-file " +
                             path.string() + "` or point --key-file/KBV_KEY_FILE at it)");
  std::string hex;
  in >> hex;
  if (hex.size() != 2 * kSecretKeyBytes || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw std::runtime_error(path.string() + ": secret key must be exactly 64 hex characters (fix: regenerate it with `kbv keygen`)");
  SecretKey key;
  for (size_t i = 0; i < kSecretKeyBytes; ++i) key.bytes_[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return key;
}

// A new key written whole under a temporary name (mode 0600) and linked into place: link()
// fails when the path exists, so a key is never replaced, and nobody can read a half-written
// one. Returns nothing when another key got there first (EEXIST): kbvd starts several `kbv eval`
// processes at once, and on a fresh machine each may try to create the key.
std::optional<SecretKey> SecretKey::try_create(const std::filesystem::path& path) {
  std::error_code error;
  if (!path.has_filename() || std::filesystem::is_directory(path, error))
    throw std::runtime_error(path.string() + ": names a folder, not the key file (fix: a file path such as " +
                             (path.has_filename() ? path : path.parent_path()).string() + "/secret.key)");
  if (std::filesystem::is_symlink(path, error))
    throw std::runtime_error(path.string() + ": is a symbolic link; kbv never writes its key through one (fix: name a plain file path)");
  SecretKey key;
  if (RAND_bytes(key.bytes_.data(), static_cast<int>(key.bytes_.size())) != 1)
    throw std::runtime_error("OpenSSL RAND_bytes failed: cannot create a secret key");
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::string cannot = path.string() + ": cannot create the secret key file (fix: check the directory, or remove a stale file)";
  std::string temporary = path.string() + ".new-XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);  // mode 0600
  if (fd < 0) throw std::runtime_error(cannot + ": " + std::strerror(errno));
  std::ostringstream hex;
  for (uint8_t byte : key.bytes_) hex << "0123456789abcdef"[byte >> 4] << "0123456789abcdef"[byte & 15];
  const std::string text = hex.str() + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  const int linked = written ? ::link(temporary.c_str(), path.c_str()) : -1;
  const int link_error = errno;
  ::unlink(temporary.c_str());
  if (!written) throw std::runtime_error(path.string() + ": short write of the secret key");
  if (linked == 0) return key;
  if (link_error == EEXIST) return std::nullopt;
  throw std::runtime_error(cannot + ": " + std::strerror(link_error));
}

SecretKey SecretKey::create(const std::filesystem::path& path) {
  if (std::optional<SecretKey> key = try_create(path)) return *key;
  throw std::runtime_error(path.string() + ": a secret key file already exists (fix: keep using it, or remove it first to replace it)");
}

SecretKey SecretKey::load_or_create(const std::filesystem::path& path, bool* created, bool create_folders) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    if (!create_folders && !std::filesystem::is_directory(folder, error))
      throw std::runtime_error(path.string() + ": no secret key there, and its folder " + folder.string() +
                               " does not exist (fix: correct the path, or create the key on purpose with `kbv keygen --key-file " + path.string() + "`)");
    if (std::optional<SecretKey> key = try_create(path)) {
      if (created) *created = true;
      return *key;
    }
  }
  if (created) *created = false;
  return load(path);  // there all along, or created by another process just now
}

std::filesystem::path state_directory() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return std::filesystem::path(state) / "kbv";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".local" / "state" / "kbv";
  // Never a shared folder such as /tmp, where another user could plant the key: the user's home
  // from the password database, or an error.
  if (const passwd* user = ::getpwuid(::geteuid()); user && user->pw_dir && *user->pw_dir)
    return std::filesystem::path(user->pw_dir) / ".local" / "state" / "kbv";
  throw std::runtime_error("HOME is not set and uid " + std::to_string(::geteuid()) +
                           " has no home in the password database: kbv has no private folder for its state (fix: set HOME or "
                           "XDG_STATE_HOME, or pass --key-file)");
}

std::filesystem::path default_key_path() {
  if (const char* env = std::getenv("KBV_KEY_FILE"); env && *env) return env;
  return state_directory() / "secret.key";
}

std::filesystem::path default_ceilings_path() {
  if (const char* env = std::getenv("KBV_CEILINGS"); env && *env) return env;
  return state_directory() / "ceilings.json";
}

std::filesystem::path default_algorithm_cache_path() {
  if (const char* env = std::getenv("KBV_ALGORITHM_CACHE"); env && *env) return env;
  return state_directory() / "cudnn-conv-algorithms.json";
}

}  // namespace kbv::inputs
