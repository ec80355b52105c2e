// inputs/epoch_plan.hpp — which input families gate an epoch, with which parameters and seeds.
//
// Every choice is a keyed hash (HMAC-SHA256) of (secret key, epoch, problem, family, purpose,
// trial). Without the key, nobody can tell which hidden families an epoch uses, their
// parameters, or the seeds: the worker sees only generated values.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "inputs/families.hpp"
#include "inputs/secret_key.hpp"

namespace kbv::inputs {

// Hidden families drawn per epoch out of the 10: enough that every epoch tests signs, scale
// extremes and structure (each of the 10 is chosen with probability 0.6), few enough that a
// GPU evaluation at KernelBench sizes stays within seconds.
constexpr size_t kHiddenFamiliesPerEpoch = 6;

// An epoch is a week counted from 2026-01-01 00:00 UTC unless configured otherwise.
constexpr int64_t kDefaultEpochOrigin = 1767225600;  // 2026-01-01T00:00:00Z
constexpr int64_t kDefaultEpochLengthSeconds = 7 * 24 * 3600;

struct FamilyDraw {
  Family family = Family::uniform01;
  FamilyParams params;
  bool hidden = false;
  std::vector<uint64_t> trial_seeds;  // one per correctness trial
};

struct EpochPlan {
  uint64_t epoch = 0;
  std::string problem;
  std::vector<FamilyDraw> families;  // the public family first, then the hidden ones drawn
};

EpochPlan plan_epoch(const SecretKey& key, uint64_t epoch, std::string_view problem, int trials_per_family);

// The draw plan_epoch() makes for `family` in `epoch` (its parameters and trial seeds), whether
// or not the epoch chooses that family (`kbv export --family` of any hidden family).
FamilyDraw draw_family(const SecretKey& key, uint64_t epoch, std::string_view problem, Family family, int trials_per_family);

// A 64-bit keyed hash of a purpose string, for seeds the plan does not cover (timing samples).
uint64_t keyed_u64(const SecretKey& key, std::string_view message);

uint64_t epoch_at(std::chrono::system_clock::time_point now, int64_t origin_seconds = kDefaultEpochOrigin,
                  int64_t length_seconds = kDefaultEpochLengthSeconds);

}  // namespace kbv::inputs
