// eval/data_plane_factory.cpp — host or CUDA data plane by name, with device errors explained.
#include "eval/data_plane_factory.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

#include "eval/device_diagnosis.hpp"
#include "eval/host_data_plane.hpp"

#ifdef KBV_HAVE_CUDA_PLANE
#include "eval/cuda_data_plane.hpp"
#endif

namespace kbv::eval {

std::unique_ptr<DataPlane> make_data_plane(const ResolvedProblem& problem, const std::string& device, int gpu) {
  if (device == "host") return make_host_data_plane(problem);
  if (device != "cuda") throw std::runtime_error("unknown device '" + device + "' (fix: pass --device host or --device cuda)");
#ifdef KBV_HAVE_CUDA_PLANE
  try {
    return make_cuda_data_plane(problem, gpu);
  } catch (const std::exception& error) {
    const std::string explained = explain_cuda_unavailable(error.what(), inspect_cuda_machine());
    throw std::runtime_error("the cuda device (GPU " + std::to_string(gpu) + ") is unavailable: " + explained +
                             (explained == error.what() ? " (fix: run where an NVIDIA GPU and driver are, pick another with --gpu, or use --device host)" : ""));
  }
#else
  (void)gpu;
  throw std::runtime_error("this kbv was built without the cuda device (fix: use --device host, or build kbv with -DKBV_CUDA=ON where CUDA is installed)");
#endif
}

void warm_up_device(const std::string& device, int gpu) noexcept {
#ifdef KBV_HAVE_CUDA_PLANE
  if (device == "cuda") warm_up_cuda_device(gpu);
#else
  (void)device;
  (void)gpu;
#endif
}

namespace {
// The kernel's estimate of memory available without swapping (/proc/meminfo's MemAvailable).
std::optional<double> host_available_bytes() noexcept {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") return kilobytes * 1024;
  return std::nullopt;
}
}  // namespace

std::optional<double> device_free_bytes(const std::string& device, int gpu) noexcept {
  if (device == "host") return host_available_bytes();
#ifdef KBV_HAVE_CUDA_PLANE
  if (device == "cuda") return cuda_free_bytes(gpu);
#else
  (void)gpu;
#endif
  return std::nullopt;
}

}  // namespace kbv::eval
