// The local control socket: a unix stream socket speaking JSON lines (one request object per
// line, one response object per line).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

namespace kbv::kbvd {

class ControlServer {
 public:
  using Handler = std::function<nlohmann::json(const nlohmann::json& request)>;

  // Binds `path` (a stale socket from a dead kbvd is replaced; a live one is an error).
  ControlServer(boost::asio::io_context& io, std::filesystem::path path, unsigned mode, Handler handler);
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  void stop();

 private:
  void accept();

  boost::asio::io_context& io_;
  std::filesystem::path path_;
  Handler handler_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
};

}  // namespace kbv::kbvd
