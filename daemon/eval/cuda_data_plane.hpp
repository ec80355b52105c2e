// eval/cuda_data_plane.hpp — the CUDA device's data plane (device arena shared through CUDA
// IPC, device inputs, fp64 device reference, TF32/FP32 library baselines, device checks).
#pragma once

#include <memory>
#include <optional>

#include "eval/data_plane.hpp"

namespace kbv::eval {

std::unique_ptr<DataPlane> make_cuda_data_plane(const ResolvedProblem& problem, int gpu);

// Creates this process's CUDA context on `gpu` now; errors are left for make_cuda_data_plane()
// to report.
void warm_up_cuda_device(int gpu) noexcept;

// Free memory on `gpu` now (cudaMemGetInfo), or empty when CUDA cannot say.
std::optional<double> cuda_free_bytes(int gpu) noexcept;

}  // namespace kbv::eval
