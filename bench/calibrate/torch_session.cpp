// bench/calibrate/torch_session.cpp — posix_spawn of the Python server on one AF_UNIX stream
// socket (its stdin and stdout), JSON lines each way, its stderr left on ours.
#include "torch_session.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

extern char** environ;

namespace kbv::calibrate {
namespace {

// The server answers exit at once unless it is inside a measurement; after this it is killed.
constexpr double kExitGraceSeconds = 10.0;
constexpr size_t kReadChunk = 65536;

std::string errno_text() { return std::strerror(errno); }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TorchSession::TorchSession(const TorchSessionOptions& options) : options_(options) {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) throw TorchUnavailable("socketpair: " + errno_text());
  socket_ = ends[0];
  const int child_end = ends[1];

  std::vector<std::string> argv_text = {options_.python, "-u", "-m", "kbv_torch.server", "--device", options_.device};
  if (!options_.pci_bus_id.empty()) argv_text.insert(argv_text.end(), {"--pci-bus-id", options_.pci_bus_id});
  std::vector<std::string> env_text;
  std::string python_path = "PYTHONPATH=" + options_.package_dir.string();
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (text.rfind("PYTHONPATH=", 0) == 0) {
      if (text.size() > std::strlen("PYTHONPATH=")) python_path += ":" + text.substr(std::strlen("PYTHONPATH="));
    } else {
      env_text.push_back(text);
    }
  }
  env_text.push_back(python_path);
  std::vector<char*> argv, envp;
  for (auto& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  for (auto& entry : env_text) envp.push_back(entry.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_end, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_end, STDOUT_FILENO);
  // In kbv-calibrate's process group: a Ctrl-C on the terminal, or a runner's time limit that
  // kills the group, ends PyTorch's side too (torch.compile's workers watch their parent).
  const int spawned = ::posix_spawnp(&pid_, options_.python.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(child_end);
  if (spawned != 0) {
    pid_ = -1;
    ::close(socket_);
    socket_ = -1;
    throw TorchUnavailable("cannot run " + options_.python + ": " + std::strerror(spawned) +
                           " (fix: pass --python PATH to a Python with torch built for CUDA)");
  }
  const std::optional<std::string> line = read_line(options_.hello_timeout_s);
  if (!line) {
    const std::string ended = exit_text();
    stop();
    throw TorchUnavailable(options_.python + " -m kbv_torch.server (package from " + options_.package_dir.string() + ") " + ended +
                           " before saying hello; its messages are above (fix: check that the package folder holds kbv_torch/, and that " +
                           options_.python + " runs)");
  }
  hello_ = nlohmann::json::parse(*line, nullptr, false);
  if (!hello_.is_object() || hello_.value("type", "") != "hello") {
    stop();
    throw TorchUnavailable(options_.python + " -m kbv_torch.server answered '" + line->substr(0, 200) + "', not a hello");
  }
  if (hello_.contains("error") && hello_["error"].is_string()) {
    const std::string error = hello_["error"].get<std::string>();
    stop();
    throw TorchUnavailable(error);
  }
}

TorchSession::~TorchSession() { stop(); }

void TorchSession::stop() {
  if (socket_ >= 0 && pid_ > 0) {
    try {
      send_line(R"({"type": "exit"})");
    } catch (const std::exception&) {  // already gone: reaped below
    }
  }
  if (socket_ >= 0) ::close(socket_);
  socket_ = -1;
  if (pid_ <= 0) return;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (seconds_since(start) > kExitGraceSeconds) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
}

std::string TorchSession::exit_text() {
  if (pid_ <= 0) return "is not running";
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  pid_t done = 0;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && seconds_since(start) < 2.0)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (done != pid_) return "stopped answering";
  pid_ = -1;
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + strsignal(WTERMSIG(status));
  return "ended";
}

void TorchSession::send_line(const std::string& line) {
  const std::string text = line + "\n";
  size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(socket_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write to " + options_.python + " -m kbv_torch.server: " + errno_text());
    sent += static_cast<size_t>(n);
  }
}

std::optional<std::string> TorchSession::read_line(double timeout_s) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    const double left = timeout_s - seconds_since(start);
    if (left <= 0) return std::nullopt;
    pollfd waiting{.fd = socket_, .events = POLLIN, .revents = 0};
    const int ready = ::poll(&waiting, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (ready < 0 && errno != EINTR) return std::nullopt;
    if (ready <= 0) continue;
    char chunk[kReadChunk];
    const ssize_t n = ::recv(socket_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // the server closed its end: it exited
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

nlohmann::json TorchSession::request(const nlohmann::json& message, double timeout_s) {
  if (socket_ < 0) throw std::runtime_error(options_.python + " -m kbv_torch.server is not running");
  send_line(message.dump());
  const std::optional<std::string> line = read_line(timeout_s);
  if (!line) {
    std::string ended = exit_text();
    if (ended == "stopped answering") {
      ended = "said nothing for " + std::to_string(static_cast<int>(timeout_s)) + " s and was killed";
      ::kill(pid_, SIGKILL);  // hung: no grace period
    }
    stop();
    throw std::runtime_error(options_.python + " -m kbv_torch.server " + ended + " while answering; its messages are above");
  }
  nlohmann::json reply = nlohmann::json::parse(*line, nullptr, false);
  if (!reply.is_object()) throw std::runtime_error(options_.python + " -m kbv_torch.server answered with a line that is not JSON: " + line->substr(0, 200));
  return reply;
}

std::filesystem::path find_torch_package(const std::optional<std::filesystem::path>& explicit_dir, const std::filesystem::path& executable_dir) {
  std::vector<std::filesystem::path> places;
  if (explicit_dir) {
    places.push_back(*explicit_dir);
  } else {
    if (const char* dir = std::getenv("KBV_TORCH_DIR"); dir != nullptr && *dir != '\0') places.emplace_back(dir);
    places.push_back(executable_dir / ".." / "share" / "kbv" / "torch");
#ifdef KBV_SOURCE_TORCH_DIR
    places.emplace_back(KBV_SOURCE_TORCH_DIR);
#endif
  }
  std::string looked;
  for (const auto& place : places) {
    std::error_code error;
    if (std::filesystem::is_regular_file(place / "kbv_torch" / "server.py", error)) return std::filesystem::weakly_canonical(place, error);
    looked += (looked.empty() ? "" : ", ") + place.string();
  }
  throw TorchUnavailable("kbv_torch (kbv's PyTorch side) not found in " + looked +
                         " (fix: install kbv, or pass --torch-dir DIR naming the folder that holds kbv_torch/)");
}

}  // namespace kbv::calibrate
