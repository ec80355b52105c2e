// eval/data_plane_factory.hpp — the data plane for a device named on the command line.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "eval/data_plane.hpp"

namespace kbv::eval {

// "host" or "cuda" (GPU ordinal `gpu`). Throws std::runtime_error naming the device and the
// fix when this kbv was built without it, or when the device cannot be used (no GPU, no driver).
std::unique_ptr<DataPlane> make_data_plane(const ResolvedProblem& problem, const std::string& device, int gpu);

// Does what make_data_plane() will need whatever the problem (CUDA: this process's context,
// ~0.2 s), so that it can run while the worker loads the candidate. Never throws; a device
// that cannot be used is reported by make_data_plane().
void warm_up_device(const std::string& device, int gpu) noexcept;

// Free device memory now (CUDA: cudaMemGetInfo on `gpu`); empty on the host or when CUDA cannot say.
std::optional<double> device_free_bytes(const std::string& device, int gpu) noexcept;

}  // namespace kbv::eval
