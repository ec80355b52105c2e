// spec/problem.hpp — a problem as its YAML file declares it, and resolved at one shape set.
//
// Schema (problems/*.yaml; docs/problem-spec.md documents every field):
//   name, level, kernelbench_id, description, source?: kbv|kernelbench,
//   kernelbench?: {level, id, file, globals?: {shape set: {global: int | [ints]}}},
//   deterministic?: bool, nondeterministic_reason (required when deterministic is false),
//   inputs:  [{name, shape: [dims], dtype?: float32|int64|bool, range?: {low, high} (int64 only),
//              role: activation|parameter, scale?: number|inv_sqrt_fan_in (float32 only), torch_name?}]
//   outputs: [{name, shape: [dims]}]
//   graph:   [{name, op, inputs: [tensor names], output, attrs?: {name: number}}]
//   tolerance?: {atol, rtol, rel_l2}   (defaults from the ops' precision classes)
//   shapes:  {default: {symbol: int}, small: {symbol: int}, ...}
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/op.hpp"
#include "tensor/dtype.hpp"
#include "tensor/shape.hpp"

namespace kbv {

// A problem spec that cannot be used. what() names the file, the field and the fix.
class SpecError : public std::runtime_error {
 public:
  SpecError(const std::string& file, const std::string& field, const std::string& problem,
            const std::string& fix);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_, field_;
};

enum class Role { activation, parameter };

struct TensorDecl {
  std::string name;
  std::vector<std::string> dims;  // each an integer literal or a shape-set symbol
  // Inputs only: the element type the candidate receives (outputs are always float32).
  DType dtype = DType::float32;
  // int64 inputs only: the values are drawn from [range_low, range_high), each bound an integer
  // literal or a shape-set symbol (so one spec serves every shape set: a class count that grows
  // with the shapes is the symbol of the logits' class axis).
  std::string range_low, range_high;
  Role role = Role::activation;
  // Multiplier on every generated value: a number, or 0 meaning 1/sqrt(fan_in) where
  // fan_in = numel / shape[0] (PyTorch's default init bound for weights).
  double scale = 1.0;
  bool scale_inv_sqrt_fan_in = false;
  // The PyTorch name it stands for: a forward() argument for an activation, a state_dict key
  // for a parameter. Empty when the problem has no PyTorch model behind it.
  std::string torch_name;
  // Not written in the YAML: nonnegative when a graph node reading this input directly declares
  // it (Op::input_domain: log, sqrt, …); the families then draw |v| (inputs/input_domain.hpp).
  InputDomain domain = InputDomain::any;
};

// The KernelBench problem a spec reproduces: KernelBench/level<level>/<file>, whose module-level
// size globals take the values in `globals[shape set]` to give that shape set (none: the
// file's own sizes, which are `default`).
struct KernelBenchRef {
  int level = 0;
  int id = 0;
  std::string file;
  std::map<std::string, std::map<std::string, std::vector<int64_t>>> globals;
};

struct Node {
  std::string name;  // attributes reach candidates as "<name>.<attribute>"
  std::string op;
  std::vector<std::string> inputs;
  std::string output;
  Attrs attrs;  // complete: op defaults merged in at load time
};

// An element passes when |out - ref| <= atol * rms(ref) + rtol * |ref|; the whole output
// passes when that holds everywhere, no value is NaN/Inf where ref is finite, and
// ||out - ref||_2 / ||ref||_2 <= rel_l2. atol is relative to the reference's RMS (the larger of
// the output's and the element's row's, verify/compare.hpp kMinLocalRmsRow) so one tolerance
// serves the ×0.01 and ×1e4 families alike.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
  double rel_l2 = 0;
  // Share of an output's elements that may miss the elementwise bound (never by more than
  // kOutlierBoundFactor times it, never NaN/Inf) while rel_l2 still holds: TF32 rounding on
  // heavy-tailed inputs puts ~1 element in 10⁹ just past any fixed elementwise bound
  // (docs/problem-spec.md). 0 for exact ops.
  double outlier_fraction = 0;
};

struct Problem {
  std::string name;
  std::string file;  // where it was loaded from (for messages)
  int level = 0;
  int kernelbench_id = 0;
  std::string description;
  std::string source = "kbv";  // kbv (written for kbv) or kernelbench (scripts/kernelbench imported it)
  std::optional<KernelBenchRef> kernelbench;
  // False when the forward is random (live dropout, randn): outputs cannot be judged exactly.
  bool deterministic = true;
  std::string nondeterministic_reason;
  // Non-empty for a problem with no `small` shape set (a whole KernelBench model whose weights
  // alone exceed what the host evaluates in seconds): why, in a sentence. It is evaluated on the
  // GPU at its default sizes only; the host device refuses it with this reason.
  std::string gpu_only_reason;
  std::vector<TensorDecl> inputs;
  std::vector<TensorDecl> outputs;
  std::vector<Node> graph;
  Tolerance tolerance;
  std::map<std::string, std::map<std::string, int64_t>> shape_sets;
};

// A problem at one shape set: every tensor's concrete shape, and the work it implies.
struct ResolvedProblem {
  Problem problem;
  std::string shape_set;
  std::vector<Shape> input_shapes;
  std::vector<Shape> output_shapes;
  std::map<std::string, Shape> tensor_shapes;  // inputs, intermediates and outputs
  // Per input: the range its values are drawn from at this shape set (int64 inputs; {0, 0} for
  // the others).
  std::vector<IntegerRange> input_ranges;
  double flops = 0;                            // sum over graph nodes
  // Inputs read once at their element size + outputs written once (fp32).
  double compulsory_bytes = 0;
  DType input_dtype(size_t input_index) const { return problem.inputs.at(input_index).dtype; }
  double input_scale(size_t input_index) const;
};

// Parse and validate one YAML file (throws SpecError).
Problem load_problem_file(const std::filesystem::path& path);

// Resolve shapes for `shape_set`, validating the graph with every op's shape inference
// (throws SpecError).
ResolvedProblem resolve_problem(const Problem& problem, const std::string& shape_set);

}  // namespace kbv
