// inputs/epoch_plan.cpp — keyed-hash selection of hidden families, parameters and seeds.
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

// Parameter ranges per family (the meanings are documented in families.hpp).
FamilyParams draw_params(Family family, double unit) {
  switch (family) {
    case Family::shifted: return {lerp(5.0, 50.0, unit)};
    case Family::large: return {std::pow(10.0, lerp(3.0, 4.0, unit))};
    case Family::heavy_tailed: return {lerp(2.0, 3.0, unit)};
    case Family::sparse: return {lerp(0.5, 0.95, unit)};
    case Family::tiny: return {std::pow(10.0, lerp(-6.0, -4.0, unit))};
    case Family::per_row_scale: return {lerp(1.0, 3.0, unit)};
    default: return {0.0};
  }
}

}  // namespace

EpochPlan plan_epoch(const SecretKey& key, uint64_t epoch, std::string_view problem, int trials_per_family) {
  const std::string prefix = "kbv/v1|" + std::to_string(epoch) + "|" + std::string(problem) + "|";
  EpochPlan plan;
  plan.epoch = epoch;
  plan.problem = std::string(problem);

  // Rank the hidden families by a keyed hash; the lowest kHiddenFamiliesPerEpoch are drawn.
  std::vector<std::pair<uint64_t, Family>> ranked;
  for (uint32_t f = 0; f < kFamilyCount; ++f) {
    const auto family = static_cast<Family>(f);
    if (is_hidden(family)) ranked.emplace_back(keyed_u64(key, prefix + "rank|" + std::string(family_name(family))), family);
  }
  std::sort(ranked.begin(), ranked.end());
  ranked.resize(std::min(ranked.size(), kHiddenFamiliesPerEpoch));

  std::vector<Family> chosen{Family::uniform01};
  for (const auto& [rank, family] : ranked) chosen.push_back(family);
  std::sort(chosen.begin() + 1, chosen.end());  // stable, readable order in reports

  for (Family family : chosen) plan.families.push_back(draw_family(key, epoch, problem, family, trials_per_family));
  return plan;
}

FamilyDraw draw_family(const SecretKey& key, uint64_t epoch, std::string_view problem, Family family, int trials_per_family) {
  const std::string prefix = "kbv/v1|" + std::to_string(epoch) + "|" + std::string(problem) + "|";
  const std::string name(family_name(family));
  FamilyDraw draw;
  draw.family = family;
  draw.hidden = is_hidden(family);
  draw.params = draw_params(family, keyed_unit(key, prefix + "param|" + name));
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
