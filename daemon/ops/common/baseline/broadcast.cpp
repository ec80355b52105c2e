// daemon/ops/common/baseline/broadcast.cpp — broadcast coalescing for the binary baseline kernels.
#include "ops/common/baseline/broadcast.hpp"

#include <stdexcept>
#include <vector>

#include "ops/op_support.hpp"

namespace kbv::ops::baseline {

BroadcastGeometry make_broadcast_geometry(const Shape& a, const Shape& b, const Shape& out) {
  if (op_support::broadcast_shapes("broadcast", a, b) != out)
    throw std::invalid_argument("shapes " + kbv::to_string(a) + " and " + kbv::to_string(b) +
                                " do not broadcast to " + kbv::to_string(out));
  const std::vector<int64_t> sa = op_support::broadcast_strides(a, out);
  const std::vector<int64_t> sb = op_support::broadcast_strides(b, out);

  // Keep dims of size > 1, merging dim d into the kept dim after it when both operands step
  // through them as one contiguous run: stride[d] == stride[next] * dims[next].
  std::vector<int64_t> dims, stride_a, stride_b;  // innermost first while building
  for (size_t d = out.size(); d-- > 0;) {
    if (out[d] == 1) continue;
    if (!dims.empty() && sa[d] == stride_a.back() * dims.back() &&
        sb[d] == stride_b.back() * dims.back()) {
      dims.back() *= out[d];
      continue;
    }
    dims.push_back(out[d]);
    stride_a.push_back(sa[d]);
    stride_b.push_back(sb[d]);
  }
  if (dims.empty()) {  // a single element
    dims.push_back(1);
    stride_a.push_back(0);
    stride_b.push_back(0);
  }
  if (dims.size() > static_cast<size_t>(kMaxBroadcastRank))
    throw std::invalid_argument("broadcast of " + kbv::to_string(a) + " with " + kbv::to_string(b) +
                                " needs " + std::to_string(dims.size()) +
                                " dims after coalescing; the CUDA kernel handles " +
                                std::to_string(kMaxBroadcastRank));
  BroadcastGeometry geometry;
  geometry.rank = static_cast<int>(dims.size());
  for (int d = 0; d < geometry.rank; ++d) {  // back to outermost first
    const size_t from = dims.size() - 1 - static_cast<size_t>(d);
    geometry.dims[d] = dims[from];
    geometry.stride_a[d] = stride_a[from];
    geometry.stride_b[d] = stride_b[from];
  }
  geometry.count = numel(out);
  return geometry;
}

}  // namespace kbv::ops::baseline
