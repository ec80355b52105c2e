// kbvd's configuration: the validated structure loaded from YAML plus command-line overrides.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbv::kbvd {

// Where candidates are evaluated: "auto" picks CUDA when GPUs are found, else the host.
enum class DeviceKind { automatic, host, cuda };

struct WatchConfig {
  std::filesystem::path dir;
  double rescan_interval_s = 30.0;  // fallback for lost inotify events (overflow, NFS)
  std::uint64_t max_file_bytes = 256ull << 20;  // a candidate .so larger than this is refused
  double settle_s = 2.0;  // a file must be closed and unchanged this long (watch/settle.hpp)
};

struct StoreConfig {
  std::filesystem::path state_dir;  // holds kbvd.sqlite3 and objects/ (content-addressed .so)
  // "normal": durable against a killed daemon (WAL); "full": also against power loss.
  std::string synchronous = "normal";
};

struct ControlConfig {
  std::filesystem::path socket;
  unsigned mode = 0660;  // who may talk to kbvd: owner and group
  int max_clients = 64;        // connected at once (control/server.hpp: ControlLimits)
  double idle_timeout_s = 10;  // a client silent this long is dropped
};

struct MetricsConfig {
  std::string listen;  // host:port for /metrics; empty turns the exporter off
};

struct EvaluatorConfig {
  std::filesystem::path command;  // default: the kbv binary beside kbvd
  std::vector<std::string> extra_args;
  double timeout_s = 1800.0;  // a child still running after this is killed: verdict timeout
  std::string shapes;         // "", "small" or "default": passed as --shapes when set
  std::filesystem::path key_file;  // passed as --key-file when set; must exist (kbv keygen makes it)
  // Passed as --forbid: kbvd's results store and watch folder (derived from store.state_dir and
  // watch.dir), so no worker can read them even where Landlock is missing.
  std::vector<std::filesystem::path> forbid;
  bool warm_spare = true;
  // Queued candidates of one problem (their manifests name it) handed to the warm spare at once:
  // one evaluator evaluates them in turn and shares its data plane, family validations and an
  // early-started worker between them (eval/evaluation_session.hpp); 1: one each.
  int batch = 8;
  int max_attempts = 3;  // evaluations interrupted this often (daemon killed) end as crash
};

struct DevicesConfig {
  DeviceKind kind = DeviceKind::automatic;
  std::optional<int> gpus;  // unset: CUDA_VISIBLE_DEVICES, else /dev/nvidiaN nodes
  std::filesystem::path dev_dir = "/dev";
};

struct EpochConfig {
  double length_days = 7.0;
  std::string origin_text = "2026-01-01";
  std::chrono::system_clock::time_point origin;
};

struct QueueConfig {
  std::uint64_t max_depth = 100000;  // back-pressure: files wait in the folder beyond this
};

struct ShutdownConfig {
  double drain_timeout_s = 60.0;  // SIGTERM: in-flight work this long, then requeued
};

struct LogConfig {
  std::string level = "info";
};

struct Config {
  std::filesystem::path file;  // where it was loaded from (empty: defaults only)
  WatchConfig watch;
  StoreConfig store;
  ControlConfig control;
  MetricsConfig metrics;
  EvaluatorConfig evaluator;
  DevicesConfig devices;
  EpochConfig epoch;
  QueueConfig queue;
  ShutdownConfig shutdown;
  LogConfig log;
};

// One command-line override of a field, e.g. {"evaluator.timeout_s", "60", "--set"}.
struct Override {
  std::string field;
  std::string value;
  std::string origin;
};

// A configuration problem; what() names the file (or option), the field and the fix.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads and validates; relative paths resolve against the file's folder (overrides: the
// working directory). Throws ConfigError.
Config load_config(const std::filesystem::path& file, const std::vector<Override>& overrides);

// The evaluator used when the configuration names none: <folder of kbvd>/kbv.
std::filesystem::path default_evaluator_command();

}  // namespace kbv::kbvd
