// ceilings/ceilings.hpp — what the device can do at best, measured once by kbv-calibrate
// (copy bandwidth, TF32 and FP32 GEMM rates), and the physical floor of a problem: no correct
// implementation can take less time than max(FLOPs / rate, compulsory bytes / bandwidth).
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ops/op.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

struct Ceilings {
  std::string device_name;
  std::string driver;             // e.g. "580.65.06" (NVML) or "CUDA 13.0" (driver API level)
  double copy_bytes_per_s = 0;    // device-to-device cudaMemcpy, bytes read + written per s
  double tf32_flops_per_s = 0;    // cuBLAS SGEMM 8192³, TF32 tensor-op math
  double fp32_flops_per_s = 0;    // cuBLAS SGEMM 8192³, strict fp32 (default math)
  std::string measured_at;        // ISO 8601 UTC
};

nlohmann::json to_json(const Ceilings& ceilings);
// Throws std::invalid_argument naming the missing or non-positive field.
Ceilings ceilings_from_json(const nlohmann::json& json);
// Throws std::runtime_error naming the file when it cannot be read or parsed.
Ceilings load_ceilings(const std::filesystem::path& path);
void save_ceilings(const Ceilings& ceilings, const std::filesystem::path& path);

// max(flops / rate, bytes / copy bandwidth); the rate is TF32's for tensor-core work and
// FP32's for exact arithmetic.
double physical_floor_seconds(double flops, double bytes, const Ceilings& ceilings,
                              PrecisionClass precision);

// A problem's floor: its compulsory bytes over the bandwidth, and its FLOPs split by each
// node's precision class, each part over its own rate — the largest of these three bounds.
// (A fused kernel may overlap tensor-core and exact work, so they are not added.)
double physical_floor_seconds(const ResolvedProblem& problem, const Ceilings& ceilings);

}  // namespace kbv::cuda
