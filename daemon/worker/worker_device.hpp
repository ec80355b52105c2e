// worker/worker_device.hpp — where the worker's tensors live and how one call is timed.
// The host device maps the evaluator's shared-memory arena; the CUDA device opens the
// evaluator's device buffers through CUDA IPC and times with events on its stream.
#pragma once

#include <kbv/plugin.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::worker {

struct TimedCall {
  kbv_status status = KBV_STATUS_INTERNAL;
  int64_t elapsed_ns = 0;
  std::string error;       // the candidate's set_error text, or what the worker saw fail
  bool exception = false;  // a C++ exception escaped run() (a raw C ABI candidate)
  std::string cuda_error;  // CUDA: the last CUDA error run() left on its thread ("" if none)
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
  // `candidate`: info.run is the candidate's (false for a null call, whose run() does nothing).
  virtual TimedCall timed_call(const kbv_plugin_info& info, void* state, const kbv_call& call, bool cold_cache, bool candidate) = 0;
  // Extra facts about the last call for the evaluator to cross-check (CUDA: kernel trace).
  virtual nlohmann::json last_call_observations() { return nlohmann::json::object(); }
  // Runs `work` (loading the candidate: its static initialisers and create()) and says what the
  // device saw of it (CUDA: device memory it allocated, in the last_call_observations keys).
  virtual nlohmann::json observe_untimed(const std::function<void()>& work) {
    work();
    return nlohmann::json::object();
  }
  // The device's memory in bytes (CUDA: sizes the worker's address-space limit); 0 on host.
  virtual uint64_t device_memory_bytes() const { return 0; }
};

// Calls info.run and catches a C++ exception that escapes it (a raw C ABI candidate written in
// C++; the SDK's helper catches its own): *what then says so, and the status is INTERNAL.
kbv_status run_candidate(const kbv_plugin_info& info, void* state, const kbv_call& call, bool* threw, std::string* what);

std::unique_ptr<WorkerDevice> make_host_device();
#ifdef KBV_HAVE_CUDA
std::unique_ptr<WorkerDevice> make_cuda_device(int gpu);
#endif

}  // namespace kbv::worker
