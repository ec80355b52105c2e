// inputs/epoch_plan.cpp — keyed-hash order of classes and families, parameters, structure and seeds.
#include "inputs/epoch_plan.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "inputs/family_names.hpp"

namespace kbv::inputs {

uint64_t keyed_u64(const SecretKey& key, std::string_view message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.bytes().data(), static_cast<int>(key.bytes().size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length) ||
      length < 8)
    throw std::runtime_error("HMAC-SHA256 failed");
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value = (value << 8) | digest[i];
  return value;
}

namespace {

// A keyed uniform in [0, 1) with 53 bits.
double keyed_unit(const SecretKey& key, const std::string& message) {
  return static_cast<double>(keyed_u64(key, message) >> 11) * (1.0 / 9007199254740992.0);
}

double lerp(double low, double high, double unit) { return low + (high - low) * unit; }
double log_lerp(double low, double high, double unit) { return std::pow(10.0, lerp(std::log10(low), std::log10(high), unit)); }

// fp16's largest finite value: `large` reaches past it in a share of every draw.
constexpr double kHalfMax = 65504.0;

// Parameter ranges per family (the meanings are documented in families.hpp), from two keyed
// units. Where a range is a defense, the reason is beside it.
FamilyParams draw_params(Family family, double unit_a, double unit_b) {
  switch (family) {
    case Family::shifted: return {lerp(5.0, 50.0, unit_a)};
    // |z|·m > 65504 for ≥ 0.1 % of elements at m = 2e4 (|z| > 3.3): half-precision operands
    // overflow in every draw of a few thousand elements.
    case Family::large: return {log_lerp(kHalfMax / 3.3, 1e5, unit_a)};
    case Family::heavy_tailed: return {lerp(2.0, 3.0, unit_a)};
    case Family::sparse: return {lerp(0.5, 0.95, unit_a)};
    case Family::tiny: return {log_lerp(1e-6, 1e-4, unit_a)};
    case Family::per_row_scale: return {lerp(1.0, 3.0, unit_a)};
    // Channel means stay within 1.5 noise units: every element is negative with probability in
    // [6.7 %, 93.3 %], so a kernel that picks its code path by the sign share of a sample
    // (tests/redteam/candidates/value_dispatch.cu) takes one path per family; any offset
    // difference between blocks already exposes a biased merge (docs/threat-model.md).
    case Family::channel_affine: return {lerp(0.5, 1.5, unit_a), lerp(1.0, 3.0, unit_b)};
    // LLM.int8() (Dettmers et al., 2022): outlier features 20–100× the others, in a few channels.
    case Family::outliers: return {lerp(20.0, 100.0, unit_a), lerp(0.005, 0.02, unit_b)};
    case Family::trend: return {lerp(0.5, 1.5, unit_a), log_lerp(0.5, 2.0, unit_b)};
    // 1e-6 … 1e5: the top 0.18–0.48 decade lies past 65504, the bottom below fp16's smallest
    // normal (6.1e-5), all inside fp32's exponent range.
    case Family::wide_range: return {lerp(-6.5, -5.5, unit_a), lerp(5.0, 5.3, unit_b)};
    // Few enough that 32 sampled elements miss them (≥ 97 %), enough that a small input of
    // 65536 elements holds ≥ 13 on average.
    case Family::rare_signs: return {log_lerp(2e-4, 1e-3, unit_a)};
    case Family::rare_spikes: return {log_lerp(4e-4, 2e-3, unit_a), log_lerp(1e2, 1e3, unit_b)};
    default: return {};
  }
}

std::string prefix_of(uint64_t epoch, std::string_view problem) {
  return "kbv/v1|" + std::to_string(epoch) + "|" + std::string(problem) + "|";
}

}  // namespace

EpochPlan plan_epoch(const SecretKey& key, uint64_t epoch, std::string_view problem, int trials_per_family) {
  const std::string prefix = prefix_of(epoch, problem);
  EpochPlan plan;
  plan.epoch = epoch;
  plan.problem = std::string(problem);
  plan.public_family = draw_family(key, epoch, problem, Family::uniform01, trials_per_family);

  // Classes in a keyed order; within each, families in a keyed order.
  std::vector<std::pair<uint64_t, FamilyClass>> class_order;
  for (uint32_t c = 0; c < kFamilyClassCount; ++c) {
    const auto family_class = static_cast<FamilyClass>(c);
    class_order.emplace_back(keyed_u64(key, prefix + "class_rank|" + std::string(class_name(family_class))), family_class);
  }
  std::sort(class_order.begin(), class_order.end());
  for (const auto& [rank, family_class] : class_order) {
    std::vector<std::pair<uint64_t, Family>> family_order;
    for (Family family : families_of(family_class))
      family_order.emplace_back(keyed_u64(key, prefix + "rank|" + std::string(family_name(family))), family);
    std::sort(family_order.begin(), family_order.end());
    ClassDraw& draw = plan.classes.emplace_back();
    draw.family_class = family_class;
    for (const auto& [family_rank, family] : family_order) draw.families.push_back(draw_family(key, epoch, problem, family, trials_per_family));
  }

  plan.families.push_back(plan.public_family);
  for (const ClassDraw& draw : plan.classes) plan.families.push_back(draw.families.front());
  return plan;
}

FamilyDraw draw_family(const SecretKey& key, uint64_t epoch, std::string_view problem, Family family, int trials_per_family) {
  const std::string prefix = prefix_of(epoch, problem);
  const std::string name(family_name(family));
  FamilyDraw draw;
  draw.family = family;
  draw.hidden = is_hidden(family);
  draw.params = draw_params(family, keyed_unit(key, prefix + "param|" + name), keyed_unit(key, prefix + "param_b|" + name));
  if (is_structured(family)) draw.params.structure = keyed_u64(key, prefix + "structure|" + name);
  draw.params.discrete = keyed_u64(key, prefix + "discrete|" + name);
  for (int trial = 0; trial < trials_per_family; ++trial)
    draw.trial_seeds.push_back(keyed_u64(key, prefix + "seed|" + name + "|" + std::to_string(trial)));
  return draw;
}

uint64_t epoch_at(std::chrono::system_clock::time_point now, int64_t origin_seconds, int64_t length_seconds) {
  const int64_t seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  if (length_seconds <= 0 || seconds < origin_seconds) return 0;
  return static_cast<uint64_t>((seconds - origin_seconds) / length_seconds);
}

}  // namespace kbv::inputs
