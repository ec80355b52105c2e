// common/event.hpp — Event: an owned CUDA event (timing enabled unless asked otherwise).
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "common/cuda_error.hpp"

namespace kbv::cuda {

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    check(cudaEventCreateWithFlags(&event_, flags), "cudaEventCreate");
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    std::swap(event_, other.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() {
    if (event_ != nullptr) (void)cudaEventDestroy(event_);
  }

  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) const { check(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  void synchronize() const { check(cudaEventSynchronize(event_), "cudaEventSynchronize"); }

  // Milliseconds from `start` to this event (both recorded and complete, timing enabled).
  float elapsed_ms_since(const Event& start) const {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace kbv::cuda
