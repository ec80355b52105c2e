// host_data_plane_test.cpp — the host data plane with int64 and bool inputs: the arena lays
// them out at their own sizes and tells the worker their dtypes, holds the generator's bytes,
// the input digest covers every one of those bytes (a change in an int64's high half or in one
// mask byte shows), export reads them back as bytes, and a loss's trivial outputs skip the mean.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "eval/arena_layout.hpp"
#include "eval/host_data_plane.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/generate.hpp"
#include "spec/problem.hpp"
#include "typed_problem.hpp"
#include "unit_test_support.hpp"

namespace {

using kbv::DType;


const char* kLossOnly = R"(name: loss_only
level: 1
inputs:
  - {name: logits, shape: [batch, classes]}
  - {name: targets, shape: [batch], dtype: int64, range: {low: 0, high: classes}}
outputs:
  - {name: loss, shape: []}
graph:
  - {name: ce, op: cross_entropy, inputs: [logits, targets], output: loss}
shapes:
  default: {batch: 8, classes: 5}
  small: {batch: 37, classes: 11}
)";

class HostDataPlaneTest : public ::testing::Test {
 protected:
  kbv::ResolvedProblem load(const char* text) { return kbv::test::inline_problem(text); }
  // The arena as the worker maps it.
  unsigned char* map(const kbv::eval::DataPlane& plane, size_t bytes) {
    void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, plane.arena_fd(), 0);
    EXPECT_NE(base, MAP_FAILED);
    mapped_ = {base, bytes};
    return static_cast<unsigned char*>(base);
  }
  void TearDown() override {
    if (mapped_.first) ::munmap(mapped_.first, mapped_.second);
  }
  std::pair<void*, size_t> mapped_{nullptr, 0};
};

TEST_F(HostDataPlaneTest, ArenaPlacesEachInputAtItsOwnSizeAndNamesItsDtype) {
  const kbv::ResolvedProblem problem = load(kbv::test::kTypedProblem);
  const kbv::eval::ArenaLayout layout = kbv::eval::layout_arena(problem, 2);
  ASSERT_EQ(layout.slots.size(), 2u);
  const auto& inputs = layout.slots[0].inputs;
  EXPECT_EQ(inputs[0].bytes(), 2u * 3u * 4u);
  EXPECT_EQ(inputs[1].bytes(), 2u * 8u);
  EXPECT_EQ(inputs[2].bytes(), 2u * 3u * 1u);
  EXPECT_EQ(layout.slots[0].outputs[0].dtype, DType::float32);
  for (const auto& place : inputs) EXPECT_EQ(place.offset % kbv::eval::kTensorAlignment, 0u);
  EXPECT_GE(inputs[2].offset, inputs[1].offset + inputs[1].bytes());
  EXPECT_EQ(layout.slots_json[1]["inputs"][1]["dtype"], "int64");
  EXPECT_EQ(layout.slots_json[1]["inputs"][2]["dtype"], "bool");
  EXPECT_EQ(layout.slots_json[1]["outputs"][0]["dtype"], "float32");
  EXPECT_EQ(kbv::eval::slot_bytes(problem) * 2, layout.bytes);
}

TEST_F(HostDataPlaneTest, DigestCoversEveryByteOfInt64AndBoolInputs) {
  const kbv::ResolvedProblem problem = load(kbv::test::kTypedProblem);
  const auto plane = kbv::eval::make_host_data_plane(problem);
  const nlohmann::json setup = plane->allocate(1);
  unsigned char* arena = map(*plane, setup["arena_bytes"].get<size_t>());
  const kbv::eval::ArenaLayout layout = kbv::eval::layout_arena(problem, 1);
  const auto& targets = layout.slots[0].inputs[1];
  const auto& mask = layout.slots[0].inputs[2];

  const kbv::inputs::FamilyDraw draw = kbv::inputs::draw_family(kbv::inputs::SecretKey::from_bytes({9}), 0, "typed", kbv::inputs::Family::uniform01, 1);
  plane->prepare(0, draw, 77);
  // The arena holds the generator's bytes of each dtype.
  std::vector<int64_t> expected(2);
  kbv::inputs::generate_host_typed(expected.data(), DType::int64, 2, draw.family, draw.params, 77, 1, kbv::inputs::vector_axes(2), 1.0,
                                   problem.input_ranges[1]);
  EXPECT_EQ(std::memcmp(arena + targets.offset, expected.data(), targets.bytes()), 0);
  std::vector<unsigned char> streamed;
  plane->read_input(0, 1, [&](std::span<const unsigned char> bytes) { streamed.insert(streamed.end(), bytes.begin(), bytes.end()); });
  EXPECT_EQ(streamed.size(), targets.bytes());
  EXPECT_EQ(std::memcmp(streamed.data(), expected.data(), streamed.size()), 0) << "export reads the int64 bytes as they are";

  const std::string before = plane->input_digest(0);
  EXPECT_EQ(plane->input_digest(0), before);
  // The high half of the last target: past 4·count bytes, where a float32-sized digest stops.
  arena[targets.offset + targets.bytes() - 1] ^= 0x40;
  EXPECT_NE(plane->input_digest(0), before) << "a changed high byte of the last int64 target must show";
  arena[targets.offset + targets.bytes() - 1] ^= 0x40;
  EXPECT_EQ(plane->input_digest(0), before);
  arena[mask.offset + mask.bytes() - 1] ^= 1;
  EXPECT_NE(plane->input_digest(0), before) << "a flipped last mask byte must show";
  arena[mask.offset + mask.bytes() - 1] ^= 1;
  EXPECT_EQ(plane->input_digest(0), before);

  // Fresh contents for another seed, as every timing sample gets.
  plane->prepare_timing(0, draw, 78);
  EXPECT_NE(plane->input_digest(0), before);
  // The baseline reads the targets widened (exact) and agrees with the fp64 reference.
  EXPECT_TRUE(plane->check_baseline(0).passed);
}

TEST_F(HostDataPlaneTest, ALossSkipsTheMeanProbeButNotTheOthers) {
  const kbv::ResolvedProblem problem = load(kLossOnly);
  const auto plane = kbv::eval::make_host_data_plane(problem);
  plane->allocate(1);
  const kbv::inputs::FamilyDraw draw = kbv::inputs::draw_family(kbv::inputs::SecretKey::from_bytes({9}), 0, "loss_only", kbv::inputs::Family::uniform01, 1);
  plane->prepare(0, draw, 5);
  // The mean of a one-element reference is the reference: it would pass every family.
  EXPECT_TRUE(plane->trivial_outputs_that_pass(0).empty());
  EXPECT_TRUE(kbv::eval::every_output_is_one_element(problem));
  EXPECT_FALSE(kbv::eval::every_output_is_one_element(load(kbv::test::kTypedProblem)));
}

}  // namespace
