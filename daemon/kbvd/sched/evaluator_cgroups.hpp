// sched/evaluator_cgroups.hpp — a cgroup v2 group per evaluator child, kbvd-<kbvd pid>-<n> below
// kbvd's own group, so that an evaluation (the evaluator, its kbv-worker, anything the candidate
// started) is killed as a whole and found again by the next kbvd if this one is killed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "lifetime/cgroup.hpp"

namespace kbv::kbvd {

class EvaluatorCgroups {
 public:
  // Finds kbvd's group and proves that a child can join a group made below it (a throw-away
  // child does); otherwise cgroups are off, with the reason (no cgroup v2, read-only cgroupfs,
  // a systemd unit without Delegate=yes).
  static EvaluatorCgroups probe();
  // Off: children get no cgroup (process groups and PR_SET_PDEATHSIG still end them).
  static EvaluatorCgroups off(std::string why) { return EvaluatorCgroups(std::nullopt, std::move(why)); }

  bool enabled() const { return parent_.has_value(); }
  const std::string& why_off() const { return why_off_; }
  const std::optional<std::filesystem::path>& parent() const { return parent_; }

  // A new group for one evaluator child; nothing when off or when this one cannot be made.
  std::optional<lifetime::OwnedCgroup> make();
  // Groups a dead kbvd left below kbvd's group: killed and removed; returns the processes they
  // still held.
  int sweep_abandoned() const;

 private:
  EvaluatorCgroups(std::optional<std::filesystem::path> parent, std::string why_off)
      : parent_(std::move(parent)), why_off_(std::move(why_off)) {}

  std::optional<std::filesystem::path> parent_;
  std::string why_off_;
  int made_ = 0;
};

}  // namespace kbv::kbvd
