// ops/op.hpp — the interface every primitive op implements on the host: an fp64 reference, an
// fp32 host baseline (one eager op at a time, as PyTorch eager runs it), its cost and its
// documentation row.
//
// Ops are stateless singletons found by name through the registry (ops/registry.hpp). A problem
// spec's graph is a list of op applications; shape inference validates it at load time. Each op
// lives in its own folder daemon/ops/<name>/ (docs/adding-an-op.md).
#pragma once

#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "inputs/input_domain.hpp"
#include "tensor/dtype.hpp"
#include "tensor/shape.hpp"

namespace kbv {

// Scalar attributes of one op application (stride, padding, eps, axis…), by name.
using Attrs = std::map<std::string, double>;

// Thrown by infer_shape() and attribute checks; the spec loader adds file and field.
struct OpError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// How an op's arithmetic behaves in the baselines, which sets default tolerances:
// `exact`: fp32 elementwise/reduction arithmetic; `tensor_core`: matmul/conv, TF32-eligible;
// `index`: integer indices written as float32 values (argmax), which must match exactly.
enum class PrecisionClass { exact, tensor_core, index };

using inputs::InputDomain;

// Where an op's row sits in the op table (docs/problem-spec.md), in this order.
enum class OpCategory { unary, binary, axis, normalization, product, window, layout };

// One scalar attribute of an op and its default value.
struct OpAttribute {
  std::string_view name;
  double default_value;
};

// What the op table says about an op, besides its name and precision class.
struct OpDoc {
  OpCategory category = OpCategory::unary;
  std::string_view inputs;                  // "x, weight?, bias?": in order, optional ones with '?'
  std::span<const OpAttribute> attributes;  // in declaration order (attribute_defaults() sorts)
  std::string_view semantics;   // what it computes beyond the PyTorch form, e.g. "subtracts the max"
  std::string_view flops_rule;  // how flops() counts, in words
  std::string_view pytorch;     // the PyTorch call it matches, e.g. "torch.softmax(x, dim=axis)"
};

// Work an op must do: floating-point operations, and bytes it must move if run alone
// (each input read once, the output written once, at 4 bytes an element).
struct OpCost {
  double flops = 0;
  double bytes = 0;
};

// Read-only inputs and the output of one op application, in one element type.
template <class T>
struct OpArgs {
  std::vector<const T*> inputs;
  std::vector<Shape> input_shapes;
  T* output = nullptr;
  Shape output_shape;
  const Attrs* attrs = nullptr;

  double attr(const std::string& name, double fallback) const {
    auto it = attrs->find(name);
    return it == attrs->end() ? fallback : it->second;
  }
};

// What an op can know of one input of an application beyond its shape, at load time: its
// element type (an intermediate is float32) and, for an int64 problem input, the range its values
// are drawn from.
struct InputValues {
  DType dtype = DType::float32;
  IntegerRange range;  // int64 only
};

class Op {
 public:
  virtual ~Op() = default;
  virtual std::string_view name() const = 0;
  // Inclusive bounds on the number of inputs.
  virtual size_t min_inputs() const = 0;
  virtual size_t max_inputs() const = 0;
  // Attribute names this op accepts with their defaults; any other name is a spec error.
  virtual Attrs attribute_defaults() const = 0;
  virtual PrecisionClass precision_class() const = 0;
  // The values its inputs may take with these attributes (log's are nonnegative); a problem
  // input this op reads directly is drawn inside it (inputs/input_domain.hpp).
  virtual InputDomain input_domain(const Attrs&) const { return InputDomain::any; }
  // Output shape for these input shapes; throws OpError naming what is wrong.
  virtual Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const = 0;
  // Throws OpError (starting with the op's name) for an input whose element type or value range
  // the op cannot compute with. By default every input is a number: an int64 or bool input is
  // read widened to the op's floating type (exact: tensor/dtype.hpp), as PyTorch promotes
  // `x * mask`; an op that reads an input as indices (cross_entropy's targets) says so here.
  virtual void check_input_values(const std::vector<InputValues>& /*inputs*/, const std::vector<Shape>& /*shapes*/,
                                  const Attrs& /*attrs*/) const {}
  // fp64 reference (trusted ground truth) and fp32 host baseline.
  virtual void reference_f64(const OpArgs<double>& args) const = 0;
  virtual void baseline_f32(const OpArgs<float>& args) const = 0;
  // FLOPs of this application (multiply-add = 2). Bytes follow from shapes (see OpCost).
  virtual double flops(const std::vector<Shape>& inputs, const Shape& output,
                       const Attrs& attrs) const = 0;
  // Its row of the op table (ops/op_table.hpp).
  virtual OpDoc doc() const = 0;
};

}  // namespace kbv
