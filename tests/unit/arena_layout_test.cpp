// arena_layout_test.cpp — the arena's layout: the correctness slot has a copy of everything, the
// timing slots share one copy of each parameter and rotate their own activations and outputs;
// and the host data plane refuses to judge a slot whose shared parameters another slot's
// preparation rewrote, until it is prepared again.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "eval/arena_layout.hpp"
#include "eval/host_data_plane.hpp"
#include "inputs/epoch_plan.hpp"
#include "spec/problem.hpp"
#include "unit_test_support.hpp"

namespace {

using kbv::eval::kCorrectnessSlot;
using kbv::eval::kFirstTimingSlot;

const char* kLinear = R"(name: linear_params
level: 1
inputs:
  - {name: x, shape: [batch, features], role: activation}
  - {name: weight, shape: [out, features], role: parameter, scale: inv_sqrt_fan_in}
  - {name: bias, shape: [out], role: parameter, scale: 1}
outputs:
  - {name: y, shape: [batch, out]}
graph:
  - {name: linear, op: linear, inputs: [x, weight, bias], output: y}
shapes:
  default: {batch: 4, features: 8, out: 6}
  small: {batch: 3, features: 5, out: 7}
)";

const char* kNoParameters = R"(name: relu_only
level: 1
inputs:
  - {name: x, shape: [n]}
outputs:
  - {name: y, shape: [n]}
graph:
  - {name: relu, op: relu, inputs: [x], output: y}
shapes:
  default: {n: 100}
  small: {n: 10}
)";

TEST(ArenaLayout, TimingSlotsShareTheParametersAndRotateActivationsAndOutputs) {
  const kbv::ResolvedProblem problem = kbv::test::inline_problem(kLinear);
  const kbv::eval::ArenaLayout layout = kbv::eval::layout_arena(problem, 5);
  ASSERT_EQ(layout.slots.size(), 5u);
  const auto& first = layout.slots[kFirstTimingSlot];
  for (size_t s = kFirstTimingSlot + 1; s < layout.slots.size(); ++s) {
    EXPECT_NE(layout.slots[s].inputs[0].offset, first.inputs[0].offset) << "slot " << s << ": x rotates";
    EXPECT_EQ(layout.slots[s].inputs[1].offset, first.inputs[1].offset) << "slot " << s << ": one weight";
    EXPECT_EQ(layout.slots[s].inputs[2].offset, first.inputs[2].offset) << "slot " << s << ": one bias";
    EXPECT_NE(layout.slots[s].outputs[0].offset, first.outputs[0].offset) << "slot " << s << ": y rotates";
    EXPECT_EQ(layout.slots_json[s]["inputs"][1]["offset"], first.inputs[1].offset) << "the worker is told the same place";
    EXPECT_TRUE(kbv::eval::share_an_input(layout.slots[s], first));
    EXPECT_FALSE(kbv::eval::share_an_input(layout.slots[s], layout.slots[kCorrectnessSlot]));
  }
  // The correctness slot's parameters are its own.
  for (size_t i = 1; i < 3; ++i) EXPECT_NE(layout.slots[kCorrectnessSlot].inputs[i].offset, first.inputs[i].offset);
  // Nothing else is shared: every place other than the shared parameters is distinct.
  std::set<size_t> offsets;
  size_t places = 0;
  for (size_t s = 0; s < layout.slots.size(); ++s) {
    for (size_t i = 0; i < layout.slots[s].inputs.size(); ++i) {
      if (s > static_cast<size_t>(kFirstTimingSlot) && i > 0) continue;
      offsets.insert(layout.slots[s].inputs[i].offset);
      ++places;
    }
    for (const auto& output : layout.slots[s].outputs) {
      offsets.insert(output.offset);
      ++places;
    }
  }
  EXPECT_EQ(offsets.size(), places);
  // Two full sets (correctness, first timing slot), then an activation and an output per further slot.
  const size_t per_further_slot = 2 * kbv::eval::kTensorAlignment;  // x (128 bytes) and y (96), each aligned
  EXPECT_EQ(layout.bytes, 2 * kbv::eval::slot_bytes(problem) + 3 * per_further_slot);
  EXPECT_LT(layout.bytes, 5 * kbv::eval::slot_bytes(problem));
}

TEST(ArenaLayout, WithoutParametersEverySlotIsItsOwn) {
  const kbv::ResolvedProblem problem = kbv::test::inline_problem(kNoParameters);
  const kbv::eval::ArenaLayout layout = kbv::eval::layout_arena(problem, 5);
  for (size_t a = 0; a < layout.slots.size(); ++a)
    for (size_t b = a + 1; b < layout.slots.size(); ++b) EXPECT_FALSE(kbv::eval::share_an_input(layout.slots[a], layout.slots[b]));
  EXPECT_EQ(layout.bytes, 5 * kbv::eval::slot_bytes(problem));
}

TEST(ArenaLayout, HostPlaneRefusesASlotWhoseSharedParametersAnotherSlotRewrote) {
  const kbv::ResolvedProblem problem = kbv::test::inline_problem(kLinear);
  const auto plane = kbv::eval::make_host_data_plane(problem);
  (void)plane->allocate(3);
  const kbv::inputs::FamilyDraw draw = kbv::inputs::draw_family(kbv::inputs::SecretKey::from_bytes({3}), 0, "linear_params",
                                                                kbv::inputs::Family::uniform01, 1);
  plane->prepare_timing(1, draw, 11);
  EXPECT_TRUE(plane->check_baseline(1).passed);
  plane->prepare_timing(2, draw, 12);  // rewrites the weight and bias slot 1 shares
  EXPECT_TRUE(plane->check_baseline(2).passed);
  EXPECT_THROW((void)plane->check_baseline(1), std::logic_error);
  EXPECT_THROW((void)plane->check_outputs(1), std::logic_error);
  plane->prepare(0, draw, 13);  // the correctness slot shares nothing with them
  EXPECT_TRUE(plane->check_baseline(2).passed);
  plane->prepare_timing(1, draw, 14);
  EXPECT_TRUE(plane->check_baseline(1).passed);
}

}  // namespace
