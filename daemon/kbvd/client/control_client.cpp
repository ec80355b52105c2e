// Unix-socket JSON-lines client for kbvd, and the atomic copy behind `submit`.
#include "client/control_client.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <vector>

#include "client/json_dump.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::control {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// A request is answered in milliseconds; results of thousands of candidates in well under this.
constexpr int kReplyTimeoutMs = 30000;
constexpr std::size_t kChunk = 1u << 20;

using Fd = sandbox::UniqueFd;

std::string errno_text() { return std::strerror(errno); }

std::string hex_digest(EVP_MD_CTX* ctx) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx, digest, &length);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

void write_all(int fd, const std::string& data, const std::string& what) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::write(fd, data.data() + sent, data.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ControlError(what + ": write: " + errno_text());
    sent += static_cast<std::size_t>(n);
  }
}

// A file to publish, opened once and checked on the descriptor: what is hashed, checked and
// copied is the same inode, never what a symbolic link or a swapped path would name.
struct Source {
  fs::path path;
  std::unique_ptr<Fd> fd;
  struct stat st {};
};

Source open_source(const fs::path& path) {
  Source src{path, nullptr, {}};
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) throw ControlError(path.string() + ": " + errno_text());
  if (S_ISLNK(link.st_mode))
    throw ControlError(path.string() + ": a symbolic link; kbv submit copies only a regular file named directly "
                                       "(fix: pass the file it points to)");
  src.fd = std::make_unique<Fd>(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (src.fd->get() < 0) throw ControlError(path.string() + ": " + errno_text());
  if (::fstat(src.fd->get(), &src.st) != 0) throw ControlError(path.string() + ": " + errno_text());
  if (!S_ISREG(src.st.st_mode))
    throw ControlError(path.string() + ": not a regular file (fix: pass the built candidate or manifest file)");
  return src;
}

// The published copy is never more readable than the source: its read bits at most, no execute
// bits, and no group read when the copy's group (the watch folder's) is not the source's group.
mode_t published_mode(const struct stat& source, gid_t copy_group) {
  mode_t mode = source.st_mode & 0644;
  if (copy_group != source.st_gid) mode &= ~static_cast<mode_t>(S_IRGRP | S_IWGRP);
  return mode;
}

// Copies `src` to dir/.kbv-submit-RANDOM (hashing it on the way when `sha` is given) and flushes
// it; publish() renames it in. kbvd ignores dotfiles, so it never sees a half-written file.
class Staged {
 public:
  Staged(Source& src, const fs::path& dir, std::string* sha) : dir_(dir) {
    std::random_device rd;
    temp_ = dir / (".kbv-submit-" + std::to_string(rd()) + std::to_string(::getpid()));
    Fd out(::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (out.get() < 0)
      throw ControlError(temp_.string() + ": " + errno_text() +
                         " (is your user in kbvd's group? the watch folder must be writable)");
    struct stat copy {};
    ::fstat(out.get(), &copy);
    const mode_t mode = published_mode(src.st, copy.st_gid);
    if ((mode & (S_IRGRP | S_IROTH)) == 0 && copy.st_uid != watch_folder_owner(dir)) {
      ::unlink(temp_.c_str());
      throw ControlError(src.path.string() + ": kbvd could not read the copy: kbv submit never makes a copy more "
                                             "readable than the file, and only you can read it (fix: chmod g+r or o+r "
                                             "if kbvd may read it, or submit as kbvd's user)");
    }
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
    std::vector<char> buffer(kChunk);
    ::lseek(src.fd->get(), 0, SEEK_SET);
    for (;;) {
      const ssize_t n = ::read(src.fd->get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const auto why = errno_text();
        ::unlink(temp_.c_str());
        throw ControlError(src.path.string() + ": read: " + why);
      }
      if (n == 0) break;
      EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(n));
      try {
        write_all(out.get(), std::string(buffer.data(), static_cast<std::size_t>(n)), temp_.string());
      } catch (...) {  // ENOSPC, say: the constructor throws, so no destructor removes the partial copy
        ::unlink(temp_.c_str());
        throw;
      }
    }
    ::fchmod(out.get(), mode);
    ::fsync(out.get());
    if (sha) *sha = hex_digest(ctx.get());
  }
  ~Staged() {
    if (!published_) ::unlink(temp_.c_str());
  }
  Staged(const Staged&) = delete;
  Staged& operator=(const Staged&) = delete;

  void publish(const std::string& name) {
    if (::rename(temp_.c_str(), (dir_ / name).c_str()) != 0)
      throw ControlError((dir_ / name).string() + ": rename: " + errno_text());
    published_ = true;
  }

 private:
  static uid_t watch_folder_owner(const fs::path& dir) {
    struct stat st {};
    return ::stat(dir.c_str(), &st) == 0 ? st.st_uid : static_cast<uid_t>(-1);
  }

  fs::path dir_, temp_;
  bool published_ = false;
};
}  // namespace

fs::path default_socket_path() {
  if (const char* env = std::getenv("KBV_SOCKET"); env && *env) return env;
  return "/run/kbvd/control.sock";
}

json request(const fs::path& socket_path, const json& req) {
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw ControlError("socket: " + errno_text());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.string().size() >= sizeof addr.sun_path)
    throw ControlError(socket_path.string() + ": path too long for a unix socket");
  std::strncpy(addr.sun_path, socket_path.c_str(), sizeof addr.sun_path - 1);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
    throw KbvdUnavailable("cannot reach kbvd at " + socket_path.string() + ": " + errno_text() +
                       " (is kbvd running? set KBV_SOCKET or --socket to its control.socket)");
  write_all(fd.get(), control::json_dump(req) + "\n", socket_path.string());
  std::string reply;
  char buffer[65536];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplyTimeoutMs);
  while (reply.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) throw KbvdUnavailable("kbvd did not answer within " + std::to_string(kReplyTimeoutMs / 1000) + " s");
    pollfd p{fd.get(), POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw KbvdUnavailable("kbvd closed the connection without an answer");
    reply.append(buffer, static_cast<std::size_t>(n));
  }
  auto answer = json::parse(reply.substr(0, reply.find('\n')), nullptr, false);
  if (answer.is_discarded() || !answer.is_object()) throw KbvdUnavailable("kbvd sent an unreadable answer");
  if (!answer.value("ok", false)) {
    const std::string why = answer.value("error", std::string("request failed"));
    if (answer.value("retry", false)) throw KbvdUnavailable(why);
    throw ControlError(why);
  }
  return answer;
}

json status(const fs::path& socket_path) { return request(socket_path, {{"cmd", "status"}}); }

std::string file_sha256(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ControlError(file.string() + ": cannot read");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buffer(kChunk);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  return hex_digest(ctx.get());
}

namespace {

// Whether `path` in the watch folder is a regular file of `size` bytes whose SHA-256 is `sha`:
// opened without following a link or blocking on a FIFO, sized before it is read (review: a
// sparse 16 TiB file another member left under the same name was hashed byte by byte, and a FIFO
// swapped in blocked the submitter).
bool holds_bytes(const fs::path& path, off_t size, const std::string& sha) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != size) return false;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buffer(kChunk);
  off_t left = size;
  while (left > 0) {
    const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got <= 0) return false;
    EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<std::size_t>(got));
    left -= got;
  }
  return hex_digest(ctx.get()) == sha;
}

}  // namespace

json submit(const fs::path& socket_path, const fs::path& candidate, const std::optional<fs::path>& manifest) {
  if (candidate.extension() != ".so")
    throw ControlError(candidate.string() + ": a candidate is a shared library named NAME.so");
  // The name it gets in the watch folder drops one leading dot (hidden files are not taken); one
  // that leaves no NAME is refused here, before anything is published there.
  if (std::string shown = candidate.filename().string(); shown.size() <= 3 + (shown.front() == '.' ? 1u : 0u) ||
                                                         (shown.front() == '.' && shown[1] == '.'))
    throw ControlError(candidate.string() + ": a candidate is a shared library named NAME.so, with a NAME that does not start with a dot "
                                            "(fix: rename it)");
  Source so = open_source(candidate);
  std::optional<Source> yaml;
  std::string manifest_ext;
  if (manifest) {
    manifest_ext = manifest->extension().string();
    if (manifest_ext == ".yml") manifest_ext = ".yaml";
    if (manifest_ext != ".yaml" && manifest_ext != ".json")
      throw ControlError(manifest->string() + ": a manifest is .yaml or .json");
    yaml = open_source(*manifest);
  }
  const auto st = kbv::control::status(socket_path);
  const fs::path dir = st.at("watch_dir").get<std::string>();
  std::string sha;
  Staged staged_so(so, dir, &sha);
  // Keep the file's name unless a different file already has it in the folder.
  std::string name = candidate.filename().string();
  if (!name.empty() && name.front() == '.') name = name.substr(1);
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir / name, ec)) && !holds_bytes(dir / name, so.st.st_size, sha))
    name = candidate.stem().string() + "-" + sha.substr(0, 12) + ".so";
  if (yaml) Staged(*yaml, dir, nullptr).publish(name + manifest_ext);  // the manifest first: see DESIGN
  staged_so.publish(name);
  auto answer = request(socket_path, {{"cmd", "ingest"}, {"name", name}});
  answer["name"] = name;
  if (!answer.contains("sha256") || !answer["sha256"].is_string() || answer["sha256"].get<std::string>().empty()) answer["sha256"] = sha;
  // kbvd took other bytes under this name (a same-named submission raced this one): never shown as
  // this submission's (review).
  if (answer["sha256"].get<std::string>() != sha)
    throw ControlError(candidate.string() + ": kbvd took other bytes under the name " + name + " (sha256 " +
                       answer["sha256"].get<std::string>().substr(0, 12) + ", this file's " + sha.substr(0, 12) +
                       "): another submission of that name raced this one (fix: submit it again)");
  return answer;
}

json results_list(const fs::path& socket_path, int limit, const std::string& verdict, const std::string& state) {
  json req = {{"cmd", "results"}, {"limit", limit}};
  if (!verdict.empty()) req["verdict"] = verdict;
  if (!state.empty()) req["state"] = state;
  return request(socket_path, req);
}

json results_show(const fs::path& socket_path, const std::string& id) {
  return request(socket_path, {{"cmd", "show"}, {"id", id}});
}

json requeue(const fs::path& socket_path, const std::string& id) {
  return request(socket_path, {{"cmd", "requeue"}, {"id", id}});
}

}  // namespace kbv::control
