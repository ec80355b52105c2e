// worker/worker_device.hpp — where the worker's tensors live and how one call is timed.
// The host device maps the evaluator's shared-memory arena; the CUDA device opens the
// evaluator's device buffers through CUDA IPC and times with events on its stream.
#pragma once

#include <kbv/plugin.h>

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::worker {

struct TimedCall {
  kbv_status status = KBV_STATUS_INTERNAL;
  int64_t elapsed_ns = 0;
  std::string error;
};

class WorkerDevice {
 public:
  virtual ~WorkerDevice() = default;
  // Makes the arena described by the setup message addressable; returns its base address.
  // `arena_fd` is the memfd that came with the message (host) or -1 (CUDA: IPC handles).
  virtual void* map_arena(const nlohmann::json& setup, int arena_fd) = 0;
  virtual void* stream() = 0;
  // Runs the plugin once and measures it as the device demands (host: steady clock;
  // CUDA: events around the call on the stream, then a stream synchronize). `cold_cache`:
  // flush the device's caches first (CUDA: reset persisting L2 lines, then overwrite L2).
  virtual TimedCall timed_call(const kbv_plugin_info& info, void* state, const kbv_call& call, bool cold_cache) = 0;
  // Extra facts about the last call for the evaluator to cross-check (CUDA: kernel trace).
  virtual nlohmann::json last_call_observations() { return nlohmann::json::object(); }
};

std::unique_ptr<WorkerDevice> make_host_device();
#ifdef KBV_HAVE_CUDA
std::unique_ptr<WorkerDevice> make_cuda_device(int gpu);
#endif

}  // namespace kbv::worker
