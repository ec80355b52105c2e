// bench/calibrate/torch_entry.cpp — the request's problem description and the calibration entry.
#include "torch_entry.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <stdexcept>

#include "calibration/library_sources.hpp"
#include "calibration/problem_fingerprint.hpp"

namespace kbv::calibrate {
namespace {

// A YAML node as JSON: integers stay integers, other numbers are doubles, true/false are
// booleans, everything else is text.
nlohmann::json yaml_to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : node) out[item.first.as<std::string>()] = yaml_to_json(item.second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(yaml_to_json(item));
    return out;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string text = node.Scalar();
  long long integer = 0;
  double number = 0;
  bool flag = false;
  if (YAML::convert<long long>::decode(node, integer)) return integer;
  if (YAML::convert<double>::decode(node, number)) return number;
  if (YAML::convert<bool>::decode(node, flag)) return flag;
  return text;
}

}  // namespace

nlohmann::json problem_description(const ResolvedProblem& resolved) {
  const Problem& problem = resolved.problem;
  nlohmann::json source = "kbv", kernelbench = nullptr;
  if (!problem.file.empty()) {
    const YAML::Node yaml = YAML::LoadFile(problem.file);
    if (yaml["source"]) source = yaml_to_json(yaml["source"]);
    if (yaml["kernelbench"]) kernelbench = yaml_to_json(yaml["kernelbench"]);
  }
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array(), graph = nlohmann::json::array();
  for (size_t i = 0; i < problem.inputs.size(); ++i) {
    nlohmann::json input = {{"name", problem.inputs[i].name},
                            {"shape", resolved.input_shapes.at(i)},
                            {"scale", resolved.input_scale(i)},
                            {"dtype", std::string(dtype_name(problem.inputs[i].dtype))},
                            {"role", problem.inputs[i].role == Role::parameter ? "parameter" : "activation"},
                            {"torch_name", problem.inputs[i].torch_name}};
    if (problem.inputs[i].dtype == DType::int64) input["range"] = {resolved.input_ranges[i].low, resolved.input_ranges[i].high};
    inputs.push_back(std::move(input));
  }
  for (size_t o = 0; o < problem.outputs.size(); ++o) outputs.push_back({{"name", problem.outputs[o].name}, {"shape", resolved.output_shapes.at(o)}});
  for (const Node& node : problem.graph)
    graph.push_back({{"name", node.name}, {"op", node.op}, {"inputs", node.inputs}, {"output", node.output}, {"attrs", node.attrs}});
  return {{"name", problem.name}, {"file", problem.file}, {"source", source}, {"kernelbench", kernelbench},
          {"inputs", inputs},     {"outputs", outputs},   {"graph", graph}};
}

double library_drift(const LibraryMeasurement& library) {
  const double mean = (library.before_s + library.after_s) / 2;
  return mean > 0 ? std::abs(library.after_s - library.before_s) / mean : 0;
}

calibration::CalibrationEntry make_entry(const ResolvedProblem& problem, const std::map<std::string, LibraryMeasurement>& library,
                                         const nlohmann::json& reply, const std::string& measured_at, double max_duty) {
  calibration::CalibrationEntry entry;
  entry.problem = problem.problem.name;
  entry.shape_set = problem.shape_set;
  entry.spec_sha256 = calibration::problem_fingerprint(problem);
  entry.library_sources_sha256 = calibration::library_sources_sha256(problem.problem);
  entry.measured_at = measured_at;
  entry.max_duty = max_duty;  // 1 too: an unpaced run said so, not "before kbv paced" (review)
  nlohmann::json library_evidence = nlohmann::json::object();
  for (const auto& [mode, measured] : library) {
    if (measured.before_s <= 0 || measured.after_s <= 0) throw std::invalid_argument("library " + mode + " baseline has no median");
    entry.library[mode] = {(measured.before_s + measured.after_s) / 2, measured.describe};
    library_evidence[mode] = {{"before", measured.before}, {"after", measured.after}, {"drift", library_drift(measured)}};
  }
  entry.evidence = {{"library", library_evidence}};
  const std::string type = reply.value("type", "");
  if (type == "skipped" || type == "error") {
    entry.forward = "none";
    const std::string why = reply.value(type == "skipped" ? "reason" : "error", std::string("no reason given"));
    for (const auto& baseline : calibration::torch_baselines()) entry.errors[std::string(baseline.name)] = why;
    return entry;
  }
  if (type != "measured") throw std::invalid_argument("PyTorch's side answered a message of type '" + type + "'");
  entry.forward = reply.value("forward", "unknown");
  const nlohmann::json& results = reply.at("results");
  for (const auto& baseline : calibration::torch_baselines()) {
    const std::string name(baseline.name), mode(baseline.library_mode);
    if (!results.contains(name)) {
      entry.errors[name] = "not asked for in this run";
      continue;
    }
    const nlohmann::json& figures = results[name];
    if (figures.contains("error")) {
      entry.errors[name] = figures["error"].get<std::string>();
    } else if (!figures.contains("median_s") || !figures["median_s"].is_number() || figures["median_s"].get<double>() <= 0) {
      entry.errors[name] = "no sample kept (every one throttled, or the wall cap came first)";
    } else if (!entry.library.count(mode)) {
      entry.errors[name] = "the library " + mode + " baseline was not timed";
    } else {
      entry.ratios[name] = figures["median_s"].get<double>() / entry.library.at(mode).median_s;
    }
  }
  entry.evidence["torch"] = results;
  for (const char* key : {"compile_s", "timer", "gate_overruns"})
    if (reply.contains(key)) entry.evidence[key] = reply[key];
  return entry;
}

std::optional<std::string> reason_not_to_calibrate(const Problem& problem, const std::optional<std::filesystem::path>& kernelbench_dir) {
  if (problem.source != "kernelbench" || kernelbench_dir) return std::nullopt;
  return "imported from KernelBench, whose Model file is its PyTorch forward (fix: pass --kernelbench DIR, a KernelBench checkout's "
         "KernelBench/ folder holding level1/ … level3/)";
}

}  // namespace kbv::calibrate
