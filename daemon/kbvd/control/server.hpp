// The local control socket: a unix stream socket speaking JSON lines (one request object per
// line, one response object per line), with a bounded number of clients so that no number of
// idle or slow clients can take kbvd's descriptors from evaluation and ingest.
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <nlohmann/json.hpp>

namespace kbv::kbvd {

// Bounds on the control plane.
struct ControlLimits {
  // Clients connected at once. Each is one short request from the kbv CLI or kbvctl; 64 covers
  // a sweep's parallel submitters with room to spare, and keeps kbvd's descriptors for the
  // control plane far below the 1024 a default soft RLIMIT_NOFILE allows.
  std::size_t max_clients = 64;
  // A client that sends no complete request (or does not read its answer) for this long is
  // dropped: kbv's client writes its request right after connecting.
  std::chrono::milliseconds idle_timeout{10000};
};

class ControlServer {
 public:
  using Handler = std::function<nlohmann::json(const nlohmann::json& request)>;
  class Session;

  // Binds `path`. Only a stale socket is ever removed there: a path that is not a socket, a
  // socket of another user, or one a live kbvd answers on is an error that names the fix.
  ControlServer(boost::asio::io_context& io, std::filesystem::path path, unsigned mode, Handler handler,
                ControlLimits limits = {});
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  void stop();  // closes every client; removes the socket file if it is still the one bound
  std::size_t clients() const { return sessions_.size(); }

 private:
  void accept();
  void accept_later();
  bool evict_idlest();
  void forget(Session* session);

  boost::asio::io_context& io_;
  std::filesystem::path path_;
  Handler handler_;
  ControlLimits limits_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  boost::asio::steady_timer accept_retry_;
  std::list<std::shared_ptr<Session>> sessions_;  // oldest first
  dev_t bound_dev_ = 0;
  ino_t bound_ino_ = 0;
};

}  // namespace kbv::kbvd
