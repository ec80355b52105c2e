// tensor/shape.hpp — shapes and dense host tensors shared by every part of the trusted side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kbv {

using Shape = std::vector<int64_t>;

// Number of elements of a shape (1 for a scalar, rank 0).
int64_t numel(const Shape& shape);

// "[16, 64, 256]": how shapes appear in messages.
std::string to_string(const Shape& shape);

// A dense row-major tensor owned on the host.
template <class T>
struct HostTensor {
  Shape shape;
  std::vector<T> data;

  HostTensor() = default;
  explicit HostTensor(Shape s) : shape(std::move(s)), data(static_cast<size_t>(numel(shape))) {}
};

}  // namespace kbv
