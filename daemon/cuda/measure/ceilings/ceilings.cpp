// ceilings/ceilings.cpp — ceilings JSON and physical floors.
#include "measure/ceilings/ceilings.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

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

double positive(const nlohmann::json& json, const char* field) {
  if (!json.contains(field) || !json[field].is_number() || json[field].get<double>() <= 0)
    throw std::invalid_argument(std::string("ceilings: field '") + field +
                                "' must be a positive number (rerun kbv-calibrate)");
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
  c.copy_bytes_per_s = positive(json, "copy_bytes_per_s");
  c.tf32_flops_per_s = positive(json, "tf32_flops_per_s");
  c.fp32_flops_per_s = positive(json, "fp32_flops_per_s");
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
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path.string() + ": cannot write ceilings file");
  out << to_json(ceilings).dump(2) << "\n";
  if (!out) throw std::runtime_error(path.string() + ": write failed");
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
