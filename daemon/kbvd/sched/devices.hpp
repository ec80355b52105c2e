// Which evaluation slots exist: one per GPU, or the host when there is none. Never touches CUDA.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace kbv::kbvd {

struct DeviceSlot {
  std::string label;       // "0", "1", … for GPUs (ordinal among visible ones), "host"
  std::string device;      // "cuda" or "host": the evaluator's --device
  std::optional<int> gpu;  // the evaluator's --gpu
};

// GPU count without a CUDA context: CUDA_VISIBLE_DEVICES when set, else /dev/nvidiaN nodes.
int count_visible_gpus(const char* cuda_visible_devices, const std::filesystem::path& dev_dir);

// The slots for this configuration (environment passed in so tests need not change it).
std::vector<DeviceSlot> discover_slots(const DevicesConfig& config, const char* cuda_visible_devices);

}  // namespace kbv::kbvd
