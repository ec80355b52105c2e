// inputs/stratified_walk.hpp — the order an evaluation checks an epoch's families in: the
// public family, then each class's families in the key's order until one can gate.
//
// A family can gate when the problem's baseline passes it and no trivial output does (the
// evaluator decides, eval/evaluation_correctness.cpp). A class none of whose families can gate
// is degenerate for the problem: nothing of that kind was tested, and the result says so.
// The walk is pure bookkeeping, so tests can drive it with any answers (tests/unit).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inputs/epoch_plan.hpp"

namespace kbv::inputs {

class StratifiedWalk {
 public:
  struct ClassOutcome {
    FamilyClass family_class = FamilyClass::sign;
    bool settled = false;                                   // a family gated, or every one was tried
    std::optional<Family> gating;                           // settled without one: degenerate for the problem
    std::vector<std::pair<Family, std::string>> not_gating;  // families tried first, and why
  };

  explicit StratifiedWalk(const EpochPlan& plan);

  // The next family to check, or nullptr when every class is settled.
  const FamilyDraw* next();
  // The answer for the family next() returned last: it can gate, or not (`why_not` says why).
  void record(bool can_gate, const std::string& why_not = "");

  // Every class in the plan's order, settled or not (yet) reached.
  const std::vector<ClassOutcome>& outcomes() const { return outcomes_; }
  // The classes settled without a gating family.
  std::vector<ClassOutcome> degenerate_classes() const;
  // The class of the family next() returned last (none for the public family).
  std::optional<FamilyClass> current_class() const;

 private:
  const EpochPlan& plan_;
  bool public_done_ = false;
  size_t class_index_ = 0;   // the class being walked
  size_t family_index_ = 0;  // within it
  bool pending_ = false;     // next() returned a family that record() has not answered for
  std::vector<ClassOutcome> outcomes_;
};

}  // namespace kbv::inputs
