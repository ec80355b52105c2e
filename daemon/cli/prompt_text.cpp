// cli/prompt_text.cpp — assemble `kbv prompt`'s sections, in the order an author needs them.
#include "cli/prompt_text.hpp"

#include <cstdio>
#include <set>

#include "cli/candidate_skeleton.hpp"
#include "cli/generated_code.hpp"
#include "cli/problem_lookup.hpp"
#include "cli/prompt_rules.hpp"
#include "cli/pytorch_forward.hpp"
#include "ops/registry.hpp"

namespace kbv::cli {

namespace {

std::string shape_text(const TensorDecl& decl, const Shape& shape) {
  const std::string symbolic = dims_text(decl.dims), concrete = to_string(shape);
  return symbolic == concrete ? concrete : concrete + " " + symbolic;
}

// Three significant digits: a scale, 0.118.
std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string task(const Problem& problem, CandidateDevice device) {
  const bool cuda = device == CandidateDevice::cuda;
  return std::string("# Write a kbv candidate for `") + problem.name + "` (" + device_name(device) + " device)\n\n" +
         "kbv evaluates kernels written by language models. Write one " + (cuda ? "CUDA C++ (`.cu`)" : "C++ (`.cpp`)") +
         " source file that computes the problem below" + (cuda ? " on an NVIDIA GPU (an H200, sm_90)" : " on the CPU") +
         ": kbv compiles it into a plugin (`.so`), loads it into a sandboxed worker, checks its outputs against an fp64 reference "
         "on public and hidden inputs, and times it against library baselines" +
         (cuda ? " (cuBLAS, cuDNN or kbv's kernels, TF32 allowed)" : "") +
         ". The goal is a correct candidate that is as fast as it can be. Reply with the whole source file.\n";
}

std::string origin(const Problem& problem) {
  if (problem.kernelbench) {
    const KernelBenchRef& ref = *problem.kernelbench;
    const std::string where = "KernelBench level " + std::to_string(ref.level) + " problem " + std::to_string(ref.id) + " (`KernelBench/level" +
                              std::to_string(ref.level) + "/" + ref.file + "`, " + kernelbench_ref(problem) + ")";
    if (problem.source == "kernelbench")
      return "This is " + where + ", imported by kbv's importer: the forward below is that model's graph as kbv computes it, with "
             "every parameter passed in as an input.\n";
    return "This is " + where + ", written for kbv by hand: same graph and default shapes.\n";
  }
  if (problem.kernelbench_id > 0)
    return "It is modelled on KernelBench level " + std::to_string(problem.level) + " problem " + std::to_string(problem.kernelbench_id) +
           " but is not that problem (other graph or sizes).\n";
  return "It was written for kbv (level " + std::to_string(problem.level) + ").\n";
}

std::string problem_section(const ResolvedProblem& resolved) {
  const Problem& problem = resolved.problem;
  std::string text = "\n## The problem\n\n`" + problem.name + "`" + (problem.description.empty() ? "" : ": " + problem.description) + "\n\n" +
                     origin(problem);
  if (!problem.deterministic) text += "\nIts forward is random (" + problem.nondeterministic_reason + ").\n";
  text += "\n```python\n" + pytorch_forward(problem) + "```\n\n";
  text += "kbv's fp64 reference computes this forward from the same float32 inputs; your outputs are compared with it.\n";
  // What each op does beyond its PyTorch call, once per op.
  std::set<std::string> seen;
  std::string notes;
  for (const Node& node : problem.graph) {
    const Op* op = find_op(node.op);
    if (!op || !seen.insert(node.op).second || op->doc().semantics.empty()) continue;
    notes += "- `" + node.op + "`: " + std::string(op->doc().semantics) + "\n";
  }
  if (!notes.empty()) text += "\nThe ops, beyond their PyTorch calls:\n\n" + notes;
  return text;
}

std::string tensors_section(const ResolvedProblem& resolved, CandidateDevice device) {
  const Problem& problem = resolved.problem;
  std::string other_sets;
  for (const auto& [name, symbols] : problem.shape_sets) {
    if (name == resolved.shape_set) continue;
    std::string values;
    for (const auto& [symbol, value] : symbols) values += (values.empty() ? "" : " ") + symbol + "=" + std::to_string(value);
    other_sets += (other_sets.empty() ? "" : "; ") + ("`" + name + "` (" + values + ")");
  }
  std::string text = "\n## Inputs and outputs\n\nEvery tensor is float32, dense and contiguous row-major, " +
                     std::string(device == CandidateDevice::cuda ? "in GPU memory (device pointers)" : "in host memory") +
                     ". run() receives the inputs in this order. The shapes are the `" + resolved.shape_set + "` shape set, the one `kbv eval --device " +
                     device_name(device) + "` uses" + (other_sets.empty() ? "" : "; the problem also has " + other_sets) +
                     ". Read the dims from the tensors rather than fixing them in the code.\n\n"
                     "| | name | role | shape | values |\n|---|---|---|---|---|\n";
  for (size_t i = 0; i < problem.inputs.size(); ++i) {
    const TensorDecl& input = problem.inputs[i];
    std::string role = input.role == Role::parameter ? "parameter" : "activation";
    if (!input.torch_name.empty() && input.torch_name != input.name) role += " (PyTorch `" + input.torch_name + "`)";
    std::string values = "input family × " + short_number(resolved.input_scale(i));
    if (input.scale_inv_sqrt_fan_in) values += " (1/sqrt(fan_in))";
    text += "| input " + std::to_string(i) + " | `" + input.name + "` | " + role + " | " + shape_text(input, resolved.input_shapes[i]) + " | " + values + " |\n";
  }
  for (size_t o = 0; o < problem.outputs.size(); ++o)
    text += "| output " + std::to_string(o) + " | `" + problem.outputs[o].name + "` | output | " + shape_text(problem.outputs[o], resolved.output_shapes[o]) + " | |\n";
  text += "\nA parameter is an input like any other: each call brings it, with new values.\n";
  return text;
}

std::string attributes_section(const Problem& problem) {
  std::string rows;
  for (const Node& node : problem.graph)
    for (const auto& [name, value] : node.attrs) rows += "| `" + node.name + "." + name + "` | " + shortest_decimal(value) + " |\n";
  if (rows.empty()) return "\n## Attributes\n\nNone.\n";
  return "\n## Attributes\n\nFixed by the problem (they are the values in the forward above); read them with "
         "`call.attribute(\"<node>.<attribute>\", fallback)` or write them into the code.\n\n| name | value |\n|---|---|\n" + rows;
}

std::string tolerance_section(const Problem& problem) {
  const Tolerance& t = problem.tolerance;
  std::string text = "\n## Tolerance\n\nEach output passes when every element has |out − ref| ≤ " + shortest_decimal(t.atol) + "·rms(ref) + " +
                     shortest_decimal(t.rtol) + "·|ref|, the whole output has ‖out − ref‖₂ / ‖ref‖₂ ≤ " + shortest_decimal(t.rel_l2) +
                     ", and no element is NaN or Inf where the reference is finite";
  if (t.outlier_fraction > 0)
    text += "; a share of at most " + shortest_decimal(t.outlier_fraction) + " of the elements may miss the elementwise bound by up to 10×";
  return text + ". ref is kbv's fp64 reference.\n";
}

std::string abi_section(CandidateDevice device, const CandidateSkeleton& skeleton) {
  const bool cuda = device == CandidateDevice::cuda;
  std::string text =
      "\n## The plugin ABI\n\n"
      "Include `<kbv/plugin.hpp>` and write one function with `KBV_CANDIDATE(KBV_PROBLEM, " + std::string(device_constant(device)) +
      ", \"name\")` followed by `kbv_status kbv_candidate_run(kbv::Call& call)`. KBV_PROBLEM is the problem name the build "
      "compiles in.\n\n"
      "- `call.input(\"name\")`, `call.output(\"name\")` (or by index, in the order above) give a `kbv::Tensor`: `.data<float>()`, "
      "`.rank()`, `.dim(i)`, `.numel()`. A wrong name throws, listing the right ones.\n"
      "- `call.attribute(\"node.attribute\", fallback)` gives an attribute as a double.\n" +
      (cuda ? std::string("- `call.stream()` is the `cudaStream_t` to enqueue all work on (cast it).\n") : std::string()) +
      "- Return `KBV_STATUS_OK`; to refuse, call `kbv::set_error(\"why\")` and return another `kbv_status` "
      "(`KBV_STATUS_INVALID_ARGUMENT`, `KBV_STATUS_UNSUPPORTED`, `KBV_STATUS_DEVICE_ERROR`, `KBV_STATUS_INTERNAL`), or throw "
      "`kbv::Error(status, \"why\")`. `kbv::log(level, \"text\")` prints a line that `kbv eval --verbose` shows.\n"
      "- State kept from load to exit (" + (cuda ? "a cuBLAS handle, a workspace" : "a workspace") +
      "): one class instead, `KBV_CANDIDATE_CLASS(KBV_PROBLEM, " + device_constant(device) +
      ", \"name\", MyClass)`. Its default constructor runs once at load (throw kbv::Error to fail), its destructor at exit, and "
      "its `kbv_status run(kbv::Call& call)` on every call.\n\n"
      "A complete example for this problem" + (cuda ? "" : " on the host device") + ", with its inputs, outputs and attributes; it builds, loads and runs, but writes 0 to the outputs where "
      "the computation goes:\n\n```" + (cuda ? "cuda" : "cpp") + "\n" + skeleton.source + "```\n";
  return text;
}

std::string build_section(const Problem& problem, CandidateDevice device, const CandidateSkeleton& skeleton) {
  const bool cuda = device == CandidateDevice::cuda;
  const std::string library = "lib" + skeleton.candidate_name + ".so";
  return "\n## Build and evaluate\n\n```sh\n"
         "kbv build " + skeleton.file_name + " --problem " + problem.name + (cuda ? "   # nvcc -std=c++20 -O3 -arch=sm_90; -l cublas links a library" : "   # g++ -std=c++20 -O3") +
         "\nkbv eval " + library + " --device " + device_name(device) + "   # the verdict; --verbose adds your output, --json the whole result\n```\n\n"
         "`kbv build --verbose` prints the compiler's command line; a compile error is the compiler's own message.\n";
}

std::string rules_section(const ResolvedProblem& resolved, CandidateDevice device) {
  std::string text = "\n## What kbv checks\n\nEach rule below is checked on every evaluation; the verdict or flag that breaking it brings is in "
                     "backquotes.\n\n";
  for (const std::string& rule : prompt_rules(resolved, device)) text += "- " + rule + "\n";
  return text;
}

}  // namespace

std::string prompt_text(const Problem& problem, CandidateDevice device, const std::string& shape_set) {
  const ResolvedProblem resolved = resolve_problem(problem, shape_set);
  const CandidateSkeleton skeleton = candidate_skeleton(resolved, device);
  return task(problem, device) + problem_section(resolved) + tensors_section(resolved, device) + attributes_section(problem) +
         tolerance_section(problem) + abi_section(device, skeleton) + build_section(problem, device, skeleton) +
         rules_section(resolved, device);
}

}  // namespace kbv::cli
