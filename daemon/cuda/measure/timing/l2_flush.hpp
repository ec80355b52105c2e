// timing/l2_flush.hpp — makes the next sample start with a cold L2 (docs/measurement.md, Timing; docs/threat-model.md, pattern 14
// of §1): persisting lines reset, the persisting carve-out and the stream's access-policy
// window cleared, then a memset over a buffer at least twice the L2 size evicts everything.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "measure/support/handles.hpp"

namespace kbv::cuda {

class L2Flusher {
 public:
  // For the current device; allocates the flush buffer once (allocating per sample cost up to
  // 1.2 s in NVBench issue #100).
  L2Flusher();

  // Both halves below: reset_persisting(stream), then enqueue(stream, sample).
  void flush(cudaStream_t stream, uint64_t sample);
  // Host-side calls only (persisting lines, carve-out, the stream's access-policy window):
  // made before a launch gate holds the stream, so none of them can wait behind it.
  void reset_persisting(cudaStream_t stream);
  // Enqueues the memset over the flush buffer on `stream`; `sample` varies the byte written.
  void enqueue(cudaStream_t stream, uint64_t sample);

  size_t l2_bytes() const { return l2_bytes_; }
  size_t buffer_bytes() const { return buffer_.bytes(); }

  // The buffer is this many times the L2 size (docs/measurement.md, Timing: ≥ 2×).
  static constexpr size_t kL2Multiple = 2;

 private:
  size_t l2_bytes_ = 0;
  size_t max_persisting_bytes_ = 0;
  measure::DeviceMemory buffer_;
};

}  // namespace kbv::cuda
