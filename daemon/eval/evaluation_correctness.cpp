// eval/evaluation_correctness.cpp — every family of the epoch: the problem's own validation
// (the fp32 baseline passes, trivial outputs fail), the candidate's trials against the fp64
// reference, run-to-run determinism, and the correctness verdict.
#include <algorithm>
#include <string>

#include "eval/evaluation.hpp"
#include "inputs/family_names.hpp"

namespace kbv::eval::detail {

void Evaluation::validate_and_check(DataPlane& plane, const inputs::EpochPlan& plan) {
  constexpr int kSlot = 0;  // every correctness trial reuses the same buffers, fresh contents
  std::string first_output_digest;
  for (const inputs::FamilyDraw& draw : plan.families) {
    FamilyResult family;
    family.family = std::string(inputs::family_name(draw.family));
    family_ = family.family;
    family.hidden = draw.hidden;
    for (size_t trial = 0; trial < draw.trial_seeds.size(); ++trial) {
      {
        auto phase = phases_.measure("correctness.prepare_inputs");
        plane.prepare(kSlot, draw, draw.trial_seeds[trial]);
      }
      if (trial == 0) {
        // Problem validation on this family: the baseline must pass; trivial outputs must fail.
        auto phase = phases_.measure("correctness.reference_and_baseline_check");
        family.baseline_passed = plane.check_baseline(kSlot).passed;
        const auto trivial = plane.trivial_outputs_that_pass(kSlot);
        if (!trivial.empty()) {
          family.degenerate = true;
          family.gating = false;
          for (const auto& name : trivial) family.degenerate_reason += (family.degenerate_reason.empty() ? "" : ", ") + name;
          family.degenerate_reason += " passes";
        }
        if (!family.baseline_passed) {
          family.gating = false;
          family.detail = "the fp32 baseline fails this family: the problem's tolerance is too strict for it";
        }
      }
      if (!checked_call(plane, kSlot)) {
        family.passed = false;
        result_.families.push_back(family);
        if (result_.verdict == Verdict::fail_correctness) result_.failed_family = family.family;
        return;
      }
      std::optional<PhaseClock::Scope> compare_phase;
      compare_phase.emplace(phases_, "correctness.compare");
      const CompareResult comparison = plane.check_outputs(kSlot);
      compare_phase.reset();
      ++family.trials;
      family.max_abs_error = std::max(family.max_abs_error, comparison.max_abs_error);
      family.rel_l2_error = std::max(family.rel_l2_error, comparison.rel_l2_error);
      if (!comparison.passed && family.passed) {
        family.passed = false;
        family.detail = "trial " + std::to_string(trial) + ": " + comparison.summary();
      }
      // Run-to-run determinism: the public family's first trial, called a second time. Bits
      // that differ within the tolerance are reduction order (atomicAdd): an informational flag.
      // Outputs that differ beyond it, measured against each other, are a race: a failure.
      if (!draw.hidden && trial == 0) {
        const std::string digest = plane.output_digest(kSlot);
        plane.keep_outputs(kSlot);
        if (!checked_call(plane, kSlot)) {
          result_.families.push_back(family);
          return;
        }
        const CompareResult again = plane.check_outputs(kSlot);
        if (plane.output_digest(kSlot) != digest) {
          const CompareResult between = plane.compare_with_kept_outputs(kSlot);
          if (!again.passed && comparison.passed) {
            family.passed = false;
            family.detail = "a repeated call on the same inputs failed: " + again.summary();
          } else if (!between.passed) {
            if (family.passed)
              family.detail = "two calls on the same inputs gave outputs that differ beyond the tolerance (a race or an "
                              "uninitialised read), the second against the first: " + between.summary();
            family.passed = false;
          } else {
            add_flag("bitwise_nondeterministic");
          }
        }
      }
    }
    result_.families.push_back(family);
  }
  // The verdict: every gating family must pass.
  bool any_gating = false;
  bool public_passed = true;
  for (const FamilyResult& family : result_.families) {
    if (!family.hidden) public_passed = family.passed;
    if (!family.gating) continue;
    any_gating = true;
    if (!family.passed) {
      result_.failed_family = family.family;
      decide(Verdict::fail_correctness, "wrong on family " + family.family + ": " + family.detail);
      if (family.hidden && public_passed) add_flag("passes_public_inputs_only");
      return;
    }
  }
  if (!any_gating) decide(Verdict::bad_input, "no family gates this problem in this epoch (every one is degenerate or fails the baseline): the problem spec needs fixing");
}

}  // namespace kbv::eval::detail
