// tensor/widen.hpp — an input's elements, of any dtype, as the trusted side computes with them:
// widened to float or double (exact, tensor/dtype.hpp). The host data plane's one conversion
// point (eval/host_data_plane.cpp); the CUDA device's is data/device_inputs.hpp.
#pragma once

#include <cstdint>
#include <cstring>

#include "tensor/dtype.hpp"

namespace kbv {

// dst[i] = the value of element i of the `count` elements of `dtype` at `src` (bytes as the
// candidate receives them: float32, little-endian int64, one byte 0/1 per bool).
template <class T>
void widen_elements(const void* src, DType dtype, int64_t count, T* dst) {
  const auto* bytes = static_cast<const unsigned char*>(src);
  for (int64_t i = 0; i < count; ++i) {
    switch (dtype) {
      case DType::float32: {
        float value;
        std::memcpy(&value, bytes + 4 * i, sizeof value);
        dst[i] = static_cast<T>(value);
        break;
      }
      case DType::int64: {
        int64_t value;
        std::memcpy(&value, bytes + 8 * i, sizeof value);
        dst[i] = static_cast<T>(value);
        break;
      }
      case DType::boolean: dst[i] = bytes[i] ? T(1) : T(0); break;
    }
  }
}

}  // namespace kbv
