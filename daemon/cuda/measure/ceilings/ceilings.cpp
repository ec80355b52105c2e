// ceilings/ceilings.cpp — ceilings JSON and physical floors.
#include "measure/ceilings/ceilings.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "io/whole_file.hpp"
#include "ops/registry.hpp"

namespace kbv::cuda {

nlohmann::json to_json(const Ceilings& c) {
  return {{"device_name", c.device_name},
          {"driver", c.driver},
          {"copy_bytes_per_s", c.copy_bytes_per_s},
          {"tf32_flops_per_s", c.tf32_flops_per_s},
          {"fp32_flops_per_s", c.fp32_flops_per_s},
          {"measured_at", c.measured_at}};
}

namespace {

// Upper bounds on a measured rate: about 20× the H200's (4.8 TB/s HBM3e, ~0.5 PFLOP/s dense TF32,
// ~67 TFLOP/s FP32 per its datasheet). A rate past them is a hand edit or a broken measurement,
// and would put the physical floor near 0, disabling the impossible_time check (review).
constexpr double kMostCopyBytesPerSecond = 1e14;
constexpr double kMostTf32FlopsPerSecond = 1e16;
constexpr double kMostFp32FlopsPerSecond = 1e15;

double rate(const nlohmann::json& json, const char* field, double most) {
  if (!json.contains(field) || !json[field].is_number() || !(json[field].get<double>() > 0) || !(json[field].get<double>() <= most))
    throw std::invalid_argument(std::string("ceilings: field '") + field + "' must be a positive number up to " + nlohmann::json(most).dump() +
                                ", is " + (json.contains(field) ? json[field].dump() : std::string("missing")) +
                                " (fix: rerun kbv calibrate on this machine)");
  return json[field].get<double>();
}

std::string text(const nlohmann::json& json, const char* field) {
  if (!json.contains(field) || !json[field].is_string())
    throw std::invalid_argument(std::string("ceilings: field '") + field +
                                "' must be a string (rerun kbv-calibrate)");
  return json[field].get<std::string>();
}

}  // namespace

Ceilings ceilings_from_json(const nlohmann::json& json) {
  if (!json.is_object()) throw std::invalid_argument("ceilings: expected a JSON object");
  Ceilings c;
  c.device_name = text(json, "device_name");
  c.driver = text(json, "driver");
  c.copy_bytes_per_s = rate(json, "copy_bytes_per_s", kMostCopyBytesPerSecond);
  c.tf32_flops_per_s = rate(json, "tf32_flops_per_s", kMostTf32FlopsPerSecond);
  c.fp32_flops_per_s = rate(json, "fp32_flops_per_s", kMostFp32FlopsPerSecond);
  c.measured_at = text(json, "measured_at");
  return c;
}

Ceilings load_ceilings(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open ceilings file");
  try {
    return ceilings_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

void save_ceilings(const Ceilings& ceilings, const std::filesystem::path& path) {
  // Refused before anything is written, as load_ceilings would refuse it (a rate of 0 or infinity
  // from samples that were all throttled made every later CUDA evaluation fail).
  const nlohmann::json json = to_json(ceilings);
  try {
    (void)ceilings_from_json(json);
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": not written: " + e.what());
  }
  io::write_file_whole(path, json.dump(2) + "\n");
}

double physical_floor_seconds(double flops, double bytes, const Ceilings& ceilings,
                              PrecisionClass precision) {
  const double rate = precision == PrecisionClass::tensor_core ? ceilings.tf32_flops_per_s
                                                               : ceilings.fp32_flops_per_s;
  const double compute = rate > 0 ? flops / rate : 0;
  const double memory = ceilings.copy_bytes_per_s > 0 ? bytes / ceilings.copy_bytes_per_s : 0;
  return std::max(compute, memory);
}

double physical_floor_seconds(const ResolvedProblem& problem, const Ceilings& ceilings) {
  double tensor_flops = 0, exact_flops = 0;
  for (const Node& node : problem.problem.graph) {
    const Op* op = find_op(node.op);
    if (!op) throw std::invalid_argument("physical floor: unknown op '" + node.op + "'");
    std::vector<Shape> inputs;
    for (const std::string& name : node.inputs) inputs.push_back(problem.tensor_shapes.at(name));
    const double flops = op->flops(inputs, problem.tensor_shapes.at(node.output), node.attrs);
    (op->precision_class() == PrecisionClass::tensor_core ? tensor_flops : exact_flops) += flops;
  }
  return std::max({physical_floor_seconds(tensor_flops, 0, ceilings, PrecisionClass::tensor_core),
                   physical_floor_seconds(exact_flops, 0, ceilings, PrecisionClass::exact),
                   physical_floor_seconds(0, problem.compulsory_bytes, ceilings,
                                          PrecisionClass::exact)});
}

}  // namespace kbv::cuda
