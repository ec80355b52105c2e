// inputs/epoch_plan.hpp — which input families gate an epoch, with which parameters and seeds.
//
// Every epoch tests the public family and one family of every class of hidden families
// (family_classes.hpp) that is not degenerate for the problem: the key orders each class's
// families, and the evaluation takes them in that order until one can gate
// (stratified_walk.hpp). Every choice is a keyed hash (HMAC-SHA256) of (secret key, epoch,
// problem, family or class, purpose, trial). Without the key, nobody can tell which family of
// a class an epoch uses, its parameters, its structure or the seeds: the worker sees only
// generated values.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "inputs/families.hpp"
#include "inputs/family_classes.hpp"
#include "inputs/secret_key.hpp"

namespace kbv::inputs {

// An epoch is a week counted from 2026-01-01 00:00 UTC unless configured otherwise.
constexpr int64_t kDefaultEpochOrigin = 1767225600;  // 2026-01-01T00:00:00Z
constexpr int64_t kDefaultEpochLengthSeconds = 7 * 24 * 3600;

struct FamilyDraw {
  Family family = Family::uniform01;
  FamilyParams params;
  bool hidden = false;
  std::vector<uint64_t> trial_seeds;  // one per correctness trial
};

// One class in an epoch: every family of it, in the key's order. The first is the epoch's
// pick; the others stand by, in order, for a problem on which it cannot gate.
struct ClassDraw {
  FamilyClass family_class = FamilyClass::sign;
  std::vector<FamilyDraw> families;
};

struct EpochPlan {
  uint64_t epoch = 0;
  std::string problem;
  FamilyDraw public_family;
  std::vector<ClassDraw> classes;  // every hidden class, in the key's order
  // The families an evaluation checks, in order: as planned, the public family and each
  // class's first pick; the correctness phase replaces it with the families it actually
  // evaluated (stratified_walk.hpp), and the timing phase samples those that gate.
  std::vector<FamilyDraw> families;
};

EpochPlan plan_epoch(const SecretKey& key, uint64_t epoch, std::string_view problem, int trials_per_family);

// The draw plan_epoch() makes for `family` in `epoch` (its parameters, structure and trial
// seeds), whether or not the epoch's walk reaches it (`kbv export --family` of any family).
FamilyDraw draw_family(const SecretKey& key, uint64_t epoch, std::string_view problem, Family family, int trials_per_family);

// A 64-bit keyed hash of a purpose string, for seeds the plan does not cover (timing samples).
uint64_t keyed_u64(const SecretKey& key, std::string_view message);

uint64_t epoch_at(std::chrono::system_clock::time_point now, int64_t origin_seconds = kDefaultEpochOrigin,
                  int64_t length_seconds = kDefaultEpochLengthSeconds);

}  // namespace kbv::inputs
