// tests/kbvd/control_test.cpp — tests of the control socket: only a stale socket of our own is ever
// removed at its path, the socket file goes on stop only if it is still ours, a flood of idle
// clients never locks others out, and idle clients are dropped.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstring>
#include <functional>
#include <thread>

#include "client/control_client.hpp"
#include "control/server.hpp"
#include "harness.hpp"

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using test::TempDir;

nlohmann::json echo(const nlohmann::json& request) { return {{"ok", true}, {"echo", request}}; }

sockaddr_un address_of(const fs::path& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  return addr;
}

int connect_to(const fs::path& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un addr = address_of(path);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Runs the server's loop on a thread for the test's duration.
struct Running {
  boost::asio::io_context io;
  std::unique_ptr<ControlServer> server;
  std::thread loop;
  Running(const fs::path& path, ControlLimits limits = {}, std::function<nlohmann::json(const nlohmann::json&)> handler = echo) {
    server = std::make_unique<ControlServer>(io, path, 0600, std::move(handler), limits);
    loop = std::thread([this] {
      auto guard = boost::asio::make_work_guard(io);
      io.run();
    });
  }
  ~Running() {
    boost::asio::post(io, [this] { server.reset(); });
    io.stop();
    loop.join();
  }
};

// A unix stream socket bound at `path` (not listening); -1 when it cannot be made.
int bound_socket(const fs::path& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un addr = address_of(path);
  if (fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) return fd;
  if (fd >= 0) ::close(fd);
  return -1;
}

// The client tells "kbvd refused this request" from "kbvd is away or not taking requests now",
// which kbv's control commands turn into exit statuses 2 and 3.
TEST(ControlSocket, TheClientTellsARefusalFromKbvdBeingAway) {
  TempDir dir;
  EXPECT_THROW(control::request(dir.path() / "nobody.sock", {{"cmd", "status"}}), control::KbvdUnavailable);
  Running busy(dir.path() / "busy.sock", {}, [](const nlohmann::json&) -> nlohmann::json {
    return {{"ok", false}, {"retry", true}, {"error", "kbvd is stopping"}};
  });
  EXPECT_THROW(control::request(dir.path() / "busy.sock", {{"cmd", "status"}}), control::KbvdUnavailable);
  Running refusing(dir.path() / "refusing.sock", {}, [](const nlohmann::json&) -> nlohmann::json {
    return {{"ok", false}, {"error", "no candidate matches 'x'"}};
  });
  try {
    control::request(dir.path() / "refusing.sock", {{"cmd", "show"}});
    ADD_FAILURE() << "a refusal was taken as an answer";
  } catch (const control::KbvdUnavailable& e) {
    ADD_FAILURE() << "a refusal of the request was taken for kbvd being away: " << e.what();
  } catch (const control::ControlError& e) {
    EXPECT_STREQ(e.what(), "no candidate matches 'x'");
  }
}

TEST(ControlSocket, ARegularFileAtThePathIsNeverRemoved) {
  TempDir dir;
  const auto path = dir.path() / "kbvd.sqlite3";
  test::write_file(path, "precious");
  boost::asio::io_context io;
  try {
    ControlServer server(io, path, 0600, echo);
    FAIL() << "bound over a regular file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a regular file is there, not a socket"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("fix:"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::read_file(path), "precious");
  fs::create_symlink(path, dir.path() / "link.sock");
  EXPECT_THROW(ControlServer(io, dir.path() / "link.sock", 0600, echo), std::runtime_error);
  EXPECT_EQ(test::read_file(path), "precious");
}

TEST(ControlSocket, AStaleSocketIsReplacedALiveOneIsNot) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  // What a killed kbvd leaves: a socket file nobody listens on.
  const int stale = bound_socket(path);
  ASSERT_GE(stale, 0);
  ::close(stale);
  ASSERT_TRUE(fs::is_socket(path));
  Running live(path);
  EXPECT_EQ(control::request(path, {{"cmd", "x"}})["echo"]["cmd"], "x");
  boost::asio::io_context other;
  try {
    ControlServer second(other, path, 0600, echo);
    FAIL() << "took a live kbvd's socket";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("another kbvd is listening"), std::string::npos) << e.what();
  }
  EXPECT_EQ(control::request(path, {{"cmd", "y"}})["echo"]["cmd"], "y") << "the live one is unharmed";
}

// A kbvd killed with SIGKILL while forking an evaluator leaves the listening socket open in the
// child until PR_SET_PDEATHSIG ends it: a listener that goes away within the grace is stale.
TEST(ControlSocket, AListenerThatGoesAwayWithinTheGraceIsStale) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  const int fd = bound_socket(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  std::thread orphan([fd] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::close(fd);
  });
  boost::asio::io_context io;
  try {
    ControlServer server(io, path, 0600, echo);
  } catch (const std::runtime_error& e) {
    ADD_FAILURE() << "a listener that closed after 300 ms was taken for a live kbvd: " << e.what();
  }
  orphan.join();
}

TEST(ControlSocket, StopLeavesAFileThatReplacedTheSocket) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  boost::asio::io_context io;
  ControlServer server(io, path, 0600, echo);
  fs::remove(path);
  test::write_file(path, "someone else's");
  server.stop();
  EXPECT_EQ(test::read_file(path), "someone else's");
}

TEST(ControlSocket, IdleClientsCannotLockOthersOut) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  ControlLimits limits;
  limits.max_clients = 8;
  limits.idle_timeout = 60s;
  Running server(path, limits);
  std::vector<int> idle;
  for (int i = 0; i < 200; ++i) {
    const int fd = connect_to(path);
    ASSERT_GE(fd, 0) << i;
    idle.push_back(fd);
  }
  // The idlest clients made room: a real request is answered at once.
  EXPECT_EQ(control::request(path, {{"cmd", "status"}})["echo"]["cmd"], "status");
  std::size_t clients = 0;
  boost::asio::post(server.io, [&] { clients = server.server->clients(); });
  test::wait_until([&] { return clients > 0; }, 2s);
  EXPECT_LE(clients, limits.max_clients);
  for (const int fd : idle) ::close(fd);
}

TEST(ControlSocket, AnIdleClientIsDropped) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  ControlLimits limits;
  limits.idle_timeout = 200ms;
  Running server(path, limits);
  const int fd = connect_to(path);
  ASSERT_GE(fd, 0);
  char byte;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(::read(fd, &byte, 1), 0) << "closed by kbvd";
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  ::close(fd);
}

// Review: a request 500 000 arrays deep (under the 1 MiB cap) crashed kbvd when an error message
// quoted it; three such crashes during an evaluation recorded it as a crash. A request nested past
// the bound is refused before any handler sees it, and the server goes on answering.
TEST(ControlSocket, ADeeplyNestedRequestIsRefusedUnread) {
  TempDir dir;
  const auto path = dir.path() / "c.sock";
  Running server(path);
  const std::string deep = "{\"cmd\":\"results\",\"limit\":" + std::string(400000, '[') + std::string(400000, ']') + "}\n";
  const int fd = connect_to(path);
  ASSERT_GE(fd, 0);
  for (std::size_t sent = 0; sent < deep.size();) {
    const ssize_t n = ::write(fd, deep.data() + sent, deep.size() - sent);
    ASSERT_GT(n, 0);
    sent += static_cast<std::size_t>(n);
  }
  std::string reply;
  for (char c; reply.find('\n') == std::string::npos && ::read(fd, &c, 1) == 1;) reply += c;
  ::close(fd);
  EXPECT_NE(reply.find("nested at most 32 deep"), std::string::npos) << reply;
  EXPECT_EQ(control::request(path, {{"cmd", "status"}})["echo"]["cmd"], "status") << "still answering";
}

}  // namespace
}  // namespace kbv::kbvd
