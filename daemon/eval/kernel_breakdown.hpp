// eval/kernel_breakdown.hpp — where a candidate's kernel span goes, kernel by kernel, over the
// kept timing samples (the report's timing.candidate_kernels): each traced call's kernels as the
// worker's CUPTI window listed them, their durations and the device time idle before each.
// Diagnostic only: the worker's process reports it, so no verdict reads it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::eval {

// One kernel of a traced call, in start order.
struct TracedKernel {
  std::string name;
  double duration_s = 0;
  double gap_before_s = 0;  // device time since the call's earlier kernels ended (0 when overlapping)
};

// The worker's "kernel_timeline" ([name index into kernel_names or -1, duration ns, gap ns] per
// kernel) read with that call's kernel names; empty when absent or malformed (untrusted message).
std::vector<TracedKernel> traced_kernels(const nlohmann::json& observed, const std::vector<std::string>& kernel_names);

// Null without a traced sample. Otherwise `samples` (the traced kept samples), `kernel_sum_s` and
// `gap_sum_s` (medians over them of each call's kernel time and idle time between its kernels),
// and `kernels`: by position (`by` "position") when every sample ran the same kernels in the same
// order, each with `position`, `name`, `median_s` and `median_gap_before_s`; else by name (`by`
// "name"), each with `name`, `launches_per_call` and `median_s` (per call, summed over its
// launches), slowest first.
nlohmann::json candidate_kernels(const std::vector<std::vector<TracedKernel>>& samples);

// The text report's account of candidate_kernels(): a headline (kernels a call, their time, the
// idle time between them), then one line per kernel (at most kMaxKernelLinesInText, the rest
// counted), each name demangled and cut to kMaxKernelNameInText characters. Times through
// `seconds_text`. Empty for a null or malformed account. Names are the worker's: the caller
// makes them printable.
constexpr size_t kMaxKernelLinesInText = 8;
constexpr size_t kMaxKernelNameInText = 72;
std::vector<std::string> candidate_kernels_text(const nlohmann::json& account, const std::function<std::string(double)>& seconds_text);

}  // namespace kbv::eval
