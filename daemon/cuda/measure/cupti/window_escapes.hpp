// cupti/window_escapes.hpp — a call's work that CUPTI saw outside its timed window: kernels and
// copies before the first marker or after the last, work between two windows, and kernels named
// as kbv's own beyond the ones the worker launched. Pure host logic over a TraceWindow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measure/cupti/trace_window.hpp"

namespace kbv::cuda {

// What the worker itself put into a window (cuda_device.cpp, timed_call): markers and a launch
// gate on the timed stream, and the cold-L2 flush (one memset of the flush buffer's bytes
// before the first marker).
struct HarnessLaunches {
  uint32_t timed_stream_id = 0;
  size_t markers = 0;
  size_t gates = 0;
  uint64_t flush_memset_bytes = 0;  // 0: no flush in this window
};

// One line per record, "name (stream S)" or "memset of N bytes (stream S)", for the report.
struct WindowEscapes {
  std::vector<std::string> early_kernels;  // started before the first marker
  std::vector<std::string> late_kernels;   // still running after the last marker started
  std::vector<std::string> early_copies;   // copies and memsets, the flush and uploads from the host excepted
  std::vector<std::string> late_copies;
  std::vector<std::string> between;        // kernels and copies between the previous window and this one
  std::vector<std::string> impostors;      // harness names beyond what the worker launched
};

// Where the tracer files a record that ran from `start_ns` to `end_ns` (cupti_tracer.cpp): what
// started after the open window began (`begin_ns`) is the window's, and what started before and
// ended after ran between windows (the window opens once the device is idle, so only work
// launched while begin_window() waited, or CUPTI's conversion of GPU timestamps to its host
// clock, puts a record across the opening: either way it is not the call's); records of earlier
// windows that CUPTI delivers late ended before the last window closed (`last_end_ns`) and are
// dropped; what ended after that and before the open window began, or arrives while no window
// is open, ran between windows; before the first window (last_end_ns 0) nothing but the open
// window's own records is kept (the worker's start-up).
enum class RecordPlace { drop, between, window };
RecordPlace place_record(uint64_t start_ns, uint64_t end_ns, uint64_t last_end_ns, bool window_open, uint64_t begin_ns);

// The markers that bound the timed window are the first and the last marker-named kernels on
// the timed stream; with no two of them, nothing is early and the window's end bounds the late.
WindowEscapes find_escapes(const TraceWindow& window, const HarnessLaunches& launched);

}  // namespace kbv::cuda
