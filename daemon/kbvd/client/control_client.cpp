// Unix-socket JSON-lines client for kbvd, and the atomic copy behind `submit`.
#include "client/control_client.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
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

namespace kbv::control {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// A request is answered in milliseconds; results of thousands of candidates in well under this.
constexpr int kReplyTimeoutMs = 30000;
constexpr std::size_t kChunk = 1u << 20;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, const std::string& data, const std::string& what) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::write(fd, data.data() + sent, data.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ControlError(what + ": write: " + errno_text());
    sent += static_cast<std::size_t>(n);
  }
}

// Copies src to dir/.kbv-submit-RANDOM, flushes it, renames it to dir/name: kbvd (watching
// IN_MOVED_TO and ignoring dotfiles) never sees a half-written file.
void publish(const fs::path& src, const fs::path& dir, const std::string& name) {
  std::random_device rd;
  const fs::path temp = dir / (".kbv-submit-" + std::to_string(rd()) + std::to_string(::getpid()));
  {
    Fd in(::open(src.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.get() < 0) throw ControlError(src.string() + ": " + errno_text());
    Fd out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0664));
    if (out.get() < 0)
      throw ControlError(temp.string() + ": " + errno_text() +
                         " (is your user in kbvd's group? the watch folder must be writable)");
    std::vector<char> buffer(kChunk);
    for (;;) {
      const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::unlink(temp.c_str());
        throw ControlError(src.string() + ": read: " + errno_text());
      }
      if (n == 0) break;
      write_all(out.get(), std::string(buffer.data(), static_cast<std::size_t>(n)), temp.string());
    }
    ::fsync(out.get());
  }
  if (::rename(temp.c_str(), (dir / name).c_str()) != 0) {
    const auto why = errno_text();
    ::unlink(temp.c_str());
    throw ControlError((dir / name).string() + ": rename: " + why);
  }
}
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
    throw ControlError("cannot reach kbvd at " + socket_path.string() + ": " + errno_text() +
                       " (is kbvd running? set KBV_SOCKET or --socket to its control.socket)");
  write_all(fd.get(), req.dump() + "\n", socket_path.string());
  std::string reply;
  char buffer[65536];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReplyTimeoutMs);
  while (reply.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) throw ControlError("kbvd did not answer within " + std::to_string(kReplyTimeoutMs / 1000) + " s");
    pollfd p{fd.get(), POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw ControlError("kbvd closed the connection without an answer");
    reply.append(buffer, static_cast<std::size_t>(n));
  }
  auto answer = json::parse(reply.substr(0, reply.find('\n')), nullptr, false);
  if (answer.is_discarded() || !answer.is_object()) throw ControlError("kbvd sent an unreadable answer");
  if (!answer.value("ok", false)) throw ControlError(answer.value("error", std::string("request failed")));
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
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &length);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

json submit(const fs::path& socket_path, const fs::path& candidate, const std::optional<fs::path>& manifest) {
  std::error_code ec;
  if (!fs::is_regular_file(candidate, ec)) throw ControlError(candidate.string() + ": not a file");
  if (candidate.extension() != ".so")
    throw ControlError(candidate.string() + ": a candidate is a shared library named NAME.so");
  std::string manifest_ext;
  if (manifest) {
    manifest_ext = manifest->extension().string();
    if (manifest_ext == ".yml") manifest_ext = ".yaml";
    if (manifest_ext != ".yaml" && manifest_ext != ".json")
      throw ControlError(manifest->string() + ": a manifest is .yaml or .json");
  }
  const auto st = kbv::control::status(socket_path);
  const fs::path dir = st.at("watch_dir").get<std::string>();
  const auto sha = file_sha256(candidate);
  // Keep the file's name unless a different file already has it in the folder.
  std::string name = candidate.filename().string();
  if (!name.empty() && name.front() == '.') name = name.substr(1);
  if (fs::exists(dir / name, ec) && file_sha256(dir / name) != sha)
    name = candidate.stem().string() + "-" + sha.substr(0, 12) + ".so";
  if (manifest) publish(*manifest, dir, name + manifest_ext);  // the manifest first: see DESIGN
  publish(candidate, dir, name);
  auto answer = request(socket_path, {{"cmd", "ingest"}, {"name", name}});
  answer["name"] = name;
  if (!answer.contains("sha256") || answer["sha256"].get<std::string>().empty()) answer["sha256"] = sha;
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
