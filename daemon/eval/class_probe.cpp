// eval/class_probe.cpp — every hidden family of every class through the host data plane's trivial-output check.
#include "eval/class_probe.hpp"

#include "eval/host_data_plane.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/family_names.hpp"

namespace kbv::eval {

bool ClassProbe::degenerate() const {
  for (const FamilyProbe& family : families)
    if (family.trivial_passing.empty()) return false;
  return !families.empty();
}

std::string ClassProbe::reason() const {
  std::string text;
  for (const FamilyProbe& family : families) {
    if (family.trivial_passing.empty()) continue;
    std::string passing;
    for (const auto& name : family.trivial_passing) passing += (passing.empty() ? "" : ", ") + name;
    text += (text.empty() ? "" : "; ") + std::string(inputs::family_name(family.family)) + ": " + passing + " passes";
  }
  return text;
}

std::vector<ClassProbe> probe_classes(const ResolvedProblem& problem) {
  constexpr int kSlot = 0;
  const inputs::SecretKey probe_key = inputs::SecretKey::from_bytes({});
  const auto plane = make_host_data_plane(problem);
  plane->allocate(1);
  std::vector<ClassProbe> classes;
  for (uint32_t c = 0; c < inputs::kFamilyClassCount; ++c) {
    ClassProbe& probe = classes.emplace_back();
    probe.family_class = static_cast<inputs::FamilyClass>(c);
    for (inputs::Family family : inputs::families_of(probe.family_class)) {
      const inputs::FamilyDraw draw = inputs::draw_family(probe_key, 0, problem.problem.name, family, 1);
      plane->prepare(kSlot, draw, draw.trial_seeds.front());
      probe.families.push_back({family, plane->trivial_outputs_that_pass(kSlot)});
    }
  }
  return classes;
}

}  // namespace kbv::eval
