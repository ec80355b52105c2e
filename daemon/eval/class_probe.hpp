// eval/class_probe.hpp — which classes of hidden families are degenerate for a problem: a
// trivial output (zeros, a copy of an input, the reference's mean) passes every family of the
// class, so no epoch can test that kind of input on it. `kbv problems` lists them; an
// evaluation reports what it found on its own draws (result.classes).
#pragma once

#include <string>
#include <vector>

#include "inputs/family_classes.hpp"
#include "spec/problem.hpp"

namespace kbv::eval {

struct FamilyProbe {
  inputs::Family family = inputs::Family::uniform01;
  std::vector<std::string> trivial_passing;  // the trivial outputs that pass it
};

struct ClassProbe {
  inputs::FamilyClass family_class = inputs::FamilyClass::sign;
  std::vector<FamilyProbe> families;
  bool degenerate() const;
  // "negated: zeros passes; scaled3: copy of input x passes" for the families a trivial output passes.
  std::string reason() const;
};

// Checks every hidden family of every class on the host at `problem`'s resolved shapes, with
// the draws of a fixed public key (all zero bytes) in epoch 0 and their first trial seed: the
// draws are no secret, and degeneracy is a property of the problem and the family's kind, not
// of one key's parameters.
std::vector<ClassProbe> probe_classes(const ResolvedProblem& problem);

}  // namespace kbv::eval
