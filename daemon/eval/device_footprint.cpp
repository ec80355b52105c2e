// eval/device_footprint.cpp — the trusted side's device memory, summed from the resolved shapes.
#include "eval/device_footprint.hpp"

#include <cstdio>

#include "graph/error_scale_graph.hpp"
#include "graph/in_place.hpp"

namespace kbv::eval {
namespace {

double elements(const Shape& shape) { return static_cast<double>(numel(shape)); }

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

}  // namespace

DeviceFootprint trusted_device_footprint(const ResolvedProblem& problem) {
  double inputs = 0, input_bytes = 0, widened = 0, outputs = 0;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    const double count = elements(problem.input_shapes[i]);
    inputs += count;
    input_bytes += count * static_cast<double>(element_bytes(problem.input_dtype(i)));
    if (problem.input_dtype(i) != DType::float32) widened += count;  // the baselines' fp32 copy of an int64 or bool input
  }
  for (const Shape& shape : problem.output_shapes) outputs += elements(shape);
  // The baselines free each intermediate after its last reader; the fp64 reference also writes
  // elementwise ops over their last-read operand (graph/in_place.hpp).
  const double intermediates = peak_intermediates(problem, plan_separate_buffers(problem));
  DeviceFootprint footprint;
  footprint.arena_bytes = 2 * (input_bytes + outputs * sizeof(float));
  footprint.reference_bytes = (inputs + outputs + peak_intermediates(problem, plan_reference_buffers(problem))) * sizeof(double);
  footprint.baseline_bytes = (2 * (outputs + intermediates) + widened) * sizeof(float);
  if (const auto scale = error_scale_graph(problem)) {
    double scales = 0;
    for (const Shape& shape : scale->problem.output_shapes) scales += elements(shape);
    footprint.error_scale_bytes = (scales + peak_intermediates(scale->problem, plan_reference_buffers(scale->problem))) * sizeof(double);
  }
  return footprint;
}

std::optional<std::string> why_it_does_not_fit(const ResolvedProblem& problem, const DeviceFootprint& footprint, double free_bytes,
                                               const std::string& device) {
  if (footprint.total() <= free_bytes) return std::nullopt;
  const bool host = device == "host";
  return "problem " + problem.problem.name + " at shape set '" + problem.shape_set + "' needs about " + gigabytes(footprint.total()) +
         (host ? " of memory" : " of device memory") + " on the trusted side (arena of two slots " + gigabytes(footprint.arena_bytes) +
         ", fp64 reference " + gigabytes(footprint.reference_bytes) + ", baselines " + gigabytes(footprint.baseline_bytes) +
         ", products' error scale " + gigabytes(footprint.error_scale_bytes) + ", scratch reserve " + gigabytes(footprint.reserve_bytes) +
         ") and " + (host ? "the host has " + gigabytes(free_bytes) + " available" : "the device has " + gigabytes(free_bytes) + " free") +
         "; nothing was run (fix: " +
         (host ? std::string("evaluate it at a smaller shape set, --shapes small (the host's default), or on a GPU")
               : std::string("evaluate it on a GPU with more free memory, or at a smaller shape set with --shapes small")) +
         ")";
}

}  // namespace kbv::eval
