// worker/worker_main.cpp — kbv-worker: the untrusted process that loads ONE candidate.
//
// Started by the evaluator with the control socket on fd 3 and the sandbox violation pipe on
// fd 5; the host arena arrives with the setup message (protocol/messages.hpp). It confines itself
// and brings its device up before it knows its candidate (so a warm spare's worker is ready when
// the candidate comes), then loads the candidate it is sent, reports what the candidate declares,
// runs the calls it is sent and exits. It holds
// nothing worth stealing: no reference output, no key, no results.
#include <sys/prctl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <deque>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.hpp"
#include "worker/exchange_cpu.hpp"
#include "worker/plugin_loader.hpp"
#include "worker/sandbox_setup.hpp"
#include "worker/worker_device.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace {

// One slot's tensor descriptors, with storage for the names they point to.
struct SlotCall {
  std::deque<std::string> names;
  std::vector<kbv_tensor> inputs, outputs;
  kbv_call call{};
};

// The setup message's dtype name as the ABI's kbv_dtype; int64 and bool only for a plugin that
// chose ABI 2 or later (kbv/plugin.h, History: the evaluator refuses the others first).
uint32_t abi_dtype(const json& tensor, uint32_t abi_version) {
  const std::string name = tensor.value("dtype", std::string("float32"));
  if (name == "float32") return KBV_DTYPE_F32;
  const uint32_t dtype = name == "int64" ? KBV_DTYPE_I64 : name == "bool" ? KBV_DTYPE_BOOL : 0;
  if (dtype == 0) throw std::runtime_error("tensor dtype '" + name + "' is unknown to this kbv-worker");
  if (abi_version < 2) throw std::runtime_error("a " + name + " tensor cannot be passed to a plugin that chose ABI " + std::to_string(abi_version));
  return dtype;
}

kbv_tensor describe(const json& tensor, char* arena, kbv_device device, uint32_t abi_version, std::deque<std::string>& names) {
  kbv_tensor raw{};
  raw.struct_size = sizeof(kbv_tensor);
  raw.abi_version = KBV_ABI_VERSION;
  names.push_back(tensor.at("name").get<std::string>());
  raw.name = names.back().c_str();
  raw.dtype = abi_dtype(tensor, abi_version);
  raw.device = device;
  const auto shape = tensor.at("shape").get<std::vector<int64_t>>();
  if (shape.size() > KBV_MAX_RANK) throw std::runtime_error("rank above KBV_MAX_RANK");
  raw.rank = static_cast<uint32_t>(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    raw.shape[d] = shape[d];
    raw.strides[d] = stride;
    stride *= shape[d];
  }
  raw.data = arena + tensor.at("offset").get<size_t>();
  return raw;
}

namespace protocol = kbv::protocol;

nlohmann::json to_json(const kbv::worker::ConfinementReport& report) {
  return {{"applied", report.applied}, {"unavailable", report.unavailable}};
}

// A name the plugin gives (its problem, its own label), at most kMaxPluginNameBytes of it: a
// megabyte-long name would outgrow the control socket's message and stall the load.
constexpr size_t kMaxPluginNameBytes = 256;
std::string bounded_text(const char* text) {
  if (!text) return "";
  const size_t length = strnlen(text, kMaxPluginNameBytes + 1);
  if (length <= kMaxPluginNameBytes) return std::string(text, length);
  return std::string(text, kMaxPluginNameBytes) + "… (cut at " + std::to_string(kMaxPluginNameBytes) + " bytes)";
}

// The device's whole per-call routine (cache flush, events, trace window, synchronisation) around
// a run() that does nothing, on `call`: what a call costs besides the candidate's own work.
void null_call(kbv::worker::WorkerDevice& device, kbv_plugin_info info, const kbv_call& call, bool cold) {
  info.run = [](void*, const kbv_call*) -> kbv_status { return KBV_STATUS_OK; };
  (void)device.timed_call(info, nullptr, call, cold, /*candidate=*/false);
}

// The answer to a ping; a null call's carries what the device saw of it (its trace: work the
// candidate ran between calls shows in the next window, and a null call is one).
json pong(const json& ping, kbv::worker::WorkerDevice& device, bool null_call_ran) {
  json answer = {{"type", "pong"}, {"id", ping.value("id", 0)}};
  if (null_call_ran) answer["observed"] = device.last_call_observations();
  return answer;
}

int run_worker(const po::variables_map& options) {
  const int control = kbv::protocol::kControlFd;
  const std::string device_name = options["device"].as<std::string>();
  const kbv_device device = device_name == "cuda" ? KBV_DEVICE_CUDA : KBV_DEVICE_HOST;

  kbv::worker::SandboxSettings sandbox;
  sandbox.enabled = options["sandbox"].as<std::string>() != "off";
  sandbox.scratch_dir = options["scratch"].as<std::string>();
  sandbox.candidate = options["candidate-dir"].as<std::string>();
  sandbox.forbidden = options.count("forbid") ? options["forbid"].as<std::vector<std::string>>() : std::vector<std::string>{};
  sandbox.cuda = device == KBV_DEVICE_CUDA;
  std::string sandbox_error;
  kbv::worker::ConfinementReport confinement;
  if (!kbv::worker::confine_worker(sandbox, &confinement, &sandbox_error)) {
    kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", "sandbox_error"}, {"error", sandbox_error}});
    return protocol::kWorkerExitLoadFailed;
  }

  std::unique_ptr<kbv::worker::WorkerDevice> worker_device;
#ifdef KBV_HAVE_CUDA
  if (device == KBV_DEVICE_CUDA) {
    try {
      worker_device = kbv::worker::make_cuda_device(options["gpu"].as<int>());
    } catch (const std::exception& error) {
      kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", "device_unavailable"}, {"error", error.what()}});
      return protocol::kWorkerExitLoadFailed;
    }
    // The address-space limit waits for the device (sandbox/address_space.hpp), and comes
    // before the candidate is loaded.
    if (!kbv::worker::limit_cuda_address_space(sandbox, worker_device->device_memory_bytes(), &confinement, &sandbox_error)) {
      kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", "sandbox_error"}, {"error", sandbox_error}});
      return protocol::kWorkerExitLoadFailed;
    }
  }
#endif
  if (!worker_device && device == KBV_DEVICE_CUDA) {
    kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", "load_error"}, {"error", "this kbv-worker was built without the CUDA device"}});
    return protocol::kWorkerExitLoadFailed;
  }
  if (!worker_device) worker_device = kbv::worker::make_host_device();

  // Confined and up: the candidate may come now, copied by the evaluator into the read-only
  // folder this worker was started with.
  kbv::protocol::send_message(control, {{"type", "started"}});
  std::filesystem::path candidate_file;
  for (;;) {
    bool eof = false;
    const auto message = kbv::protocol::receive_message(control, -1, &eof);
    if (!message) return eof ? protocol::kWorkerExitOk : protocol::kWorkerExitControlLost;
    const std::string type = message->value("type", "");
    if (type == "exit") return protocol::kWorkerExitOk;
    if (type == "ping") {
      // Null calls before any candidate code is here: the evaluator's trusted measure of what a
      // call costs besides the candidate (a loaded candidate can lengthen the later ones).
      if (message->value("null_call", false)) {
        kbv_plugin_info bare{};
        bare.struct_size = sizeof bare;
        bare.abi_version = KBV_ABI_VERSION;
        kbv_call nothing{};
        nothing.struct_size = sizeof nothing;
        nothing.abi_version = KBV_ABI_VERSION;
        nothing.problem = "";
        nothing.stream = worker_device->stream();
        null_call(*worker_device, bare, nothing, message->value("cold", false));
      }
      kbv::protocol::send_message(control, pong(*message, *worker_device, message->value("null_call", false)));
      continue;
    }
    if (type != "load") return protocol::kWorkerExitUnknownMessage;
    const std::string file = message->value("file", "");
    if (file.empty() || file == "." || file == ".." || file.find('/') != std::string::npos) return protocol::kWorkerExitBadRequest;
    candidate_file = std::filesystem::path(options["candidate-dir"].as<std::string>()) / file;
    break;
  }

  // Loading runs the candidate's static initialisers and create(): what they allocate on the
  // device is held through every call and counts in its memory figure.
  std::optional<kbv::worker::LoadedPlugin> loaded;
  const json load_observed = worker_device->observe_untimed(
      [&] { loaded.emplace(candidate_file.string(), kbv::worker::worker_host_api()); });
  kbv::worker::LoadedPlugin& plugin = *loaded;
  if (plugin.failure() != kbv::worker::LoadFailure::none) {
    const char* kind = plugin.failure() == kbv::worker::LoadFailure::abi_error ? "abi_error" : "load_error";
    kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", kind}, {"error", plugin.error()}});
    return protocol::kWorkerExitLoadFailed;
  }
  const kbv_plugin_info& info = plugin.info();
  const bool sent = kbv::protocol::send_message(control, {{"type", "ready"},
                                                          {"abi_version", info.abi_version},
                                                          {"problem", bounded_text(info.problem)},
                                                          {"device", info.device == KBV_DEVICE_CUDA ? "cuda" : "host"},
                                                          {"candidate_name", bounded_text(info.candidate_name)},
                                                          {"sandbox", to_json(confinement)},
                                                          {"load_observed", load_observed}});
  if (!sent) {
    kbv::protocol::send_message(control, {{"type", "load_failed"}, {"kind", "load_error"},
                                          {"error", "the worker could not report the loaded candidate to the evaluator (its message exceeds " +
                                                        std::to_string(kbv::protocol::kMaxMessageBytes) + " bytes)"}});
    return protocol::kWorkerExitLoadFailed;
  }

  // Host only: the exchange's CPU split (diagnostic). CUDA's calls report their own steps.
  kbv::worker::ExchangeCpu exchange_cpu(device == KBV_DEVICE_HOST);
  std::deque<SlotCall> slots;
  std::deque<std::string> attribute_names;
  std::vector<kbv_attribute> attributes;
  std::string problem_name;
  for (;;) {
    bool eof = false;
    int passed_fd = -1;
    auto message = kbv::protocol::receive_message(control, -1, &eof, &passed_fd);
    exchange_cpu.received();
    if (!message) return eof ? protocol::kWorkerExitOk : protocol::kWorkerExitControlLost;
    const std::string type = message->value("type", "");
    if (type == "exit") return protocol::kWorkerExitOk;
    if (type == "setup") {
      try {
        char* arena = static_cast<char*>(worker_device->map_arena(*message, passed_fd));
        problem_name = message->at("problem").get<std::string>();
        for (const auto& [name, value] : message->at("attributes").items()) {
          attribute_names.push_back(name);
          attributes.push_back({sizeof(kbv_attribute), KBV_ABI_VERSION, attribute_names.back().c_str(), value.get<double>()});
        }
        for (const auto& slot : message->at("slots")) {
          SlotCall& built = slots.emplace_back();
          for (const auto& tensor : slot.at("inputs")) built.inputs.push_back(describe(tensor, arena, device, info.abi_version, built.names));
          for (const auto& tensor : slot.at("outputs")) built.outputs.push_back(describe(tensor, arena, device, info.abi_version, built.names));
          built.call.struct_size = sizeof(kbv_call);
          built.call.abi_version = info.abi_version;
          built.call.problem = problem_name.c_str();
          built.call.inputs = built.inputs.data();
          built.call.num_inputs = static_cast<uint32_t>(built.inputs.size());
          built.call.outputs = built.outputs.data();
          built.call.num_outputs = static_cast<uint32_t>(built.outputs.size());
          built.call.attributes = attributes.data();
          built.call.num_attributes = static_cast<uint32_t>(attributes.size());
          built.call.stream = worker_device->stream();
        }
      } catch (const std::exception& error) {
        kbv::protocol::send_message(control, {{"type", "setup_failed"}, {"error", error.what()}});
        return protocol::kWorkerExitSetupFailed;
      }
      kbv::protocol::send_message(control, {{"type", "setup_done"}});
      exchange_cpu.answered();
      continue;
    }
    if (type == "ping") {  // the evaluator measures its round-trip overhead without the candidate
      const bool null_call_ran = message->value("null_call", false) && !slots.empty();
      if (null_call_ran) {
        const size_t slot = std::min(message->value("slot", size_t{0}), slots.size() - 1);
        null_call(*worker_device, info, slots[slot].call, message->value("cold", false));
      }
      json answer = pong(*message, *worker_device, null_call_ran);
      if (null_call_ran) exchange_cpu.add_to(answer["observed"]);
      kbv::protocol::send_message(control, answer);
      exchange_cpu.answered();
      continue;
    }
    if (type == "call") {
      const size_t slot = message->value("slot", size_t{0});
      if (slot >= slots.size()) return protocol::kWorkerExitBadRequest;
      const auto result = worker_device->timed_call(info, plugin.state(), slots[slot].call, message->value("cold", false),
                                                        /*candidate=*/true);
      json done = {{"type", "done"},
                   {"id", message->value("id", 0)},
                   {"status", static_cast<int>(result.status)},
                   {"elapsed_ns", result.elapsed_ns},
                   {"error", result.error},
                   {"exception", result.exception},
                   {"cuda_error", result.cuda_error}};
      done["observed"] = worker_device->last_call_observations();
      exchange_cpu.add_to(done["observed"]);
      kbv::protocol::send_message(control, done);
      exchange_cpu.answered();
      continue;
    }
    return protocol::kWorkerExitUnknownMessage;  // the evaluator and worker disagree; stop
  }
}

}  // namespace

int main(int argc, char** argv) {
  // The evaluator reads the worker's stderr: stdout joins it there, line by line, so the
  // candidate's printf debugging reaches the result's tail (kbv eval --verbose) in order and
  // survives a crash that would lose a full buffer.
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) std::setvbuf(stdout, nullptr, _IOLBF, 0);
  po::options_description description("kbv-worker (started by kbv; not for direct use)");
  description.add_options()("candidate-dir", po::value<std::string>()->required(), "the read-only folder the candidate will be copied into")(
      "device", po::value<std::string>()->default_value("host"), "host or cuda")(
      "gpu", po::value<int>()->default_value(0), "CUDA device ordinal")(
      "scratch", po::value<std::string>()->default_value("/tmp"), "the only writable directory")(
      "forbid", po::value<std::vector<std::string>>(), "paths the candidate must not read")(
      "sandbox", po::value<std::string>()->default_value("on"), "on or off")(
      "parent-pid", po::value<long>(), "the evaluator: die with it (PR_SET_PDEATHSIG)");
  po::variables_map options;
  try {
    po::store(po::parse_command_line(argc, argv, description), options);
    po::notify(options);
  } catch (const std::exception& error) {
    std::cerr << "kbv-worker: " << error.what() << "\n" << description;
    return protocol::kWorkerExitUsage;
  }
  // Die with the evaluator however it ends (SIGKILL included). A parent that died before the
  // prctl is seen by the check after it: we were re-parented already.
  if (options.count("parent-pid")) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != options["parent-pid"].as<long>()) return 9;
  }
  try {
    return run_worker(options);
  } catch (const std::exception& error) {
    // kbv's own code failed (a CUDA call around the candidate's run(), say): the evaluator
    // gets the words, with the candidate's last set_error text, before the worker exits.
    protocol::send_message(protocol::kControlFd, {{"type", "worker_error"},
                                                  {"error", error.what()},
                                                  {"candidate_error", kbv::worker::last_plugin_error()}});
    std::fprintf(stderr, "kbv-worker: %s\n", error.what());
    return protocol::kWorkerExitInternalError;
  }
}
