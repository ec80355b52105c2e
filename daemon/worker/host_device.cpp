// worker/host_device.cpp — the host device: a shared-memory arena and steady-clock timing.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include "protocol/messages.hpp"
#include "worker/exchange_cpu.hpp"
#include "worker/plugin_loader.hpp"
#include "worker/worker_device.hpp"

namespace kbv::worker {
namespace {

class HostDevice final : public WorkerDevice {
 public:
  ~HostDevice() override {
    if (base_ != MAP_FAILED) ::munmap(base_, bytes_);
  }
  void* map_arena(const nlohmann::json& setup, int arena_fd) override {
    if (arena_fd < 0) throw std::runtime_error("the setup message carried no arena");
    bytes_ = setup.at("arena_bytes").get<size_t>();
    base_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, arena_fd, 0);
    ::close(arena_fd);
    if (base_ == MAP_FAILED) throw std::runtime_error("cannot map the shared arena");
    return base_;
  }
  void* stream() override { return nullptr; }
  TimedCall timed_call(const kbv_plugin_info& info, void* state, const kbv_call& call, bool, bool) override {
    TimedCall result;
    last_plugin_error().clear();
    std::string thrown;
    const double cpu_start = thread_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    result.status = run_candidate(info, state, call, &result.exception, &thrown);
    const auto end = std::chrono::steady_clock::now();
    const double cpu_end = thread_cpu_seconds();
    result.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    result.error = result.exception ? thrown : last_plugin_error();
    // The report's environment.worker_host_steps_s: on the host, a call is its run(), and the
    // CPU time of the thread that ran it (worker_main adds the exchange's: exchange_cpu.hpp).
    observations_ = {{"host_steps_s", {{"run", std::chrono::duration<double>(end - start).count()}, {"run_cpu", cpu_end - cpu_start}}}};
    return result;
  }

  nlohmann::json last_call_observations() override { return observations_; }

 private:
  nlohmann::json observations_ = nlohmann::json::object();
  void* base_ = MAP_FAILED;
  size_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<WorkerDevice> make_host_device() { return std::make_unique<HostDevice>(); }

}  // namespace kbv::worker
