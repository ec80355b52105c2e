// eval/device_diagnosis.cpp — the machine's NVIDIA driver as /proc and the loader show it, and
// the sentence that explains a cuda device that does not start.
#include "eval/device_diagnosis.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

namespace kbv::eval {
namespace {

constexpr const char* kDriverVersionFile = "/proc/driver/nvidia/version";
constexpr const char* kDriverGpusDir = "/proc/driver/nvidia/gpus";
constexpr const char* kDriverLibrary = "libcuda.so.1";
constexpr const char* kFixElsewhere = "fix: run it where an NVIDIA GPU and its driver are, or evaluate a host candidate with --device host";

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// CUDA_VISIBLE_DEVICES values that leave CUDA no device at all.
bool hides_every_gpu(const std::string& value) {
  return value.empty() || value == "-1" || value == "none" || value == "NoDevFiles";
}

}  // namespace

CudaMachineFacts inspect_cuda_machine() {
  CudaMachineFacts facts;
  std::error_code error;
  facts.kernel_module = std::filesystem::exists(kDriverVersionFile, error);
  if (facts.kernel_module) {
    std::ifstream version(kDriverVersionFile);
    const std::string first_line = [&] {
      std::string line;
      std::getline(version, line);
      return line;
    }();
    std::smatch match;
    if (std::regex_search(first_line, match, std::regex(R"((\d+\.\d+(\.\d+)?))"))) facts.driver_version = match[1];
    if (std::filesystem::is_directory(kDriverGpusDir, error)) {
      facts.gpus = 0;
      for (const auto& entry : std::filesystem::directory_iterator(kDriverGpusDir, error)) {
        (void)entry;
        ++facts.gpus;
      }
    }
  }
  if (void* library = ::dlopen(kDriverLibrary, RTLD_LAZY | RTLD_LOCAL)) {
    facts.driver_library = true;
    ::dlclose(library);
  }
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) facts.visible_devices = visible;
  return facts;
}

std::string explain_cuda_unavailable(const std::string& cuda_error, const CudaMachineFacts& facts) {
  std::string sentence;
  const std::string driver = "the NVIDIA driver" + (facts.driver_version.empty() ? std::string() : " " + facts.driver_version);
  if (!facts.kernel_module && !facts.driver_library) {
    sentence = std::string("no NVIDIA driver or GPU was found on this machine (no ") + kDriverVersionFile + ", no " + kDriverLibrary +
               "; " + kFixElsewhere + ")";
  } else if (!facts.driver_library) {
    sentence = driver + "'s kernel module is loaded but its library " + kDriverLibrary +
               " is not installed or not on the loader's path (fix: install the driver's user-space libraries matching the module)";
  } else if (!facts.kernel_module && (contains(cuda_error, "cudaErrorInsufficientDriver") || contains(cuda_error, "cudaErrorNoDevice"))) {
    sentence = std::string("the NVIDIA driver's kernel module is not loaded (") + kDriverLibrary + " is installed, " + kDriverVersionFile +
               " is missing; fix: load the module or run on a machine with an NVIDIA GPU)";
  } else if (facts.visible_devices && hides_every_gpu(*facts.visible_devices)) {
    sentence = "CUDA_VISIBLE_DEVICES='" + *facts.visible_devices + "' hides every GPU (fix: unset it or name a GPU)";
  } else if (facts.gpus == 0) {
    sentence = driver + " is loaded but lists no GPU in " + kDriverGpusDir + " (" + kFixElsewhere + ")";
  } else if (contains(cuda_error, "cudaErrorInsufficientDriver")) {
    sentence = driver + " is older than this kbv's CUDA runtime needs (fix: update the driver, or build kbv with a CUDA toolkit the "
               "driver supports)";
  } else if (contains(cuda_error, "cudaErrorNoDevice")) {
    sentence = std::string("CUDA finds no usable NVIDIA GPU (") + kFixElsewhere + ")";
  } else if (contains(cuda_error, "cudaErrorInvalidDevice")) {
    sentence = "there is no GPU with that ordinal (fix: pick one with --gpu; nvidia-smi -L lists them)";
  }
  if (sentence.empty()) return cuda_error;
  return sentence + " [CUDA: " + cuda_error + "]";
}

}  // namespace kbv::eval
