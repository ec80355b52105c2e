// tests/cuda/data/gpu_test_support.hpp — the GPU test fixture (skips without a CUDA device) and
// host↔device copies for the data tests.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../gpu_presence.hpp"
#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "common/stream.hpp"

namespace kbv::cuda::testing {

// Every GPU test derives from this: without a usable CUDA device it skips with the reason.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = why_no_cuda_device(); !why.empty()) GTEST_SKIP() << why;
    stream_.emplace();
  }

  cudaStream_t stream() const { return stream_->get(); }

  template <class T>
  DeviceBuffer<T> upload(const std::vector<T>& host) const {
    DeviceBuffer<T> device(host.size());
    if (!host.empty()) {
      check(cudaMemcpyAsync(device.get(), host.data(), host.size() * sizeof(T),
                            cudaMemcpyHostToDevice, stream()),
            "cudaMemcpyAsync (test upload)");
    }
    return device;
  }

  // A buffer of `count` NaNs (all bits set), so an element the code under test fails to write
  // cannot pass by holding a stale correct value from an earlier allocation.
  DeviceBuffer<double> nan_filled(size_t count) const {
    DeviceBuffer<double> buffer(count);
    check(cudaMemsetAsync(buffer.get(), 0xff, count * sizeof(double), stream()), "cudaMemsetAsync");
    return buffer;
  }

  // Waits for the stream, then copies `count` elements back.
  template <class T>
  std::vector<T> download(const T* device, size_t count) const {
    std::vector<T> host(count);
    if (count != 0) {
      check(cudaMemcpyAsync(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream()),
            "cudaMemcpyAsync (test download)");
    }
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize (test download)");
    return host;
  }

 private:
  std::optional<Stream> stream_;
};

// Normwise relative difference max|a−b| / max|b| (b the host reference), and where it peaks:
// element-wise relative error would be meaningless where the reference is near zero.
struct Difference {
  double relative = 0;
  double max_abs = 0;
  size_t worst_index = 0;
};

inline Difference normwise_difference(const std::vector<double>& device,
                                      const std::vector<double>& host) {
  Difference d;
  double scale = 0;
  for (double h : host) scale = std::max(scale, std::fabs(h));
  for (size_t i = 0; i < host.size(); ++i) {
    const double diff = std::fabs(device[i] - host[i]);
    if (std::isnan(diff)) {  // a NaN on one side only (or both): report it, not a number
      d.max_abs = d.relative = diff;
      d.worst_index = i;
      return d;
    }
    if (diff > d.max_abs) {
      d.max_abs = diff;
      d.worst_index = i;
    }
  }
  d.relative = scale > 0 ? d.max_abs / scale : d.max_abs;
  return d;
}

inline std::vector<double> random_normal(size_t count, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> values(count);
  for (double& v : values) v = normal(engine);
  return values;
}

}  // namespace kbv::cuda::testing
