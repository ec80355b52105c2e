// tests/cuda/measure/ceilings_test.cpp — ceilings JSON and physical floors (no GPU).
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "io/whole_file.hpp"
#include "measure/ceilings/ceilings.hpp"
#include "ops/registry.hpp"

namespace kbv::cuda {
namespace {

Ceilings h200_like() {
  Ceilings c;
  c.device_name = "NVIDIA H200";
  c.driver = "580.65.06";
  c.copy_bytes_per_s = 4e12;
  c.tf32_flops_per_s = 400e12;
  c.fp32_flops_per_s = 50e12;
  c.measured_at = "2025-01-01T00:00:00Z";
  return c;
}

TEST(Ceilings, JsonRoundTrip) {
  const Ceilings c = h200_like();
  const Ceilings back = ceilings_from_json(to_json(c));
  EXPECT_EQ(back.device_name, c.device_name);
  EXPECT_EQ(back.driver, c.driver);
  EXPECT_DOUBLE_EQ(back.copy_bytes_per_s, c.copy_bytes_per_s);
  EXPECT_DOUBLE_EQ(back.tf32_flops_per_s, c.tf32_flops_per_s);
  EXPECT_DOUBLE_EQ(back.fp32_flops_per_s, c.fp32_flops_per_s);
  EXPECT_EQ(back.measured_at, c.measured_at);

  const auto path = std::filesystem::temp_directory_path() / "kbv_ceilings_test.json";
  save_ceilings(c, path);
  EXPECT_DOUBLE_EQ(load_ceilings(path).tf32_flops_per_s, c.tf32_flops_per_s);
  std::filesystem::remove(path);
}

TEST(Ceilings, MissingOrBadFieldsAreNamed) {
  nlohmann::json json = to_json(h200_like());
  json.erase("copy_bytes_per_s");
  try {
    ceilings_from_json(json);
    FAIL() << "accepted ceilings without copy_bytes_per_s";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("copy_bytes_per_s"), std::string::npos);
  }
  json = to_json(h200_like());
  json["fp32_flops_per_s"] = 0;
  EXPECT_THROW(ceilings_from_json(json), std::invalid_argument);
  EXPECT_THROW(load_ceilings("/nonexistent/kbv/ceilings.json"), std::runtime_error);
  // Review: a hand-edited 1e308 put the physical floor near 0 and disabled impossible_time.
  json = to_json(h200_like());
  json["copy_bytes_per_s"] = 1e308;
  try {
    ceilings_from_json(json);
    FAIL() << "accepted a copy rate of 1e308";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("copy_bytes_per_s' must be a positive number up to"), std::string::npos) << e.what();
  }
}

// Review: every sample throttled gave a rate of infinity, written as null, and every later CUDA
// evaluation failed on the file; a kill mid-write left it truncated. Such ceilings are refused
// before anything is written, and a good file is replaced whole.
TEST(Ceilings, UnusableCeilingsAreNeverWritten) {
  const auto path = std::filesystem::temp_directory_path() / "kbv_ceilings_refused_test.json";
  save_ceilings(h200_like(), path);
  Ceilings broken = h200_like();
  broken.copy_bytes_per_s = std::numeric_limits<double>::infinity();
  EXPECT_THROW(save_ceilings(broken, path), std::runtime_error);
  EXPECT_DOUBLE_EQ(load_ceilings(path).copy_bytes_per_s, h200_like().copy_bytes_per_s) << "the good file stays";
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
    EXPECT_FALSE(entry.path().filename().string().starts_with(std::string(io::kTemporaryPrefix) + "kbv_ceilings_refused_test.json")) << entry.path();
  std::filesystem::remove(path);
}

TEST(PhysicalFloor, LargerOfComputeAndMemoryBounds) {
  const Ceilings c = h200_like();
  // 4096³ matmul: 1.37e11 FLOPs, 201 MB → compute-bound on TF32: 0.34 ms.
  const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const double bytes = 3.0 * 4096.0 * 4096.0 * 4;
  EXPECT_DOUBLE_EQ(physical_floor_seconds(flops, bytes, c, PrecisionClass::tensor_core),
                   flops / c.tf32_flops_per_s);
  EXPECT_DOUBLE_EQ(physical_floor_seconds(flops, bytes, c, PrecisionClass::exact),
                   flops / c.fp32_flops_per_s);
  // ReLU of 1.6e9 floats: memory-bound.
  EXPECT_DOUBLE_EQ(physical_floor_seconds(1.6e9, 12.8e9, c, PrecisionClass::exact),
                   12.8e9 / c.copy_bytes_per_s);
}

TEST(PhysicalFloor, ProblemSplitsFlopsByPrecisionClass) {
  ResolvedProblem r;
  r.problem.name = "gemm_then_relu";
  Node gemm;
  gemm.name = "mm";
  gemm.op = "matmul";
  gemm.inputs = {"a", "b"};
  gemm.output = "t";
  Node act;
  act.name = "act";
  act.op = "relu";
  act.inputs = {"t"};
  act.output = "y";
  r.problem.graph = {gemm, act};
  r.tensor_shapes = {{"a", {256, 512}}, {"b", {512, 128}}, {"t", {256, 128}}, {"y", {256, 128}}};
  r.compulsory_bytes = 4.0 * (256 * 512 + 512 * 128 + 256 * 128);
  const Ceilings c = h200_like();
  const double tensor = 2.0 * 256 * 128 * 512 / c.tf32_flops_per_s;
  const double exact = find_op("relu")->flops({{256, 128}}, {256, 128}, {}) / c.fp32_flops_per_s;
  const double memory = r.compulsory_bytes / c.copy_bytes_per_s;
  EXPECT_DOUBLE_EQ(physical_floor_seconds(r, c), std::max({tensor, exact, memory}));
}

}  // namespace
}  // namespace kbv::cuda
