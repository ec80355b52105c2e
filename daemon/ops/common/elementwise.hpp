// ops/common/elementwise.hpp — what an elementwise op's header builds on: the UnaryDefinition
// and BinaryDefinition bases, the attribute values its scalar function receives (Params), and
// reading them from an application's attributes. Compiled by g++ and nvcc alike.
//
// An elementwise op is one header, ops/<name>/<name>.hpp, whose Definition derives from one of
// the bases and has a scalar function serving all four faces (host fp64 reference, host fp32
// baseline, CUDA fp64 reference, CUDA fp32/TF32 baseline):
//   template <class T> KBV_HOST_DEVICE static T apply(T x, Params<T> p);            // unary
//   template <class T> KBV_HOST_DEVICE static T apply(T a, T b, Params<T> p);       // binary
// p[i] is attribute i of Definition::attributes. Optionally
//   static void check_attributes(const Params<double>& p);
// throws OpError for values the op refuses (beyond "finite", which every attribute must be, or
// "not NaN" when the Definition sets `static constexpr bool infinite_attributes = true`: clamp's
// open bounds are ±inf).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "ops/common/definition.hpp"
#include "ops/common/scalar_math.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

// Attribute values travel to the CUDA kernels by value, inside the kernel's functor.
constexpr size_t kMaxElementwiseAttributes = 4;

// Output rank a broadcasting CUDA kernel handles (after merging contiguous dims in the
// baseline); every KernelBench shape has rank ≤ 5.
constexpr int kMaxBroadcastRank = 8;

template <class T>
struct Params {
  T values[kMaxElementwiseAttributes];
  KBV_HOST_DEVICE T operator[](size_t i) const { return values[i]; }
};

struct ElementwiseDefinition {
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::array<Attribute, 0> attributes{};
  static constexpr std::string_view semantics = "";
  // The function itself (max, a multiply, erf, exp…) counts once, a lower bound whatever its
  // real instruction count.
  static constexpr std::string_view flops_rule = "1 per output element";
};

struct UnaryDefinition : ElementwiseDefinition {
  static constexpr OpCategory category = OpCategory::unary;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
};

struct BinaryDefinition : ElementwiseDefinition {
  static constexpr OpCategory category = OpCategory::binary;
  static constexpr std::string_view inputs = "a, b";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  static constexpr std::string_view semantics = "numpy broadcasting, right-aligned";
};

template <class Definition>
constexpr bool is_unary = std::is_base_of_v<UnaryDefinition, Definition>;
template <class Definition>
constexpr bool is_binary = std::is_base_of_v<BinaryDefinition, Definition>;

// An op folder without host.cpp is an elementwise op: its faces are generated from the header.
template <class Definition>
constexpr void require_elementwise() {
  static_assert(is_unary<Definition> || is_binary<Definition>,
                "an op folder without host.cpp must be an elementwise op: derive its Definition "
                "from UnaryDefinition or BinaryDefinition, or add host.cpp, reference.cu and "
                "baseline.cu (docs/adding-an-op.md)");
}

// The application's attribute values in Definition::attributes order (defaults where absent),
// validated: finite, then Definition::check_attributes if it has one. Throws OpError.
template <class Definition>
Params<double> read_params(const Attrs& attrs) {
  static_assert(Definition::attributes.size() <= kMaxElementwiseAttributes,
                "an elementwise op takes at most kMaxElementwiseAttributes attributes");
  Params<double> params{};
  size_t i = 0;  // a range-for: `i < size()` is a pointless comparison for an op without any
  for (const Attribute& attribute : Definition::attributes) {
    const std::string name(attribute.name);
    if constexpr (requires { requires Definition::infinite_attributes; })
      params.values[i++] = op_support::bound_attr(Definition::name, attrs, name, attribute.default_value);
    else
      params.values[i++] = op_support::real_attr(Definition::name, attrs, name, attribute.default_value);
  }
  if constexpr (requires { Definition::check_attributes(params); })
    Definition::check_attributes(params);
  return params;
}

template <class T>
Params<T> params_as(const Params<double>& params) {
  Params<T> converted{};
  for (size_t i = 0; i < kMaxElementwiseAttributes; ++i)
    converted.values[i] = static_cast<T>(params.values[i]);
  return converted;
}

}  // namespace kbv::ops
