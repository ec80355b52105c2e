// bench/calibrate/torch_session.hpp — a Python process with PyTorch, serving kbv_torch.server's
// JSON-lines protocol (python/kbv_torch/server.py documents every message) to kbv-calibrate.
// PyTorch never enters a kbv process: it runs here, in its own process, beside the calibration.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::calibrate {

struct TorchSessionOptions {
  std::string python = "python3";      // a path, or a name looked up on PATH
  std::filesystem::path package_dir;   // the folder holding kbv_torch/ (find_torch_package())
  std::string device = "0";            // the CUDA ordinal, or "cpu" (kbv's tests)
  std::string pci_bus_id;              // kbv's device, so the server checks torch's is the same GPU
  // Importing torch cold (first start on a machine, a network file system) took tens of seconds.
  double hello_timeout_s = 300;
};

// No usable PyTorch: what() says what is missing (the Python, torch, CUDA, the package) and the fix.
class TorchUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TorchSession {
 public:
  // Starts the server and reads its hello. Throws TorchUnavailable when the Python cannot be
  // started, cannot import torch, has no CUDA (unless device is "cpu"), or exits before answering.
  explicit TorchSession(const TorchSessionOptions& options);
  // Asks the server to exit; kills it when it has not within a few seconds.
  ~TorchSession();
  TorchSession(const TorchSession&) = delete;
  TorchSession& operator=(const TorchSession&) = delete;

  // The server's hello: python, torch_version, torch_cuda, triton_version, device_name, clock…
  const nlohmann::json& hello() const { return hello_; }
  const std::string& python() const { return options_.python; }

  // Sends one message and returns the reply. Throws std::runtime_error when the server dies,
  // says nothing for timeout_s (it is killed then), or answers with something that is not JSON.
  nlohmann::json request(const nlohmann::json& message, double timeout_s);

 private:
  void send_line(const std::string& line);
  std::optional<std::string> read_line(double timeout_s);
  std::string exit_text();  // how the server ended, once it has
  void stop();

  TorchSessionOptions options_;
  pid_t pid_ = -1;
  int socket_ = -1;
  std::string buffer_;
  nlohmann::json hello_;
};

// Where kbv_torch/ is: `explicit_dir` when given, else $KBV_TORCH_DIR, else
// <executable dir>/../share/kbv/torch (installed, and the GPU bundle), else the source tree's
// bench/calibrate/python. Throws TorchUnavailable naming every place it looked.
std::filesystem::path find_torch_package(const std::optional<std::filesystem::path>& explicit_dir,
                                         const std::filesystem::path& executable_dir);

}  // namespace kbv::calibrate
