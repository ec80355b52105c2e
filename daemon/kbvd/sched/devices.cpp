// Counts GPUs from CUDA_VISIBLE_DEVICES or NVIDIA device nodes and turns them into slots.
#include "sched/devices.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <regex>

namespace kbv::kbvd {

int count_visible_gpus(const char* cuda_visible_devices, const std::filesystem::path& dev_dir) {
  if (cuda_visible_devices != nullptr) {
    // CUDA's rule: a comma-separated list; enumeration stops at the first invalid entry, so
    // "", "-1" or "none" hide every device.
    const std::string list(cuda_visible_devices);
    int count = 0;
    std::size_t start = 0;
    while (start <= list.size()) {
      const auto comma = std::min(list.find(',', start), list.size());
      std::string item = list.substr(start, comma - start);
      item.erase(std::remove_if(item.begin(), item.end(), ::isspace), item.end());
      const bool index = !item.empty() && std::all_of(item.begin(), item.end(), ::isdigit);
      const bool uuid = item.rfind("GPU-", 0) == 0 || item.rfind("MIG-", 0) == 0;
      if (!index && !uuid) break;
      ++count;
      start = comma + 1;
    }
    return count;
  }
  static const std::regex node("nvidia[0-9]+");
  int count = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dev_dir, ec))
    if (std::regex_match(entry.path().filename().string(), node)) ++count;
  return count;
}

std::vector<DeviceSlot> discover_slots(const DevicesConfig& config, const char* cuda_visible_devices) {
  std::vector<DeviceSlot> slots;
  if (config.kind == DeviceKind::host) return {{"host", "host", std::nullopt}};
  const int gpus = config.gpus ? *config.gpus : count_visible_gpus(cuda_visible_devices, config.dev_dir);
  for (int i = 0; i < gpus; ++i) slots.push_back({std::to_string(i), "cuda", i});
  if (slots.empty() && config.kind == DeviceKind::cuda)
    throw ConfigError(fmt::format(
        "devices.kind is cuda but no GPU is visible (CUDA_VISIBLE_DEVICES {}, no nvidiaN node "
        "in {}); fix: set devices.gpus to the GPU count, or devices.kind to auto or host",
        cuda_visible_devices ? fmt::format("'{}'", cuda_visible_devices) : "unset",
        config.dev_dir.string()));
  if (slots.empty()) slots.push_back({"host", "host", std::nullopt});
  return slots;
}

}  // namespace kbv::kbvd
