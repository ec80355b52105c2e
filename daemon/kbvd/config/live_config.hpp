// The configuration in force, replaced as a whole on SIGHUP; parts read it at use time.
#pragma once

#include <memory>

#include "config/config.hpp"

namespace kbv::kbvd {

class LiveConfig {
 public:
  explicit LiveConfig(Config initial) : current_(std::make_shared<const Config>(std::move(initial))) {}
  const Config& get() const { return *current_; }
  int generation() const { return generation_; }
  void replace(Config next) {
    current_ = std::make_shared<const Config>(std::move(next));
    ++generation_;
  }

 private:
  std::shared_ptr<const Config> current_;
  int generation_ = 0;
};

}  // namespace kbv::kbvd
