// common/device_buffer.hpp — DeviceBuffer<T>: owned device memory, freed when it goes out of scope.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/cuda_error.hpp"

namespace kbv::cuda {

// `count` elements of T in device memory. Two kinds of allocation:
//   DeviceBuffer<T>(count)               cudaMalloc / cudaFree (usable from any stream)
//   DeviceBuffer<T>::on_stream(count, s) cudaMallocAsync / cudaFreeAsync on `s`: ordered with the
//                                        work on s, so freeing while kernels on s still read it
//                                        is safe; `s` must outlive the buffer.
// Contents are uninitialised. Move-only.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count_ == 0) return;
    void* raw = nullptr;
    check(cudaMalloc(&raw, count_ * sizeof(T)), "cudaMalloc");
    data_ = static_cast<T*>(raw);
  }

  static DeviceBuffer on_stream(size_t count, cudaStream_t stream) {
    DeviceBuffer buffer;
    buffer.count_ = count;
    buffer.stream_ = stream;
    buffer.stream_ordered_ = true;
    if (count == 0) return buffer;
    void* raw = nullptr;
    check(cudaMallocAsync(&raw, count * sizeof(T), stream), "cudaMallocAsync");
    buffer.data_ = static_cast<T*>(raw);
    return buffer;
  }

  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  ~DeviceBuffer() {
    if (data_ == nullptr) return;
    // A destructor cannot report failure; a failed free leaves a sticky error the next
    // checked call reports.
    if (stream_ordered_) {
      (void)cudaFreeAsync(data_, stream_);
    } else {
      (void)cudaFree(data_);
    }
  }

  T* get() const { return data_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    std::swap(stream_, other.stream_);
    std::swap(stream_ordered_, other.stream_ordered_);
  }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
  cudaStream_t stream_ = nullptr;
  bool stream_ordered_ = false;
};

}  // namespace kbv::cuda
