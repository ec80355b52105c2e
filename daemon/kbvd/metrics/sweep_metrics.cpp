// daemon/kbvd/metrics/sweep_metrics.cpp — validate a sweep's message and set its gauges.
#include "metrics/sweep_metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>

namespace kbv::kbvd {
namespace {

using nlohmann::json;

// A sweep's name as its configuration allows it (daemon/sweep/sweep_config.cpp), and a model
// name as a manifest allows it (identity/manifest.cpp: printable, at most 256 characters).
const std::regex kSweepName("[A-Za-z0-9_.-]{1,64}");
constexpr std::size_t kMaxModelChars = 256;

std::string text(const json& message, const char* field) {
  if (!message.contains(field) || !message[field].is_string()) throw SweepMessageError(fmt::format("sweep: '{}' must be a string", field));
  return message[field].get<std::string>();
}

double count(const json& message, const char* field) {
  if (!message.contains(field) || !message[field].is_number() || message[field].get<double>() < 0)
    throw SweepMessageError(fmt::format("sweep: '{}' must be a number of at least 0", field));
  return message[field].get<double>();
}

prometheus::Family<prometheus::Gauge>& gauge(prometheus::Registry& registry, const char* name, const char* help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

}  // namespace

SweepMetrics::SweepMetrics(prometheus::Registry& registry)
    : evaluations_(gauge(registry, "kbv_sweep_evaluations", "Evaluations a sweep planned (state=planned) and those with a verdict so far (state=done).")),
      running_(gauge(registry, "kbv_sweep_running", "1 while the sweep runs.")),
      finished_at_(gauge(registry, "kbv_sweep_last_finished_timestamp_seconds", "When the sweep last finished (Unix time).")),
      complete_(gauge(registry, "kbv_sweep_last_complete", "1 when the last finished sweep left no planned evaluation without a verdict.")),
      epoch_(gauge(registry, "kbv_sweep_last_epoch", "The epoch of the sweep's last run.")),
      regressions_(gauge(registry, "kbv_sweep_last_regressions", "Candidates that passed in recent epochs and fail in the last finished sweep.")),
      fast_1_(gauge(registry, "kbv_sweep_last_fast_1_ratio", "Fraction of a model's candidates that pass and beat the baseline, in the last finished sweep.")) {}

void SweepMetrics::update(const json& message) {
  const auto sweep = text(message, "sweep");
  if (!std::regex_match(sweep, kSweepName)) throw SweepMessageError("sweep: 'sweep' must be a sweep name (letters, digits, '-', '_', '.'; at most 64)");
  const auto state = text(message, "state");
  if (state != "running" && state != "finished") throw SweepMessageError("sweep: 'state' must be running or finished");
  // Checked before any gauge is set: a refused message changes nothing.
  if (message.contains("complete") && !message["complete"].is_boolean()) throw SweepMessageError("sweep: 'complete' must be true or false");
  const double planned = count(message, "planned"), done = count(message, "done"), epoch = count(message, "epoch");
  // The headline too (review: a bad regressions count or baseline name threw after running and
  // complete were set, or after the sweep's fast_1 series were removed).
  const bool has_headline = state == "finished" && message.contains("headline") && message["headline"].is_object();
  const double regressions = has_headline ? count(message["headline"], "regressions") : 0;
  const bool has_fast_1 = has_headline && message["headline"].contains("baseline") && message["headline"]["baseline"].is_string() &&
                          message["headline"].contains("fast_1") && message["headline"]["fast_1"].is_object();
  if (has_fast_1 && !std::regex_match(message["headline"]["baseline"].get<std::string>(), std::regex("[a-z0-9_]{1,32}")))
    throw SweepMessageError("sweep: 'headline.baseline' must be a baseline name");
  // Checked last, so that a refused message frees no room either.
  if (!sweeps_.count(sweep) && sweeps_.size() >= kMaxSweeps && !make_room())
    throw SweepMessageError(fmt::format("sweep: kbvd shows {} sweeps, every one running and reporting within the last {:.0f} h; "
                                        "a new sweep name is shown once one of them finishes",
                                        kMaxSweeps, kSilentRunningSeconds / 3600));
  Shown& shown = sweeps_[sweep];
  shown.running = state == "running";
  shown.updated = std::chrono::steady_clock::now();
  series(sweep, evaluations_, {{"sweep", sweep}, {"state", "planned"}}).Set(planned);
  series(sweep, evaluations_, {{"sweep", sweep}, {"state", "done"}}).Set(done);
  series(sweep, epoch_, {{"sweep", sweep}}).Set(epoch);
  series(sweep, running_, {{"sweep", sweep}}).Set(state == "running" ? 1 : 0);
  if (state == "running") return;

  series(sweep, finished_at_, {{"sweep", sweep}}).Set(std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  series(sweep, complete_, {{"sweep", sweep}}).Set(message.value("complete", false) ? 1 : 0);
  if (!has_headline) return;
  const auto& headline = message["headline"];
  series(sweep, regressions_, {{"sweep", sweep}}).Set(regressions);
  for (auto* old : shown.fast_1) {
    shown.series.erase({&fast_1_, old});
    fast_1_.Remove(old);
  }
  shown.fast_1.clear();
  if (!has_fast_1) return;
  const auto baseline = headline["baseline"].get<std::string>();
  std::size_t models = 0;
  for (const auto& [model, value] : headline["fast_1"].items()) {  // sorted by name
    if (models == kMaxModels) break;
    if (!value.is_number() || model.size() > kMaxModelChars) continue;
    auto& g = series(sweep, fast_1_, {{"sweep", sweep}, {"model", model}, {"baseline", baseline}});
    g.Set(std::clamp(value.get<double>(), 0.0, 1.0));
    shown.fast_1.insert(&g);
    ++models;
  }
}

prometheus::Gauge& SweepMetrics::series(const std::string& sweep, prometheus::Family<prometheus::Gauge>& family,
                                        const std::map<std::string, std::string>& labels) {
  prometheus::Gauge& gauge = family.Add(labels);
  sweeps_[sweep].series.insert({&family, &gauge});
  return gauge;
}

bool SweepMetrics::make_room() {
  const auto now = std::chrono::steady_clock::now();
  auto oldest = sweeps_.end();
  for (auto it = sweeps_.begin(); it != sweeps_.end(); ++it) {
    const bool silent = std::chrono::duration<double>(now - it->second.updated).count() >= kSilentRunningSeconds;
    if (it->second.running && !silent) continue;
    if (oldest == sweeps_.end() || it->second.updated < oldest->second.updated) oldest = it;
  }
  if (oldest == sweeps_.end()) return false;
  for (const auto& [family, gauge] : oldest->second.series) family->Remove(gauge);
  sweeps_.erase(oldest);
  return true;
}

}  // namespace kbv::kbvd
