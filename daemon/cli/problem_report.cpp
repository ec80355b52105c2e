// cli/problem_report.cpp — describe one problem (JSON), then print that description as text.
#include "cli/problem_report.hpp"

#include <cstdio>

#include "cli/generated_code.hpp"
#include "cli/problem_lookup.hpp"
#include "eval/class_probe.hpp"
#include "eval/data_plane_factory.hpp"
#include "eval/device_footprint.hpp"
#include "graph/operand_rounding.hpp"
#include "inputs/family_classes.hpp"

namespace kbv::cli {

namespace {

nlohmann::json tensor_json(const TensorDecl& decl, bool with_role) {
  nlohmann::json out = {{"name", decl.name}, {"dims", decl.dims}};
  if (with_role) {
    out["role"] = decl.role == Role::parameter ? "parameter" : "activation";
    if (decl.scale_inv_sqrt_fan_in) out["scale"] = "inv_sqrt_fan_in";
    else out["scale"] = decl.scale;
    if (decl.domain == InputDomain::nonnegative) out["domain"] = "nonnegative";
    out["dtype"] = std::string(dtype_name(decl.dtype));
    if (decl.dtype == DType::int64) out["range"] = {{"low", decl.range_low}, {"high", decl.range_high}};
  }
  return out;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

nlohmann::json describe_problem(const Problem& problem) {
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array(), graph = nlohmann::json::array();
  nlohmann::json attributes = nlohmann::json::object();
  for (const auto& decl : problem.inputs) inputs.push_back(tensor_json(decl, true));
  for (const auto& decl : problem.outputs) outputs.push_back(tensor_json(decl, false));
  for (const Node& node : problem.graph) {
    graph.push_back({{"name", node.name}, {"op", node.op}, {"inputs", node.inputs}, {"output", node.output}, {"attrs", node.attrs}});
    for (const auto& [name, value] : node.attrs) attributes[node.name + "." + name] = value;
  }
  nlohmann::json shape_sets = nlohmann::json::object();
  for (const auto& [set_name, symbols] : problem.shape_sets) {
    const ResolvedProblem resolved = resolve_problem(problem, set_name);
    nlohmann::json input_shapes = nlohmann::json::object(), output_shapes = nlohmann::json::object();
    nlohmann::json input_ranges = nlohmann::json::object();
    for (size_t i = 0; i < resolved.input_shapes.size(); ++i) {
      input_shapes[problem.inputs[i].name] = resolved.input_shapes[i];
      if (problem.inputs[i].dtype == DType::int64)
        input_ranges[problem.inputs[i].name] = {resolved.input_ranges[i].low, resolved.input_ranges[i].high};
    }
    for (size_t o = 0; o < resolved.output_shapes.size(); ++o) output_shapes[problem.outputs[o].name] = resolved.output_shapes[o];
    shape_sets[set_name] = {{"symbols", symbols},
                            {"inputs", input_shapes},
                            {"input_ranges", input_ranges},
                            {"outputs", output_shapes},
                            {"flops", resolved.flops},
                            {"compulsory_bytes", resolved.compulsory_bytes}};
  }
  const std::string reference = kernelbench_ref(problem);
  const Tolerance& tolerance = problem.tolerance;
  nlohmann::json described = {{"name", problem.name},
          {"file", problem.file},
          {"description", problem.description},
          {"level", problem.level},
          {"source", problem.source == "kernelbench" ? "kernelbench" : "curated"},
          {"kernelbench_id", problem.kernelbench_id},
          {"kernelbench", reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(reference)},
          {"inputs", inputs},
          {"outputs", outputs},
          {"graph", graph},
          {"attributes", attributes},
          {"tolerance",
           {{"atol", tolerance.atol}, {"rtol", tolerance.rtol}, {"rel_l2", tolerance.rel_l2}, {"outlier_fraction", tolerance.outlier_fraction}}},
          {"shape_sets", shape_sets},
          {"precision_check", precision_check_json(problem)}};
  std::string not_probed;
  described["degenerate_classes"] = degenerate_classes_json(problem, &not_probed);
  if (!not_probed.empty()) described["degenerate_classes_not_probed"] = not_probed;
  if (!problem.gpu_only_reason.empty()) described["gpu_only"] = problem.gpu_only_reason;
  return described;
}

nlohmann::json precision_check_json(const Problem& problem) {
  // graph/operand_rounding.hpp: the inputs do not depend on the shape set; the default one always exists.
  std::string why_not;
  const auto rounded = bf16_operand_inputs(resolve_problem(problem, "default"), &why_not);
  if (!rounded) return {{"runs", false}, {"why_not", why_not}};
  nlohmann::json names = nlohmann::json::array();
  for (size_t i = 0; i < rounded->size(); ++i)
    if ((*rounded)[i]) names.push_back(problem.inputs[i].name);
  return {{"runs", true}, {"rounded_inputs", names}};
}

nlohmann::json degenerate_classes_json(const Problem& problem, std::string* why_not) {
  // eval/class_probe.hpp: host, small shapes, a fixed public key. A GPU-only problem has no
  // small set: null (not probed), never an empty list that would read "none degenerate".
  const auto not_probed = [&](const std::string& why) {
    if (why_not) *why_not = why;
    return nlohmann::json(nullptr);
  };
  if (!problem.gpu_only_reason.empty()) return not_probed("the probe runs on the host, at the small set this problem lacks");
  const ResolvedProblem small = resolve_problem(problem, "small");
  // The probe holds what an evaluation on the host would: a small set beyond the host's memory
  // is not probed (a 2^28-element one grew `kbv problems` past 9 GB; red-team).
  eval::DeviceFootprint footprint = eval::trusted_device_footprint(small);
  footprint.reserve_bytes = 0;
  if (const std::optional<double> free_bytes = eval::device_free_bytes("host", 0))
    if (const auto why = eval::why_it_does_not_fit(small, footprint, *free_bytes, "host")) return not_probed(*why);
  nlohmann::json degenerate = nlohmann::json::array();
  for (const eval::ClassProbe& probe : eval::probe_classes(small))
    if (probe.degenerate()) degenerate.push_back({{"class", std::string(inputs::class_name(probe.family_class))}, {"reason", probe.reason()}});
  return degenerate;
}

void print_problem(std::ostream& out, const nlohmann::json& described) {
  char line[512];
  out << described["name"].get<std::string>() << " — " << described["description"].get<std::string>() << "\n";
  out << "  file        " << described["file"].get<std::string>() << "\n";
  out << "  level       " << described["level"].get<int>();
  if (described["kernelbench"].is_string()) out << "  (KernelBench " << described["kernelbench"].get<std::string>() << ")";
  out << "\n\ninputs (in the order run() receives them)\n";
  for (const auto& input : described["inputs"]) {
    std::string scale = input["scale"].is_string() ? "scale 1/sqrt(fan_in)" : "scale " + number_text(input["scale"].get<double>());
    const std::string dtype = input.value("dtype", std::string("float32"));
    if (dtype == "int64")
      scale = "int64 in [" + input["range"]["low"].get<std::string>() + ", " + input["range"]["high"].get<std::string>() + ")";
    else if (dtype != "float32")
      scale = dtype;
    std::snprintf(line, sizeof line, "  %-12s %-28s %-10s %s\n", input["name"].get<std::string>().c_str(), dims_text(input["dims"].get<std::vector<std::string>>()).c_str(),
                  input["role"].get<std::string>().c_str(), scale.c_str());
    out << line;
  }
  out << "outputs\n";
  for (const auto& output : described["outputs"]) {
    std::snprintf(line, sizeof line, "  %-12s %s\n", output["name"].get<std::string>().c_str(), dims_text(output["dims"].get<std::vector<std::string>>()).c_str());
    out << line;
  }
  out << "graph\n";
  for (const auto& node : described["graph"]) {
    std::string arguments;
    for (const auto& input : node["inputs"]) arguments += (arguments.empty() ? "" : ", ") + input.get<std::string>();
    std::snprintf(line, sizeof line, "  %-12s %s(%s) -> %s\n", node["name"].get<std::string>().c_str(), node["op"].get<std::string>().c_str(),
                  arguments.c_str(), node["output"].get<std::string>().c_str());
    out << line;
  }
  out << "attributes (call.attribute(\"<node>.<name>\", fallback))\n";
  if (described["attributes"].empty()) out << "  none\n";
  for (const auto& [name, value] : described["attributes"].items()) {
    std::snprintf(line, sizeof line, "  %-24s %s\n", name.c_str(), number_text(value.get<double>()).c_str());
    out << line;
  }
  const auto& tolerance = described["tolerance"];
  out << "tolerance\n  atol " << number_text(tolerance["atol"].get<double>()) << " (x rms of the reference), rtol "
      << number_text(tolerance["rtol"].get<double>()) << ", rel_l2 " << number_text(tolerance["rel_l2"].get<double>()) << ", outlier_fraction "
      << number_text(tolerance["outlier_fraction"].get<double>()) << " (docs/problem-spec.md)\n";
  out << "degenerate classes (hidden families no epoch can test here: a trivial output passes them)\n";
  if (described["degenerate_classes"].is_null())
    out << "  not probed: " << described.value("degenerate_classes_not_probed", std::string("the probe did not run")) << "\n";
  else if (described["degenerate_classes"].empty()) out << "  none\n";
  for (const auto& entry : described["degenerate_classes"])
    out << "  " << entry["class"].get<std::string>() << ": " << entry["reason"].get<std::string>() << "\n";
  const auto& precision = described["precision_check"];
  out << "precision check (docs/problem-spec.md)\n  ";
  if (precision["runs"].get<bool>()) {
    out << "reference again with";
    for (const auto& name : precision["rounded_inputs"]) out << " " << name.get<std::string>();
    out << " rounded to bf16: an output twice as near it as the reference fails\n";
  } else {
    out << "not run: " << precision["why_not"].get<std::string>() << "\n";
  }
  if (described.contains("gpu_only")) out << "GPU only (no small set): " << described["gpu_only"].get<std::string>() << "\n";
  out << "shape sets (default: --device cuda; small: --device host)\n";
  for (const auto& [set_name, set] : described["shape_sets"].items()) {
    std::string symbols;
    for (const auto& [symbol, value] : set["symbols"].items()) symbols += (symbols.empty() ? "" : " ") + symbol + "=" + std::to_string(value.get<int64_t>());
    std::snprintf(line, sizeof line, "  %-12s %s\n", set_name.c_str(), symbols.c_str());
    out << line;
    for (const char* side : {"inputs", "outputs"})
      for (const auto& tensor : described[side]) {  // the spec's order, not the JSON object's
        const std::string name = tensor["name"].get<std::string>();
        std::snprintf(line, sizeof line, "  %-12s   %-8s %-12s %s\n", "", side[0] == 'i' ? "input" : "output", name.c_str(),
                      set[side][name].dump().c_str());
        out << line;
      }
    std::snprintf(line, sizeof line, "  %-12s   %.4g GFLOP, %.4g MB moved at least\n", "", set["flops"].get<double>() / 1e9,
                  set["compulsory_bytes"].get<double>() / 1e6);
    out << line;
  }
}

}  // namespace kbv::cli
