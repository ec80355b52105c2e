// stratified_walk_test.cpp — the walk over an epoch's classes, and the stratification property:
// under every one of 1000 keys, every bundled problem's epoch gates on exactly one family of
// every class that is not degenerate for it, and reports the degenerate ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "eval/class_probe.hpp"
#include "inputs/family_names.hpp"
#include "inputs/stratified_walk.hpp"
#include "spec/catalog.hpp"

namespace {

using kbv::inputs::Family;
using kbv::inputs::FamilyClass;
using kbv::inputs::StratifiedWalk;

kbv::inputs::SecretKey key_number(uint32_t n) {
  std::array<uint8_t, kbv::inputs::kSecretKeyBytes> bytes{};
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((n >> (8 * (i % 4))) * 151 + i * 13 + 1);
  return kbv::inputs::SecretKey::from_bytes(bytes);
}

// Drives a walk with an oracle: which families can gate. Returns the families checked, in order.
std::vector<Family> walk_all(StratifiedWalk& walk, const std::set<Family>& cannot_gate) {
  std::vector<Family> checked;
  while (const kbv::inputs::FamilyDraw* draw = walk.next()) {
    checked.push_back(draw->family);
    const bool can_gate = !cannot_gate.count(draw->family);
    walk.record(can_gate, can_gate ? "" : "zeros passes");
  }
  return checked;
}

TEST(StratifiedWalk, PublicFirstThenEachClasssFirstPickWhenAllCanGate) {
  const auto plan = kbv::inputs::plan_epoch(key_number(1), 2, "softmax", 1);
  StratifiedWalk walk(plan);
  const auto checked = walk_all(walk, {});
  ASSERT_EQ(checked.size(), plan.families.size());
  for (size_t i = 0; i < checked.size(); ++i) EXPECT_EQ(checked[i], plan.families[i].family);
  EXPECT_TRUE(walk.degenerate_classes().empty());
  for (const auto& outcome : walk.outcomes()) EXPECT_TRUE(outcome.settled && outcome.gating);
}

TEST(StratifiedWalk, AFamilyThatCannotGateHandsOverToTheNextOfItsClass) {
  const auto plan = kbv::inputs::plan_epoch(key_number(2), 2, "relu", 1);
  const auto& sign = *std::find_if(plan.classes.begin(), plan.classes.end(), [](const auto& c) { return c.family_class == FamilyClass::sign; });
  const auto& rare = *std::find_if(plan.classes.begin(), plan.classes.end(), [](const auto& c) { return c.family_class == FamilyClass::rare; });
  std::set<Family> cannot_gate = {sign.families[0].family};
  for (const auto& draw : rare.families) cannot_gate.insert(draw.family);
  StratifiedWalk walk(plan);
  const auto checked = walk_all(walk, cannot_gate);
  EXPECT_EQ(checked.size(), 1 + kbv::inputs::kFamilyClassCount + 1 + (rare.families.size() - 1));
  for (const auto& outcome : walk.outcomes()) {
    EXPECT_TRUE(outcome.settled);
    if (outcome.family_class == FamilyClass::sign) {
      EXPECT_EQ(outcome.gating, sign.families[1].family);
      ASSERT_EQ(outcome.not_gating.size(), 1u);
      EXPECT_EQ(outcome.not_gating[0].first, sign.families[0].family);
      EXPECT_EQ(outcome.not_gating[0].second, "zeros passes");
    }
  }
  const auto degenerate = walk.degenerate_classes();
  ASSERT_EQ(degenerate.size(), 1u);
  EXPECT_EQ(degenerate[0].family_class, FamilyClass::rare);
  EXPECT_EQ(degenerate[0].not_gating.size(), rare.families.size());
}

TEST(StratifiedWalk, RefusesAnswersOutOfTurn) {
  const auto plan = kbv::inputs::plan_epoch(key_number(3), 2, "relu", 1);
  StratifiedWalk walk(plan);
  EXPECT_THROW(walk.record(true), std::logic_error);
  ASSERT_NE(walk.next(), nullptr);
  EXPECT_THROW(walk.next(), std::logic_error);
}

// The property issue #19 asks for, on every bundled problem: which families are degenerate comes
// from the host probe (eval/class_probe.hpp, small shapes), the walk from 1000 keys' plans.
TEST(Stratification, EveryClassThatCanGateGatesUnderEveryKeyForEveryProblem) {
  constexpr uint32_t kKeys = 1000;
  const auto catalog = kbv::ProblemCatalog::load(KBV_PROBLEMS_DIR);
  ASSERT_FALSE(catalog.names().empty());
  for (const std::string& name : catalog.names()) {
    if (!catalog.get(name).gpu_only_reason.empty()) continue;  // no small set: the probe runs on the host
    const auto probes = kbv::eval::probe_classes(kbv::resolve_problem(catalog.get(name), "small"));
    std::set<Family> degenerate_families;
    std::set<FamilyClass> degenerate_classes;
    for (const auto& probe : probes) {
      for (const auto& family : probe.families)
        if (!family.trivial_passing.empty()) degenerate_families.insert(family.family);
      if (probe.degenerate()) degenerate_classes.insert(probe.family_class);
    }
    std::map<Family, int> gated;
    size_t most_checked = 0, checked_total = 0;
    for (uint32_t k = 0; k < kKeys; ++k) {
      const auto plan = kbv::inputs::plan_epoch(key_number(k), k % 53, name, 1);
      StratifiedWalk walk(plan);
      const auto checked = walk_all(walk, degenerate_families);
      most_checked = std::max(most_checked, checked.size());
      checked_total += checked.size();
      ASSERT_EQ(checked.front(), Family::uniform01) << name << " key " << k;
      std::set<FamilyClass> settled;
      for (const auto& outcome : walk.outcomes()) {
        settled.insert(outcome.family_class);
        ASSERT_TRUE(outcome.settled) << name << " key " << k;
        EXPECT_EQ(outcome.gating.has_value(), !degenerate_classes.count(outcome.family_class))
            << name << " key " << k << " class " << kbv::inputs::class_name(outcome.family_class);
        if (outcome.gating) {
          EXPECT_EQ(kbv::inputs::class_of(*outcome.gating), outcome.family_class);
          EXPECT_FALSE(degenerate_families.count(*outcome.gating));
          ++gated[*outcome.gating];
        }
      }
      EXPECT_EQ(settled.size(), kbv::inputs::kFamilyClassCount) << name << " key " << k;
      EXPECT_EQ(walk.degenerate_classes().size(), degenerate_classes.size()) << name << " key " << k;
    }
    // Rotation: every family that can gate does so under some keys.
    for (uint32_t f = 1; f < kbv::inputs::kFamilyCount; ++f) {
      const auto family = static_cast<Family>(f);
      if (!degenerate_families.count(family)) {
        EXPECT_GT(gated[family], 0) << name << " never gates on " << kbv::inputs::family_name(family);
      }
    }
    std::string degenerate_text;
    for (Family family : degenerate_families) degenerate_text += " " + std::string(kbv::inputs::family_name(family));
    std::printf("%-22s families checked per epoch: mean %.2f, most %zu; degenerate families:%s; degenerate classes: %zu\n", name.c_str(),
                static_cast<double>(checked_total) / kKeys, most_checked, degenerate_text.empty() ? " none" : degenerate_text.c_str(),
                degenerate_classes.size());
  }
}

}  // namespace
