// timing/sm_clock.cpp — NVML through dlopen, falling back to the probe kernel.
#include "measure/timing/sm_clock.hpp"

#include <dlfcn.h>

#include <array>

#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda {
namespace {

// The few NVML entry points used, declared here so the build needs no nvml.h (ABI from
// NVML's public header: nvmlReturn_t is an int enum, 0 = NVML_SUCCESS, NVML_CLOCK_SM = 1).
using NvmlDevice = struct NvmlDeviceOpaque*;
using NvmlInitFn = int (*)();
using NvmlShutdownFn = int (*)();
using NvmlByBusIdFn = int (*)(const char*, NvmlDevice*);
using NvmlClockInfoFn = int (*)(NvmlDevice, int, unsigned int*);
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

// PCI bus id as CUDA writes it ("0000:3b:00.0"); 13 characters plus NUL, with room to spare.
constexpr int kBusIdLength = 32;

// Globaltimer ticks at 1 µs on some GPUs (32 ns on recent ones): 50 µs of spinning keeps the
// probe's error under 2 % either way.
constexpr unsigned long long kProbeSpinNs = 50'000;

struct DlCloser {
  void operator()(void* handle) const noexcept { dlclose(handle); }
};

}  // namespace

struct SmClock::Nvml {
  std::unique_ptr<void, DlCloser> library;
  NvmlShutdownFn shutdown = nullptr;
  NvmlClockInfoFn clock_info = nullptr;
  NvmlClockInfoFn max_clock_info = nullptr;  // may stay null: only a fallback uses it
  NvmlDevice device = nullptr;

  ~Nvml() {
    if (shutdown) shutdown();
  }

  // nullptr when NVML is absent or does not know the device.
  static std::unique_ptr<Nvml> open(int cuda_device) {
    std::array<char, kBusIdLength> bus_id{};
    if (cudaDeviceGetPCIBusId(bus_id.data(), kBusIdLength, cuda_device) != cudaSuccess)
      return nullptr;
    auto nvml = std::make_unique<Nvml>();
    nvml->library.reset(dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL));
    if (!nvml->library) return nullptr;
    auto* init = reinterpret_cast<NvmlInitFn>(dlsym(nvml->library.get(), "nvmlInit_v2"));
    auto* by_bus = reinterpret_cast<NvmlByBusIdFn>(
        dlsym(nvml->library.get(), "nvmlDeviceGetHandleByPciBusId_v2"));
    auto* shutdown = reinterpret_cast<NvmlShutdownFn>(dlsym(nvml->library.get(), "nvmlShutdown"));
    nvml->clock_info =
        reinterpret_cast<NvmlClockInfoFn>(dlsym(nvml->library.get(), "nvmlDeviceGetClockInfo"));
    nvml->max_clock_info =
        reinterpret_cast<NvmlClockInfoFn>(dlsym(nvml->library.get(), "nvmlDeviceGetMaxClockInfo"));
    if (!init || !by_bus || !shutdown || !nvml->clock_info) return nullptr;
    if (init() != kNvmlSuccess) return nullptr;
    nvml->shutdown = shutdown;  // from here the destructor balances nvmlInit
    if (by_bus(bus_id.data(), &nvml->device) != kNvmlSuccess) return nullptr;
    unsigned int mhz = 0;
    if (nvml->clock_info(nvml->device, kNvmlClockSm, &mhz) != kNvmlSuccess || mhz == 0)
      return nullptr;
    return nvml;
  }

  double current_mhz() const {
    unsigned int mhz = 0;
    return clock_info(device, kNvmlClockSm, &mhz) == kNvmlSuccess ? mhz : 0.0;
  }

  double max_mhz() const {
    unsigned int mhz = 0;
    return max_clock_info && max_clock_info(device, kNvmlClockSm, &mhz) == kNvmlSuccess ? mhz
                                                                                          : 0.0;
  }
};

struct SmClock::Probe {
  measure::DeviceMemory device_result{2 * sizeof(unsigned long long), "clock probe result"};
  measure::PinnedMemory host_result{2 * sizeof(unsigned long long), "clock probe readback"};

  double measure_mhz(cudaStream_t stream) {
    auto* out = device_result.as<unsigned long long>();
    launch_clock_probe(kProbeSpinNs, out, stream);
    measure::check(cudaMemcpyAsync(host_result.as<unsigned long long>(), out,
                                   2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                   stream),
                   "cudaMemcpyAsync(clock probe)");
    measure::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(clock probe)");
    const unsigned long long cycles = host_result.as<unsigned long long>()[0];
    const unsigned long long ns = host_result.as<unsigned long long>()[1];
    constexpr double kCyclesPerNsToMhz = 1e3;
    return ns ? static_cast<double>(cycles) / static_cast<double>(ns) * kCyclesPerNsToMhz : 0.0;
  }
};

SmClock::SmClock() {
  int device = 0;
  measure::check(cudaGetDevice(&device), "cudaGetDevice");
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess)
    default_mhz_ = khz / 1e3;
  nvml_ = Nvml::open(device);
  if (!nvml_) probe_ = std::make_unique<Probe>();
  // A device that does not report its clock rate: NVML's maximum SM clock is the same figure.
  if (default_mhz_ <= 0 && nvml_) default_mhz_ = nvml_->max_mhz();
}

SmClock::~SmClock() = default;

double SmClock::sample_mhz(cudaStream_t stream) {
  if (nvml_) return nvml_->current_mhz();
  return probe_->measure_mhz(stream);
}

std::string SmClock::source() const {
  return nvml_ ? "nvml" : "probe kernel (clock64 over globaltimer)";
}

}  // namespace kbv::cuda
