// inputs/stratified_walk.cpp — walk an epoch plan class by class until each class gates or runs out.
#include "inputs/stratified_walk.hpp"

#include <stdexcept>

namespace kbv::inputs {

StratifiedWalk::StratifiedWalk(const EpochPlan& plan) : plan_(plan) {
  for (const ClassDraw& draw : plan.classes) outcomes_.emplace_back().family_class = draw.family_class;
}

const FamilyDraw* StratifiedWalk::next() {
  if (pending_) throw std::logic_error("StratifiedWalk::next() called before record() answered for the previous family");
  if (!public_done_) {
    pending_ = true;
    return &plan_.public_family;
  }
  while (class_index_ < plan_.classes.size() && plan_.classes[class_index_].families.empty()) ++class_index_;
  if (class_index_ >= plan_.classes.size()) return nullptr;
  pending_ = true;
  return &plan_.classes[class_index_].families[family_index_];
}

void StratifiedWalk::record(bool can_gate, const std::string& why_not) {
  if (!pending_) throw std::logic_error("StratifiedWalk::record() without a family from next()");
  pending_ = false;
  if (!public_done_) {
    public_done_ = true;  // the public family is checked in every epoch, gating or not
    return;
  }
  const ClassDraw& draw = plan_.classes[class_index_];
  ClassOutcome& outcome = outcomes_[class_index_];
  const Family family = draw.families[family_index_].family;
  if (can_gate) {
    outcome.gating = family;
  } else {
    outcome.not_gating.emplace_back(family, why_not);
    if (++family_index_ < draw.families.size()) return;
  }
  outcome.settled = true;
  ++class_index_;
  family_index_ = 0;
}

std::vector<StratifiedWalk::ClassOutcome> StratifiedWalk::degenerate_classes() const {
  std::vector<ClassOutcome> degenerate;
  for (const ClassOutcome& outcome : outcomes_)
    if (outcome.settled && !outcome.gating) degenerate.push_back(outcome);
  return degenerate;
}

std::optional<FamilyClass> StratifiedWalk::current_class() const {
  if (!public_done_ || class_index_ >= plan_.classes.size()) return std::nullopt;
  return plan_.classes[class_index_].family_class;
}

}  // namespace kbv::inputs
