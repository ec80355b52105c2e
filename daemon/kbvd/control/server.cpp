// Accepts control connections and answers each JSON line with the handler's JSON line; at most
// ControlLimits::max_clients at once (the client idle longest makes room), idle ones dropped.
#include "control/server.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <chrono>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <thread>

#include "client/json_dump.hpp"
#include "client/json_parse.hpp"

namespace kbv::kbvd {
namespace {
namespace asio = boost::asio;
namespace fs = std::filesystem;
using asio::local::stream_protocol;

// A request is a short JSON object; anything longer is refused before it fills memory.
constexpr std::size_t kMaxRequestBytes = 1u << 20;
// Out of descriptors (EMFILE/ENFILE): wait this long before accepting again instead of spinning
// on an accept that fails at once.
constexpr std::chrono::milliseconds kAcceptRetry{100};

std::string line_of(const nlohmann::json& response) {
  return control::json_dump(response) + "\n";
}

const char* file_type(mode_t mode) {
  if (S_ISREG(mode)) return "regular file";
  if (S_ISDIR(mode)) return "directory";
  if (S_ISLNK(mode)) return "symbolic link";
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISBLK(mode) || S_ISCHR(mode)) return "device";
  return "file";
}

// How long a socket that still accepts connections is watched before it counts as another
// kbvd's, and how often: a dead kbvd's orphaned child dies within milliseconds of it.
constexpr auto kStaleListenerGrace = std::chrono::seconds(2);
constexpr auto kStaleListenerPoll = std::chrono::milliseconds(50);

// The socket path may hold a stale socket of a kbvd that died: that one alone is removed.
void clear_stale_socket(asio::io_context& io, const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // nothing there
  const auto refuse = [&](const std::string& why) {
    throw std::runtime_error(fmt::format("control.socket {}: {}; kbvd only ever removes a stale socket of its own; "
                                         "fix: set control.socket to a free path", path.string(), why));
  };
  if (!S_ISSOCK(st.st_mode)) refuse(fmt::format("a {} is there, not a socket", file_type(st.st_mode)));
  if (st.st_uid != ::geteuid()) refuse(fmt::format("the socket there belongs to uid {}, not to this kbvd's uid {}",
                                                   st.st_uid, ::geteuid()));
  // A kbvd killed with SIGKILL can leave its listening socket open for a moment in a child caught
  // between fork and exec (it holds kbvd's descriptors until PR_SET_PDEATHSIG ends it): a socket
  // that still accepts is probed again for kStaleListenerGrace before it counts as another kbvd's.
  const auto accepts = [&] {
    stream_protocol::socket probe(io);
    boost::system::error_code connect_error;
    probe.connect(stream_protocol::endpoint(path.string()), connect_error);
    return !connect_error;
  };
  const auto give_up = std::chrono::steady_clock::now() + kStaleListenerGrace;
  while (accepts()) {
    if (std::chrono::steady_clock::now() >= give_up)
      throw std::runtime_error(fmt::format(
          "{}: another kbvd is listening there; fix: stop it or set control.socket elsewhere", path.string()));
    std::this_thread::sleep_for(kStaleListenerPoll);
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error(fmt::format("{}: cannot remove the stale socket: {}", path.string(), std::strerror(errno)));
}

}  // namespace

class ControlServer::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(stream_protocol::socket socket, ControlServer& server)
      : socket_(std::move(socket)), server_(&server), in_(kMaxRequestBytes), idle_(socket_.get_executor()) {}

  bool waiting_for_request() const { return reading_; }
  std::chrono::steady_clock::time_point last_activity() const { return last_activity_; }

  void read() {
    reading_ = true;
    touch();
    asio::async_read_until(socket_, in_, '\n', [self = shared_from_this()](auto ec, std::size_t n) {
      self->reading_ = false;
      if (ec) {
        if (ec == asio::error::not_found) self->reply({{"ok", false}, {"error", "request too long"}}, false);
        else self->close();
        return;
      }
      std::string line(asio::buffers_begin(self->in_.data()),
                       asio::buffers_begin(self->in_.data()) + static_cast<std::ptrdiff_t>(n));
      self->in_.consume(n);
      if (!self->server_) return;
      nlohmann::json response;
      const auto request = control::parse_bounded(line, control::kMaxRequestDepth);
      if (request.is_discarded() || !request.is_object()) {
        response = {{"ok", false},
                    {"error", "the request is not a JSON object on one line, nested at most " + std::to_string(control::kMaxRequestDepth) + " deep"}};
      } else {
        try {
          response = self->server_->handler_(request);
        } catch (const std::exception& e) {
          response = {{"ok", false}, {"error", e.what()}};
        }
      }
      self->reply(response, true);
    });
  }

  void close() {
    boost::system::error_code ignored;
    idle_.cancel();
    socket_.close(ignored);
    if (auto* server = std::exchange(server_, nullptr)) server->forget(this);
  }

  void detach() {  // the server goes away first
    server_ = nullptr;
    boost::system::error_code ignored;
    idle_.cancel();
    socket_.close(ignored);
  }

 private:
  void touch() {
    last_activity_ = std::chrono::steady_clock::now();
    if (!server_) return;
    idle_.expires_after(server_->limits_.idle_timeout);
    idle_.async_wait([weak = weak_from_this()](auto ec) {
      if (auto self = weak.lock(); self && !ec) self->close();
    });
  }

  void reply(const nlohmann::json& response, bool again) {
    touch();
    auto text = std::make_shared<std::string>(line_of(response));
    asio::async_write(socket_, asio::buffer(*text), [self = shared_from_this(), text, again](auto ec, std::size_t) {
      if (!ec && again && self->server_) self->read();
      else self->close();
    });
  }

  stream_protocol::socket socket_;
  ControlServer* server_;
  asio::streambuf in_;
  asio::steady_timer idle_;
  std::chrono::steady_clock::time_point last_activity_;
  bool reading_ = false;
};

ControlServer::ControlServer(asio::io_context& io, fs::path path, unsigned mode, Handler handler, ControlLimits limits)
    : io_(io), path_(std::move(path)), handler_(std::move(handler)), limits_(limits), acceptor_(io), accept_retry_(io) {
  std::error_code ec;
  fs::create_directories(path_.parent_path(), ec);
  clear_stale_socket(io, path_);
  acceptor_.open(stream_protocol());
  boost::system::error_code bind_error;
  acceptor_.bind(stream_protocol::endpoint(path_.string()), bind_error);
  if (bind_error)
    throw std::runtime_error(fmt::format("{}: cannot bind the control socket: {}; fix: check "
                                         "control.socket and its folder's permissions",
                                         path_.string(), bind_error.message()));
  ::chmod(path_.c_str(), mode);
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0) {
    bound_dev_ = st.st_dev;
    bound_ino_ = st.st_ino;
  }
  acceptor_.listen();
  accept();
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::stop() {
  accept_retry_.cancel();
  for (auto& session : sessions_) session->detach();
  sessions_.clear();
  if (!acceptor_.is_open()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  // Remove the socket only if it is still the one bound (not a file put there since).
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == bound_dev_ && st.st_ino == bound_ino_)
    ::unlink(path_.c_str());
}

void ControlServer::accept() {
  acceptor_.async_accept([this](auto ec, stream_protocol::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec == asio::error::no_descriptors || ec.value() == ENFILE || ec == asio::error::no_buffer_space ||
        ec == asio::error::no_memory) {
      // Out of descriptors: free one by dropping the idlest client, and do not spin.
      evict_idlest();
      spdlog::warn("control socket: cannot accept ({}); dropped the idlest client, retrying in {} ms",
                   ec.message(), kAcceptRetry.count());
      accept_later();
      return;
    }
    if (!ec) {
      if (sessions_.size() >= limits_.max_clients && !evict_idlest()) {
        // Every client is being answered: this one is told so at once, not left hanging.
        socket.non_blocking(true);
        boost::system::error_code ignored;
        asio::write(socket, asio::buffer(line_of({{"ok", false}, {"retry", true},
                                                  {"error", fmt::format("kbvd is answering {} clients; try again",
                                                                        limits_.max_clients)}})),
                    ignored);
      } else {
        auto session = std::make_shared<Session>(std::move(socket), *this);
        sessions_.push_back(session);
        session->read();
      }
    }
    accept();
  });
}

void ControlServer::accept_later() {
  accept_retry_.expires_after(kAcceptRetry);
  accept_retry_.async_wait([this](auto ec) {
    if (!ec && acceptor_.is_open()) accept();
  });
}

bool ControlServer::evict_idlest() {
  std::shared_ptr<Session> idlest;
  for (const auto& s : sessions_)
    if (s->waiting_for_request() && (!idlest || s->last_activity() < idlest->last_activity())) idlest = s;
  if (!idlest) return false;
  idlest->close();
  return true;
}

void ControlServer::forget(Session* session) {
  sessions_.remove_if([session](const std::shared_ptr<Session>& s) { return s.get() == session; });
}

}  // namespace kbv::kbvd
