// daemon/core/calibration/problem_fingerprint.cpp — the canonical text of a resolved problem, hashed.
#include "calibration/problem_fingerprint.hpp"

#include <cstdio>

#include "verify/checksum.hpp"

namespace kbv::calibration {
namespace {

std::string shape_text(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

// %.17g round-trips every double, so equal attributes always print alike.
std::string number_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

std::string problem_fingerprint(const ResolvedProblem& problem) {
  std::string text = "kbv/problem-fingerprint/v1\n";
  for (size_t i = 0; i < problem.problem.inputs.size(); ++i) {
    text += "input " + problem.problem.inputs[i].name + " " + shape_text(problem.input_shapes.at(i));
    // int64 and bool inputs say so; float32 ones print as before, so their fingerprints stay.
    if (const DType dtype = problem.input_dtype(i); dtype != DType::float32) {
      text += " " + std::string(dtype_name(dtype));
      if (dtype == DType::int64)
        text += "[" + std::to_string(problem.input_ranges.at(i).low) + "," + std::to_string(problem.input_ranges.at(i).high) + ")";
    }
    text += "\n";
  }
  for (size_t o = 0; o < problem.problem.outputs.size(); ++o)
    text += "output " + problem.problem.outputs[o].name + " " + shape_text(problem.output_shapes.at(o)) + "\n";
  for (const Node& node : problem.problem.graph) {
    text += "node " + node.op + " (";
    for (size_t i = 0; i < node.inputs.size(); ++i) text += (i ? "," : "") + node.inputs[i];
    text += ") -> " + node.output;
    for (const auto& [name, value] : node.attrs) text += " " + name + "=" + number_text(value);  // std::map: sorted
    text += "\n";
  }
  return sha256_hex(text.data(), text.size());
}

}  // namespace kbv::calibration
