// ops/common/definition.hpp — an op's descriptor, its `Definition` struct, and DefinedOp, which
// implements the descriptive half of kbv::Op (name, input counts, attribute defaults, precision
// class, documentation row) from it.
//
// A Definition (ops/<name>/<name>.hpp) has these static constexpr members:
//   name        std::string_view, the op's name in problem specs (= its folder's name)
//   category    OpCategory, where its row sits in the op table
//   inputs      std::string_view, "x, weight?, bias?"; min_inputs, max_inputs (size_t)
//   attributes  std::array<Attribute, N>, each name with its default (PyTorch's where it has one)
//   precision   PrecisionClass
//   semantics, flops_rule, pytorch   std::string_view, the table's words (see OpDoc)
// and optionally
//   static InputDomain input_domain(const Attrs&)   the values its inputs may take (default any)
// Elementwise ops get most of these from UnaryDefinition or BinaryDefinition
// (ops/common/elementwise.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "ops/op.hpp"

namespace kbv::ops {

using Attribute = OpAttribute;

// The default of attribute `name` of Definition; a name it does not have fails to compile when
// used in a constant expression, and throws otherwise.
template <class Definition>
constexpr double default_of(std::string_view name) {
  for (const Attribute& attribute : Definition::attributes)
    if (attribute.name == name) return attribute.default_value;
  throw OpError(std::string(Definition::name) + ": no attribute named " + std::string(name));
}

template <class Definition>
Attrs attribute_defaults_of() {
  Attrs attrs;
  for (const Attribute& attribute : Definition::attributes)
    attrs.emplace(std::string(attribute.name), attribute.default_value);
  return attrs;
}

// Derived adds infer_shape(), flops() and a public `template <class T> void compute(const
// OpArgs<T>&) const`, the one implementation behind the fp64 reference and the fp32 baseline.
template <class Derived, class Definition>
class DefinedOp : public Op {
 public:
  std::string_view name() const final { return Definition::name; }
  size_t min_inputs() const final { return Definition::min_inputs; }
  size_t max_inputs() const final { return Definition::max_inputs; }
  Attrs attribute_defaults() const final { return attribute_defaults_of<Definition>(); }
  PrecisionClass precision_class() const final { return Definition::precision; }
  InputDomain input_domain(const Attrs& attrs) const final {
    if constexpr (requires { Definition::input_domain(attrs); })
      return Definition::input_domain(attrs);
    else
      return InputDomain::any;
  }
  OpDoc doc() const final {
    return {Definition::category,
            Definition::inputs,
            {Definition::attributes.data(), Definition::attributes.size()},
            Definition::semantics,
            Definition::flops_rule,
            Definition::pytorch};
  }
  void reference_f64(const OpArgs<double>& args) const final {
    static_cast<const Derived&>(*this).template compute<double>(args);
  }
  void baseline_f32(const OpArgs<float>& args) const final {
    static_cast<const Derived&>(*this).template compute<float>(args);
  }
};

}  // namespace kbv::ops
