// inputs/family_classes.hpp — the classes of hidden families: what each kind of input tests.
//
// Every epoch gates on one family of every class that is not degenerate for the problem
// (epoch_plan.hpp, stratified_walk.hpp): a kernel that is wrong on one kind of input cannot
// pass an epoch because the key happened not to draw that kind. Within a class the key picks
// the family, its parameters and seeds, so epochs still differ. Each class is built so that
// every family in it catches the bugs it is there for (docs/threat-model.md, "Input families"):
//
//   sign       negated, normal, sparse          signs and zeros unlike U[0,1)'s: an elementwise op
//                                               that assumes x ≥ 0 (ReLU as a copy)
//   shape      shifted, heavy_tailed, scaled3,  location, tails and per-row scale: single-pass
//              per_row_scale                    variance, range assumptions, one epsilon for all rows
//   magnitude  large, wide_range                values past fp16's 65504 in every draw: half-precision
//                                               operands overflow, exp without the max subtraction
//                                               overflows
//   small      tiny, scaled001                  values far below 1: absolute epsilons, underflow
//   rare       rare_signs, rare_spikes          U[0,1) to anyone sampling a few dozen elements, with a
//                                               keyed few negatives among them: sampling the input to
//                                               pick a shortcut
//   structure  channel_affine, outliers, trend  statistics that differ along every axis: a reduction
//                                               split into blocks whose partial results are merged
//                                               as if every block had the same mean
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "inputs/families.hpp"

namespace kbv::inputs {

enum class FamilyClass : uint32_t { sign = 0, shape, magnitude, small, rare, structure, count };

constexpr uint32_t kFamilyClassCount = static_cast<uint32_t>(FamilyClass::count);

// The class of a hidden family (the public uniform01 has none: it gates in every epoch).
std::optional<FamilyClass> class_of(Family family);
// The hidden families of a class, in enum order.
std::vector<Family> families_of(FamilyClass family_class);
std::string_view class_name(FamilyClass family_class);
std::optional<FamilyClass> class_from_name(std::string_view name);

}  // namespace kbv::inputs
