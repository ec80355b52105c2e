// eval/kernel_set_check.hpp — the phase-detection rule over the kernel names the worker's
// CUPTI trace reports per call: a timed call must launch a set of kernels that some correctness
// call launched on the same input family.
//
// Correctness calls may launch any set: each one's output is judged against the fp64 reference,
// so whatever it ran is checked (one-time kernels of a first call, lazy initialisation, included).
// A set first seen while timing is code nobody checked: the candidate behaves differently when
// it is timed. The rule is per family because an honest candidate may pick its kernels by its
// inputs' values (a path for inputs of one sign, for sparse ones): the timed calls of a family
// draw from the same distribution as its correctness calls and repeat what they launched.
// (Until 2026-11-29 every call from the third on had to repeat the second call's set, which
// flagged such a candidate as phase detection.)
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbv::eval {

class KernelSetCheck {
 public:
  using Names = std::vector<std::string>;  // sorted, distinct

  // A correctness call on `family` launched `names`.
  void learn(const std::string& family, const Names& names);
  // A timed call on `family` launched `names`: nothing when a correctness call on the family
  // launched the same set, else the difference from the nearest such set: " +added -dropped".
  std::optional<std::string> check(const std::string& family, const Names& names);

  int traced_calls() const { return traced_calls_; }
  // How many different sets the correctness calls launched, over every family.
  size_t distinct_sets() const;

 private:
  int traced_calls_ = 0;
  std::map<std::string, std::set<Names>> seen_;  // family -> sets its correctness calls launched
};

}  // namespace kbv::eval
