// Evaluation epochs: floor((now - origin) / length); hidden families rotate per epoch.
#pragma once

#include <chrono>
#include <cstdint>

#include "config/config.hpp"

namespace kbv::kbvd {

struct EpochSpan {
  std::int64_t number = 0;
  double starts_at_unix_s = 0;
  double ends_at_unix_s = 0;
};

// The epoch containing `now`; times before the origin belong to epoch 0.
EpochSpan epoch_at(const EpochConfig& config, std::chrono::system_clock::time_point now);

}  // namespace kbv::kbvd
