// Accepts control connections and answers each JSON line with the handler's JSON line.
#include "control/server.hpp"

#include <sys/stat.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>
#include <memory>
#include <spdlog/spdlog.h>

namespace kbv::kbvd {
namespace {
namespace asio = boost::asio;
using asio::local::stream_protocol;

// A request is a short JSON object; anything longer is refused before it fills memory.
constexpr std::size_t kMaxRequestBytes = 1u << 20;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(stream_protocol::socket socket, const ControlServer::Handler& handler)
      : socket_(std::move(socket)), handler_(handler), in_(kMaxRequestBytes) {}

  void read() {
    asio::async_read_until(socket_, in_, '\n', [self = shared_from_this()](auto ec, std::size_t n) {
      if (ec) {
        if (ec == asio::error::not_found) self->reply({{"ok", false}, {"error", "request too long"}}, false);
        return;
      }
      std::string line(asio::buffers_begin(self->in_.data()),
                       asio::buffers_begin(self->in_.data()) + static_cast<std::ptrdiff_t>(n));
      self->in_.consume(n);
      nlohmann::json response;
      const auto request = nlohmann::json::parse(line, nullptr, false);
      if (request.is_discarded() || !request.is_object()) {
        response = {{"ok", false}, {"error", "the request is not a JSON object on one line"}};
      } else {
        try {
          response = self->handler_(request);
        } catch (const std::exception& e) {
          response = {{"ok", false}, {"error", e.what()}};
        }
      }
      self->reply(response, true);
    });
  }

 private:
  void reply(const nlohmann::json& response, bool again) {
    auto text = std::make_shared<std::string>(response.dump(-1, ' ', false,
                                                            nlohmann::json::error_handler_t::replace) + "\n");
    asio::async_write(socket_, asio::buffer(*text), [self = shared_from_this(), text, again](auto ec, std::size_t) {
      if (!ec && again) self->read();
    });
  }

  stream_protocol::socket socket_;
  ControlServer::Handler handler_;
  asio::streambuf in_;
};

}  // namespace

ControlServer::ControlServer(asio::io_context& io, std::filesystem::path path, unsigned mode,
                             Handler handler)
    : io_(io), path_(std::move(path)), handler_(std::move(handler)), acceptor_(io) {
  std::error_code ec;
  std::filesystem::create_directories(path_.parent_path(), ec);
  if (std::filesystem::exists(std::filesystem::symlink_status(path_, ec))) {
    stream_protocol::socket probe(io);
    boost::system::error_code connect_error;
    probe.connect(stream_protocol::endpoint(path_.string()), connect_error);
    if (!connect_error)
      throw std::runtime_error(fmt::format(
          "{}: another kbvd is listening there; fix: stop it or set control.socket elsewhere",
          path_.string()));
    std::filesystem::remove(path_, ec);
  }
  acceptor_.open(stream_protocol());
  boost::system::error_code bind_error;
  acceptor_.bind(stream_protocol::endpoint(path_.string()), bind_error);
  if (bind_error)
    throw std::runtime_error(fmt::format("{}: cannot bind the control socket: {}; fix: check "
                                         "control.socket and its folder's permissions",
                                         path_.string(), bind_error.message()));
  ::chmod(path_.c_str(), mode);
  acceptor_.listen();
  accept();
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::stop() {
  if (!acceptor_.is_open()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void ControlServer::accept() {
  acceptor_.async_accept([this](auto ec, stream_protocol::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) std::make_shared<Session>(std::move(socket), handler_)->read();
    accept();
  });
}

}  // namespace kbv::kbvd
