// eval/kernel_breakdown.cpp — timing.candidate_kernels from the traced calls' kernel timelines.
#include "eval/kernel_breakdown.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

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

// A CUPTI kernel name as C++ writes it ("void ns::kernel<T>(T)" for "_ZN2ns6kernelI…"), cut to
// kMaxKernelNameInText; a name that is not a mangled one stays as it is (extern "C" kernels).
std::string readable_kernel_name(const std::string& name) {
  std::string text = name;
  if (name.rfind("_Z", 0) == 0) {  // a mangled function name (__cxa_demangle also reads "b" as the type bool)
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
    if (status == 0 && demangled) text = demangled.get();
  }
  if (text.rfind("void ", 0) == 0) text.erase(0, 5);
  if (text.size() > kMaxKernelNameInText) text = text.substr(0, kMaxKernelNameInText - 1) + "~";
  return text;
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

std::vector<std::string> candidate_kernels_text(const nlohmann::json& account, const std::function<std::string(double)>& seconds_text) {
  if (!account.is_object() || !account.contains("kernels") || !account["kernels"].is_array() || account["kernels"].empty()) return {};
  const nlohmann::json& kernels = account["kernels"];
  const bool by_position = account.value("by", "") == "position";
  const auto seconds = [&](const nlohmann::json& row, const char* key) { return row.contains(key) && row[key].is_number() ? row[key].get<double>() : 0.0; };
  std::vector<std::string> lines;
  lines.push_back((by_position ? std::to_string(kernels.size()) + " a call, " : std::to_string(kernels.size()) + " distinct, calls differ; ") +
                  seconds_text(seconds(account, "kernel_sum_s")) + " running, " + seconds_text(seconds(account, "gap_sum_s")) +
                  " idle between them (CUPTI, medians of " + std::to_string(account.value("samples", 0)) + " timed calls)");
  for (size_t i = 0; i < kernels.size() && i < kMaxKernelLinesInText; ++i) {
    const nlohmann::json& row = kernels[i];
    const std::string name = readable_kernel_name(row.contains("name") && row["name"].is_string() ? row["name"].get<std::string>() : "");
    std::string line = (by_position ? "#" + std::to_string(i) + " " : "") + seconds_text(seconds(row, "median_s"));
    if (!by_position) line += " x" + std::to_string(static_cast<long long>(seconds(row, "launches_per_call")));
    lines.push_back(line + "  " + name);
  }
  if (kernels.size() > kMaxKernelLinesInText) lines.push_back("+" + std::to_string(kernels.size() - kMaxKernelLinesInText) + " more (timing.candidate_kernels in --json)");
  return lines;
}

}  // namespace kbv::eval
