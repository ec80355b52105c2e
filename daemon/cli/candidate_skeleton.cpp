// cli/candidate_skeleton.cpp — write the example candidate's source for a problem and a device.
#include "cli/candidate_skeleton.hpp"

#include <cmath>
#include <set>

#include "cli/generated_code.hpp"

namespace kbv::cli {

namespace {

// Names the skeleton's own code uses, which no tensor or attribute variable may take.
const std::set<std::string> kSkeletonNames = {"call", "stream", "name", "out", "data", "blocks", "error", "kThreads",
                                              "kMaxBlocks", "fill_zero", "kbv_candidate_run", "kbv", "std"};

// A C++ variable for `name`, unique among `used` (which it joins).
std::string variable(const std::string& name, std::set<std::string>& used) {
  std::string candidate = cpp_identifier(name);
  while (used.count(candidate)) candidate += '_';
  used.insert(candidate);
  return candidate;
}

// "[batch, dim] = [16, 4096]", or the concrete shape alone when the dims are all numbers.
std::string shape_comment(const TensorDecl& decl, const Shape& shape) {
  const std::string symbolic = dims_text(decl.dims), concrete = to_string(shape);
  return symbolic == concrete ? concrete : symbolic + " = " + concrete;
}

// A C++ string literal for a spec name (quotes and backslashes escaped).
std::string cpp_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// An attribute's value as a C++ double expression (±inf through <limits>).
std::string cpp_number(double value) {
  if (std::isinf(value)) return value > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
  return shortest_decimal(value);
}

bool any_infinite_attribute(const Problem& problem) {
  for (const Node& node : problem.graph)
    for (const auto& entry : node.attrs)
      if (std::isinf(entry.second)) return true;
  return false;
}

// The part of run() shared by both devices: the inputs, the attributes, and the dims note.
std::string inputs_and_attributes(const ResolvedProblem& resolved, CandidateDevice device, std::set<std::string>& used) {
  const Problem& problem = resolved.problem;
  std::string text = device == CandidateDevice::cuda
                         ? "  // Inputs, in the problem's order: read-only float32 device pointers, contiguous row-major.\n"
                         : "  // Inputs, in the problem's order: read-only float32, contiguous row-major.\n";
  for (size_t i = 0; i < problem.inputs.size(); ++i) {
    const TensorDecl& input = problem.inputs[i];
    text += "  [[maybe_unused]] const float* " + variable(input.name, used) + " = call.input(" + cpp_string(input.name) +
            ").data<float>();  // " + shape_comment(input, resolved.input_shapes[i]) + "\n";
  }
  const TensorDecl& first = problem.inputs.front();
  if (!first.dims.empty())
    text += "  // Dims come from the tensors: call.input(" + cpp_string(first.name) + ").dim(0) is " + first.dims.front() + " (" +
            std::to_string(resolved.input_shapes.front().front()) + " here), .numel() the element count.\n";
  bool any_attribute = false;
  for (const Node& node : problem.graph) any_attribute |= !node.attrs.empty();
  if (any_attribute) {
    text += "  // Attributes, fixed by the problem: call.attribute(\"<node>.<attribute>\", fallback).\n";
    for (const Node& node : problem.graph)
      for (const auto& [name, value] : node.attrs) {
        const std::string full = node.name + "." + name;
        text += "  [[maybe_unused]] const double " + variable(node.name + "_" + name, used) + " = call.attribute(" + cpp_string(full) + ", " +
                cpp_number(value) + ");\n";
      }
  }
  return text;
}

std::string limits_include(const Problem& problem) { return any_infinite_attribute(problem) ? "#include <limits>\n" : ""; }

std::string output_list(const Problem& problem) {
  std::string names;
  for (const TensorDecl& output : problem.outputs) names += (names.empty() ? "" : ", ") + cpp_string(output.name);
  return names;
}

std::string output_comments(const ResolvedProblem& resolved) {
  std::string text;
  for (size_t o = 0; o < resolved.problem.outputs.size(); ++o)
    text += "  //   " + resolved.problem.outputs[o].name + " " + shape_comment(resolved.problem.outputs[o], resolved.output_shapes[o]) + "\n";
  return text;
}

std::string host_source(const ResolvedProblem& resolved, const CandidateSkeleton& names) {
  std::set<std::string> used = kSkeletonNames;
  return "// " + names.file_name + " — a kbv candidate for problem " + resolved.problem.name +
         " on the host device: the skeleton `kbv prompt` printed.\n"
         "// It compiles, loads and runs, and writes 0 to every output element: replace that with the computation.\n"
         "#include <kbv/plugin.hpp>\n"
         "\n"
         "#include <algorithm>\n"
         "#include <cstdint>\n" + limits_include(resolved.problem) +
         "\n"
         "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, " + cpp_string(names.candidate_name) + ")\n"
         "kbv_status kbv_candidate_run(kbv::Call& call) {\n" +
         inputs_and_attributes(resolved, CandidateDevice::host, used) +
         "  // Outputs: write every element on every call, before returning.\n" + output_comments(resolved) +
         "  for (const char* name : {" + output_list(resolved.problem) + "}) {\n"
         "    const kbv::Tensor out = call.output(name);\n"
         "    float* data = out.data<float>();\n"
         "    std::fill(data, data + out.numel(), 0.0f);  // placeholder: the computation goes here\n"
         "  }\n"
         "  return KBV_STATUS_OK;\n"
         "}\n";
}

std::string cuda_source(const ResolvedProblem& resolved, const CandidateSkeleton& names) {
  std::set<std::string> used = kSkeletonNames;
  return "// " + names.file_name + " — a kbv candidate for problem " + resolved.problem.name +
         " on the cuda device: the skeleton `kbv prompt` printed.\n"
         "// It compiles, loads and runs, and writes 0 to every output element: replace fill_zero with the computation.\n"
         "#include <kbv/plugin.hpp>\n"
         "\n"
         "#include <cuda_runtime.h>\n"
         "\n"
         "#include <algorithm>\n"
         "#include <cstdint>\n" + limits_include(resolved.problem) +
         "#include <string>\n"
         "\n"
         "namespace {\n"
         "\n"
         "constexpr int kThreads = 256;\n"
         "constexpr int64_t kMaxBlocks = 132 * 8;  // a grid-stride loop: 8 blocks per SM of an H100/H200 (132 SMs)\n"
         "\n"
         "// Placeholder: writes 0 to out[0, n). Each thread takes every (gridDim.x * blockDim.x)-th element.\n"
         "__global__ void fill_zero(float* out, int64_t n) {\n"
         "  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<int64_t>(gridDim.x) * blockDim.x)\n"
         "    out[i] = 0.0f;\n"
         "}\n"
         "\n"
         "}  // namespace\n"
         "\n"
         "KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, " + cpp_string(names.candidate_name) + ")\n"
         "kbv_status kbv_candidate_run(kbv::Call& call) {\n" +
         inputs_and_attributes(resolved, CandidateDevice::cuda, used) +
         "  // All device work goes on the call's stream; return without waiting for it.\n"
         "  const cudaStream_t stream = static_cast<cudaStream_t>(call.stream());\n"
         "  // Outputs: write every element on every call.\n" + output_comments(resolved) +
         "  for (const char* name : {" + output_list(resolved.problem) + "}) {\n"
         "    const kbv::Tensor out = call.output(name);\n"
         "    const int blocks = static_cast<int>(std::min<int64_t>((out.numel() + kThreads - 1) / kThreads, kMaxBlocks));\n"
         "    fill_zero<<<blocks, kThreads, 0, stream>>>(out.data<float>(), out.numel());\n"
         "  }\n"
         "  if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess) {\n"
         "    kbv::set_error(std::string(\"fill_zero launch: \") + cudaGetErrorString(error));\n"
         "    return KBV_STATUS_DEVICE_ERROR;\n"
         "  }\n"
         "  return KBV_STATUS_OK;\n"
         "}\n";
}

}  // namespace

CandidateSkeleton candidate_skeleton(const ResolvedProblem& problem, CandidateDevice device) {
  CandidateSkeleton skeleton;
  skeleton.candidate_name = cpp_identifier("my_" + problem.problem.name);
  skeleton.file_name = skeleton.candidate_name + source_extension(device);
  skeleton.source = device == CandidateDevice::cuda ? cuda_source(problem, skeleton) : host_source(problem, skeleton);
  return skeleton;
}

}  // namespace kbv::cli
