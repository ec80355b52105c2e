// eval/device_footprint.hpp — how much device memory the trusted side of a CUDA evaluation needs
// for a problem at one shape set (the smallest arena, the fp64 reference, the baselines' own
// buffers, a reserve for scratch), worked out before anything is allocated, so that a problem
// too large for the device gets a `resource` verdict that says so instead of failing mid-way.
#pragma once

#include <optional>
#include <string>

#include "spec/problem.hpp"

namespace kbv::eval {

// Room the figures below do not itemise: the conv2d reference's im2col chunk (512 MiB,
// ops/conv2d/reference.hpp), cuBLAS/cuBLASLt workspaces (32 MiB a handle) and cuDNN's, the
// comparison and checksum scratch, and the candidate worker's CUDA context (~0.5 GiB after
// cuInit with cuBLAS and cuDNN, docs/measurement.md) with what it allocates of its own.
constexpr double kScratchReserveBytes = 2.0 * 1024 * 1024 * 1024;

struct DeviceFootprint {
  double arena_bytes = 0;      // two slots (one correctness, one timing) of inputs (at their element size) and fp32 outputs
  double reference_bytes = 0;  // fp64 copies of the inputs and outputs, and the reference graph's live intermediates at their peak (graph/in_place.hpp)
  double baseline_bytes = 0;   // the TF32 and FP32 baselines' outputs and live intermediates, and one fp32 copy of each int64/bool input
  // The products' error scale (graph/error_scale_graph.hpp), fp64: its outputs, kept beside the
  // reference, and its graph's live intermediates at their peak (it reads the reference's inputs;
  // its final sqrt writes over its convolution's or matmul's result: graph/in_place.hpp).
  double error_scale_bytes = 0;
  double reserve_bytes = kScratchReserveBytes;
  double total() const { return arena_bytes + reference_bytes + baseline_bytes + error_scale_bytes + reserve_bytes; }
};

DeviceFootprint trusted_device_footprint(const ResolvedProblem& problem);

// Empty when the footprint fits `free_bytes`; otherwise the verdict's detail: the problem and
// shape set, each figure in GB, the free memory of `device` ("cuda" or "host"), and the fix.
std::optional<std::string> why_it_does_not_fit(const ResolvedProblem& problem, const DeviceFootprint& footprint, double free_bytes,
                                               const std::string& device = "cuda");

}  // namespace kbv::eval
