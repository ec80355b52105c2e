// eval/kernel_breakdown.cpp — timing.candidate_kernels from the traced calls' kernel timelines.
#include "eval/kernel_breakdown.hpp"

#include <algorithm>
#include <map>

#include "eval/report_stats.hpp"

namespace kbv::eval {
namespace {

constexpr double kSecondsPerNanosecond = 1e-9;
// The worker sends at most this many kernels a call (worker/cuda_device.cpp, kMaxReportedKernelNames);
// a longer list is not the worker's.
constexpr size_t kMaxTimelineKernels = 64;

double median_of(std::vector<double> values) { return summarize(std::move(values)).median_s; }

bool same_sequence(const std::vector<TracedKernel>& a, const std::vector<TracedKernel>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const TracedKernel& x, const TracedKernel& y) { return x.name == y.name; });
}

}  // namespace

std::vector<TracedKernel> traced_kernels(const nlohmann::json& observed, const std::vector<std::string>& kernel_names) {
  if (!observed.is_object() || !observed.contains("kernel_timeline") || !observed["kernel_timeline"].is_array()) return {};
  const nlohmann::json& timeline = observed["kernel_timeline"];
  if (timeline.size() > kMaxTimelineKernels) return {};
  std::vector<TracedKernel> kernels;
  for (const auto& entry : timeline) {
    if (!entry.is_array() || entry.size() != 3 || !entry[0].is_number_integer() || !entry[1].is_number() || !entry[2].is_number()) return {};
    const long long index = entry[0].get<long long>();
    const double duration_ns = entry[1].get<double>(), gap_ns = entry[2].get<double>();
    if (!(duration_ns >= 0) || !(gap_ns >= 0)) return {};
    TracedKernel kernel;
    kernel.name = index >= 0 && static_cast<size_t>(index) < kernel_names.size() ? kernel_names[static_cast<size_t>(index)] : "(unnamed)";
    kernel.duration_s = duration_ns * kSecondsPerNanosecond;
    kernel.gap_before_s = gap_ns * kSecondsPerNanosecond;
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

nlohmann::json candidate_kernels(const std::vector<std::vector<TracedKernel>>& samples) {
  std::vector<const std::vector<TracedKernel>*> traced;
  for (const auto& sample : samples)
    if (!sample.empty()) traced.push_back(&sample);
  if (traced.empty()) return nullptr;
  std::vector<double> kernel_sums, gap_sums;
  for (const auto* sample : traced) {
    double kernel_sum = 0, gap_sum = 0;
    for (const TracedKernel& kernel : *sample) kernel_sum += kernel.duration_s, gap_sum += kernel.gap_before_s;
    kernel_sums.push_back(kernel_sum);
    gap_sums.push_back(gap_sum);
  }
  nlohmann::json result = {{"samples", traced.size()}, {"kernel_sum_s", median_of(kernel_sums)}, {"gap_sum_s", median_of(gap_sums)}};
  const bool by_position =
      std::all_of(traced.begin(), traced.end(), [&](const auto* sample) { return same_sequence(*sample, *traced.front()); });
  nlohmann::json kernels = nlohmann::json::array();
  if (by_position) {
    for (size_t position = 0; position < traced.front()->size(); ++position) {
      std::vector<double> durations, gaps;
      for (const auto* sample : traced) durations.push_back((*sample)[position].duration_s), gaps.push_back((*sample)[position].gap_before_s);
      kernels.push_back({{"position", position},
                         {"name", (*traced.front())[position].name},
                         {"median_s", median_of(durations)},
                         {"median_gap_before_s", median_of(gaps)}});
    }
  } else {
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_name;  // name → (per-call sums, launches)
    for (const auto* sample : traced)
      for (const TracedKernel& kernel : *sample) by_name[kernel.name];
    for (const auto* sample : traced) {
      std::map<std::string, std::pair<double, double>> call;
      for (const TracedKernel& kernel : *sample) call[kernel.name].first += kernel.duration_s, call[kernel.name].second += 1;
      for (auto& [name, series] : by_name) {
        const auto found = call.find(name);
        series.first.push_back(found == call.end() ? 0.0 : found->second.first);
        series.second.push_back(found == call.end() ? 0.0 : found->second.second);
      }
    }
    std::vector<nlohmann::json> rows;
    for (const auto& [name, series] : by_name)
      rows.push_back({{"name", name}, {"launches_per_call", median_of(series.second)}, {"median_s", median_of(series.first)}});
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a["median_s"].template get<double>() > b["median_s"].template get<double>(); });
    for (auto& row : rows) kernels.push_back(std::move(row));
  }
  result["by"] = by_position ? "position" : "name";
  result["kernels"] = std::move(kernels);
  return result;
}

}  // namespace kbv::eval
