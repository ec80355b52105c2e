// Loads kbvd.yaml, applies overrides and validates every field with errors that name the fix.
#include "config/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <sstream>
#include <yaml-cpp/yaml.h>

#include "watch/settle.hpp"

namespace kbv::kbvd {
namespace {

namespace fs = std::filesystem;

// Upper bounds that catch typos (a timeout in milliseconds, a size in bits), not policy.
constexpr double kMaxSeconds = 7.0 * 24 * 3600;  // one week
constexpr double kMaxEpochDays = 3660.0;         // ten years
// An hour: shorter epochs rotate the hidden families under a running evaluation's feet, and
// below ~1e-9 days the epoch number overflows int64 (1e-300 made it INT64_MIN; red-team).
constexpr double kMinEpochDays = 1.0 / 24;
constexpr int kMaxGpus = 1024;
// A batch beyond this holds queued candidates of other problems back for long.
constexpr int kMaxBatch = 64;
constexpr int kMaxAttempts = 100;
constexpr int kMaxControlClients = 4096;

// Knows where each field came from, to name it in errors.
class Origin {
 public:
  Origin(fs::path file, std::map<std::string, std::string> overridden)
      : file_(std::move(file)), overridden_(std::move(overridden)) {}

  std::string where(const std::string& field, const YAML::Node& node) const {
    if (auto it = overridden_.find(field); it != overridden_.end()) return "option " + it->second;
    // A section only an override created (--set foo.bar=1 makes `foo`): that option, not the file.
    for (const auto& [name, option] : overridden_)
      if (name.size() > field.size() && name.compare(0, field.size(), field) == 0 && name[field.size()] == '.' &&
          !(node.IsDefined() && node.Mark().line >= 0))
        return "option " + option;
    if (file_.empty()) return "(built-in defaults)";
    if (node.IsDefined() && node.Mark().line >= 0)
      return fmt::format("{}:{}", file_.string(), node.Mark().line + 1);
    return file_.string();
  }
  bool overridden(const std::string& field) const { return overridden_.count(field) != 0; }
  const fs::path& file() const { return file_; }

 private:
  fs::path file_;
  std::map<std::string, std::string> overridden_;
};

[[noreturn]] void fail(const std::string& where, const std::string& field,
                       const std::string& problem, const std::string& fix) {
  throw ConfigError(fmt::format("{}: {}: {}; fix: {}", where, field, problem, fix));
}

// One mapping of the file (a section); rejects unknown keys so typos do not pass silently.
class Section {
 public:
  Section(const Origin& origin, const YAML::Node& node, std::string prefix,
          std::vector<std::string> known)
      : origin_(origin), node_(node), prefix_(std::move(prefix)) {
    if (!node_.IsDefined() || node_.IsNull()) return;
    if (!node_.IsMap())
      fail(origin_.where(prefix_, node_), prefix_, "must be a mapping of fields",
           fmt::format("write it as '{}:' followed by indented fields ({})", prefix_,
                       fmt::join(known, ", ")));
    std::map<std::string, YAML::Mark> seen;
    for (const auto& entry : node_) {
      if (!entry.first.IsScalar())
        fail(origin_.where(prefix_, entry.first), prefix_, "a key that is a list or a mapping", "write each field as 'NAME: VALUE'");
      const auto key = entry.first.Scalar();
      if (std::find(known.begin(), known.end(), key) == known.end())
        fail(origin_.where(field(key), entry.first), field(key), "unknown field",
             fmt::format("remove it or use one of: {}", fmt::join(known, ", ")));
      // YAML readers disagree on which of two equal keys wins (yaml-cpp reads the first):
      // a second one is an error, not a silent override.
      if (const auto [it, fresh] = seen.emplace(key, entry.first.Mark()); !fresh)
        fail(origin_.where(field(key), entry.first), field(key),
             fmt::format("given twice (first at line {})", it->second.line + 1), "keep one of them");
    }
  }

  std::string field(const std::string& key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }
  YAML::Node get(const std::string& key) const {
    if (!node_.IsDefined() || node_.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
    return node_[key];
  }
  bool present(const std::string& key) const {
    const auto n = get(key);
    return n.IsDefined() && !n.IsNull();
  }

  std::string scalar(const std::string& key, const std::string& fallback) const {
    const auto n = get(key);
    if (!n.IsDefined() || n.IsNull()) return fallback;
    if (!n.IsScalar())
      fail(where(key, n), field(key), "must be a single value, not a list or mapping",
           fmt::format("write '{}: VALUE'", key));
    return n.Scalar();
  }

  // A number in (min, max], or [min, max] when zero_allowed and min is 0.
  double number(const std::string& key, double fallback, double min, double max,
                const std::string& unit, bool zero_allowed = false) const {
    if (!present(key)) return fallback;
    const auto text = scalar(key, "");
    double value = 0;
    std::istringstream in(text);
    in >> value;
    const bool low_ok = value > min || (zero_allowed && value == min);
    if (!in || !in.eof() || !low_ok || value > max)
      fail(where(key, get(key)), field(key),
           fmt::format("must be a number of {} {} {} and at most {}, got '{}'", unit,
                       zero_allowed ? "from" : "above", min, max, text),
           fmt::format("set {} to e.g. {}", field(key), fallback));
    return value;
  }

  long long integer(const std::string& key, long long fallback, long long min, long long max) const {
    if (!present(key)) return fallback;
    const auto text = scalar(key, "");
    long long value = 0;
    std::istringstream in(text);
    in >> value;
    if (!in || !in.eof() || value < min || value > max)
      fail(where(key, get(key)), field(key),
           fmt::format("must be a whole number from {} to {}, got '{}'", min, max, text),
           fmt::format("set {} to e.g. {}", field(key), fallback));
    return value;
  }

  bool boolean(const std::string& key, bool fallback) const {
    if (!present(key)) return fallback;
    const auto text = scalar(key, "");
    if (text == "true" || text == "yes" || text == "on") return true;
    if (text == "false" || text == "no" || text == "off") return false;
    fail(where(key, get(key)), field(key), fmt::format("must be true or false, got '{}'", text),
         fmt::format("set {} to true or false", field(key)));
  }

  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& choices) const {
    const auto text = scalar(key, fallback);
    if (std::find(choices.begin(), choices.end(), text) == choices.end())
      fail(where(key, get(key)), field(key), fmt::format("'{}' is not a known value", text),
           fmt::format("use one of: {}", fmt::join(choices, ", ")));
    return text;
  }

  fs::path path(const std::string& key, const fs::path& fallback) const {
    const auto text = scalar(key, "");
    if (text.empty()) return fallback;
    fs::path p(text);
    if (p.is_absolute()) return p.lexically_normal();
    // Relative paths follow the file they are written in; overrides follow the shell.
    const fs::path base = origin_.overridden(field(key)) || origin_.file().empty()
                              ? fs::current_path()
                              : fs::absolute(origin_.file()).parent_path();
    return (base / p).lexically_normal();
  }

  std::vector<std::string> strings(const std::string& key) const {
    const auto n = get(key);
    if (!n.IsDefined() || n.IsNull()) return {};
    if (!n.IsSequence())
      fail(where(key, n), field(key), "must be a list of strings",
           fmt::format("write '{}: [\"--flag\", \"value\"]'", key));
    std::vector<std::string> out;
    for (const auto& item : n) {
      if (!item.IsScalar())
        fail(where(key, item), field(key), "every item must be a string",
             "quote each item, e.g. \"--flag\"");
      out.push_back(item.Scalar());
    }
    return out;
  }

  std::string where(const std::string& key, const YAML::Node& n) const {
    return origin_.where(field(key), n);
  }

 private:
  const Origin& origin_;
  YAML::Node node_;
  std::string prefix_;
};

// Parses "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ" as UTC.
std::optional<std::chrono::system_clock::time_point> parse_utc(const std::string& text) {
  std::tm tm{};
  for (const char* format : {"%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d"}) {
    tm = {};
    std::istringstream in(text);
    in >> std::get_time(&tm, format);
    if (in && (in.peek() == EOF)) {
      const time_t seconds = timegm(&tm);
      return std::chrono::system_clock::from_time_t(seconds);
    }
  }
  return std::nullopt;
}

// Writes each override into the document tree so it is validated like the file itself.
std::map<std::string, std::string> apply_overrides(YAML::Node& root,
                                                   const std::vector<Override>& overrides) {
  std::map<std::string, std::string> origins;
  for (const auto& o : overrides) {
    const auto dot = o.field.find('.');
    const std::string label = fmt::format("{} {}={}", o.origin, o.field, o.value);
    if (dot == std::string::npos || dot == 0 || dot + 1 == o.field.size() ||
        o.field.find('.', dot + 1) != std::string::npos)
      fail("option " + o.origin, o.field, "must name SECTION.FIELD",
           "write e.g. --set evaluator.timeout_s=600");
    if (!root[o.field.substr(0, dot)].IsDefined() || root[o.field.substr(0, dot)].IsNull())
      root[o.field.substr(0, dot)] = YAML::Node(YAML::NodeType::Map);
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
      fail("option " + label, o.field, fmt::format("value is not valid YAML ({})", e.msg),
           "quote the value");
    }
    if (!value.IsDefined() || value.IsNull()) value = YAML::Node(std::string{});
    root[o.field.substr(0, dot)][o.field.substr(dot + 1)] = value;
    origins[o.field] = label;
  }
  return origins;
}

// A quoted value left open swallows the rest of the file into one string (YAML folds the lines),
// and the file still parses. Every kbvd value fits on one line, so a quote must close on the
// line that opens it. A quote opens a value only where YAML starts one (after ': ', '- ', '? ',
// '[', '{', ',' or at the start of the line); an apostrophe inside a plain value is text.
void check_quotes_close(const std::string& text, const fs::path& file) {
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    char open = 0;
    char previous = 0;  // the last non-blank character outside quotes
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (open == '"') {
        if (c == '\\') ++i;
        else if (c == '"') open = 0, previous = c;
        continue;
      }
      if (open == '\'') {
        if (c == '\'' && i + 1 < line.size() && line[i + 1] == '\'') ++i;
        else if (c == '\'') open = 0, previous = c;
        continue;
      }
      if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) break;  // a comment
      const bool after_blank = i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t');
      if ((c == '"' || c == '\'') &&
          (previous == 0 || std::strchr("[{,", previous) || (after_blank && std::strchr(":-?", previous)))) {
        open = c;
        continue;
      }
      if (c != ' ' && c != '\t') previous = c;
    }
    if (open)
      fail(fmt::format("{}:{}", file.string(), number), "(syntax)",
           fmt::format("the {} quote opened on this line is not closed on it (it would swallow the rest of "
                       "the file)", open == '"' ? "double" : "single"),
           "close the quote; every kbvd value fits on one line");
  }
}

unsigned parse_mode(const Section& s, const std::string& key, unsigned fallback) {
  if (!s.present(key)) return fallback;
  const auto text = s.scalar(key, "");
  try {
    std::size_t used = 0;
    const unsigned long mode = std::stoul(text, &used, 8);
    if (used == text.size() && mode <= 0777) return static_cast<unsigned>(mode);
  } catch (const std::exception&) {
  }
  fail(s.where(key, s.get(key)), s.field(key), fmt::format("'{}' is not an octal file mode", text),
       "quote an octal mode, e.g. \"0660\"");
}

}  // namespace

std::filesystem::path default_evaluator_command() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("kbv") : self.parent_path() / "kbv";
}

Config load_config(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YAML::Node root;
  if (!file.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
      fail(file.string(), "(file)", "does not exist or is not a regular file",
           "pass --config with the path of a kbvd.yaml (see configs/kbvd.yaml)");
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    check_quotes_close(text.str(), file);
    try {
      root = YAML::Load(text.str());
    } catch (const YAML::Exception& e) {
      fail(fmt::format("{}:{}", file.string(), e.mark.line + 1), "(syntax)", e.msg,
           "correct the YAML syntax at that line");
    }
  }
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap())
    fail(file.string(), "(document)", "must be a mapping of sections",
         "start the file with sections such as 'watch:' and 'store:'");
  const Origin origin(file, apply_overrides(root, overrides));

  const Section top(origin, root, "",
                    {"watch", "store", "control", "metrics", "evaluator", "devices", "epoch",
                     "queue", "shutdown", "log"});
  Config c;
  c.file = file.empty() ? fs::path() : fs::absolute(file);

  const Section store(origin, top.get("store"), "store", {"state_dir", "synchronous"});
  c.store.state_dir = store.path("state_dir", "/var/lib/kbvd");
  c.store.synchronous = store.choice("synchronous", "normal", {"normal", "full"});

  const Section watch(origin, top.get("watch"), "watch",
                      {"dir", "rescan_interval_s", "max_file_bytes", "settle_s"});
  c.watch.dir = watch.path("dir", c.store.state_dir / "inbox");
  c.watch.rescan_interval_s = watch.number("rescan_interval_s", 30.0, 0.0, kMaxSeconds, "seconds");
  c.watch.max_file_bytes = static_cast<std::uint64_t>(
      watch.integer("max_file_bytes", 256ll << 20, 1, 1ll << 40));
  c.watch.settle_s = watch.number("settle_s", kDefaultSettleSeconds, 0.0, kMaxSeconds, "seconds", true);

  const Section control(origin, top.get("control"), "control", {"socket", "mode", "max_clients", "idle_timeout_s"});
  c.control.socket = control.path("socket", "/run/kbvd/control.sock");
  c.control.mode = parse_mode(control, "mode", 0660);
  c.control.max_clients = static_cast<int>(control.integer("max_clients", 64, 1, kMaxControlClients));
  c.control.idle_timeout_s = control.number("idle_timeout_s", 10.0, 0.0, kMaxSeconds, "seconds");
  if (c.control.socket.string().size() >= 100)  // sockaddr_un.sun_path holds 108 bytes
    fail(control.where("socket", control.get("socket")), "control.socket",
         "path is too long for a unix socket (over 100 characters)", "choose a shorter path");

  const Section metrics(origin, top.get("metrics"), "metrics", {"listen"});
  c.metrics.listen = metrics.scalar("listen", "127.0.0.1:9464");
  if (!c.metrics.listen.empty()) {
    const auto colon = c.metrics.listen.rfind(':');
    bool ok = colon != std::string::npos && colon > 0 && colon + 1 < c.metrics.listen.size();
    if (ok) {
      const auto port = c.metrics.listen.substr(colon + 1);
      ok = std::all_of(port.begin(), port.end(), ::isdigit) && port.size() <= 5 &&
           std::stoi(port) <= 65535;
    }
    if (!ok)
      fail(metrics.where("listen", metrics.get("listen")), "metrics.listen",
           fmt::format("'{}' is not HOST:PORT", c.metrics.listen),
           "write e.g. 127.0.0.1:9464, or \"\" to turn the exporter off");
  }

  const Section evaluator(origin, top.get("evaluator"), "evaluator",
                          {"command", "extra_args", "timeout_s", "shapes", "key_file",
                           "warm_spare", "batch", "max_attempts"});
  c.evaluator.command = evaluator.path("command", default_evaluator_command());
  c.evaluator.extra_args = evaluator.strings("extra_args");
  c.evaluator.timeout_s = evaluator.number("timeout_s", 1800.0, 0.0, kMaxSeconds, "seconds");
  c.evaluator.shapes = evaluator.scalar("shapes", "");
  if (!c.evaluator.shapes.empty() && c.evaluator.shapes != "small" &&
      c.evaluator.shapes != "default")
    fail(evaluator.where("shapes", evaluator.get("shapes")), "evaluator.shapes",
         fmt::format("'{}' is not a shape set", c.evaluator.shapes),
         "use small, default, or leave it out (the evaluator's choice per device)");
  c.evaluator.key_file = evaluator.path("key_file", {});
  if (!c.evaluator.key_file.empty()) {
    // The key decides every hidden input family: a key made by accident (a typo in the path,
    // a folder not mounted yet) silently changes them all. Only `kbv keygen` makes one.
    std::error_code ec;
    const auto& key = c.evaluator.key_file;
    const std::string where = evaluator.where("key_file", evaluator.get("key_file"));
    if (!fs::exists(key, ec))
      fail(where, "evaluator.key_file",
           fmt::format("{} does not exist{}; kbvd never makes a key (a new key changes every hidden input family)",
                       key.string(), fs::is_directory(key.parent_path(), ec) ? ""
                                     : fmt::format(", nor does its folder {}", key.parent_path().string())),
           fmt::format("create it once with `kbv keygen --key-file {}`, or correct the path", key.string()));
    if (!fs::is_regular_file(key, ec))
      fail(where, "evaluator.key_file", fmt::format("{} is not a regular file", key.string()),
           "point it at the key file `kbv keygen` wrote");
  }
  const std::filesystem::path database = c.store.state_dir / "kbvd.sqlite3";
  c.evaluator.forbid = {database, database.string() + "-wal", database.string() + "-shm", c.watch.dir};
  c.evaluator.warm_spare = evaluator.boolean("warm_spare", true);
  c.evaluator.batch = static_cast<int>(evaluator.integer("batch", 8, 1, kMaxBatch));
  c.evaluator.max_attempts = static_cast<int>(evaluator.integer("max_attempts", 3, 1, kMaxAttempts));

  const Section devices(origin, top.get("devices"), "devices", {"kind", "gpus", "dev_dir"});
  const auto kind = devices.choice("kind", "auto", {"auto", "host", "cuda"});
  c.devices.kind = kind == "host" ? DeviceKind::host
                   : kind == "cuda" ? DeviceKind::cuda
                                    : DeviceKind::automatic;
  if (devices.present("gpus") && devices.scalar("gpus", "") != "auto")
    c.devices.gpus = static_cast<int>(devices.integer("gpus", 1, 0, kMaxGpus));
  c.devices.dev_dir = devices.path("dev_dir", "/dev");
  if (c.devices.kind == DeviceKind::cuda && c.devices.gpus && *c.devices.gpus == 0)
    fail(devices.where("gpus", devices.get("gpus")), "devices.gpus",
         "is 0 while devices.kind is cuda", "set devices.gpus to auto or a positive count, "
         "or devices.kind to host");

  const Section epoch(origin, top.get("epoch"), "epoch", {"length_days", "origin"});
  c.epoch.length_days = epoch.number("length_days", 7.0, kMinEpochDays, kMaxEpochDays, "days", true);
  c.epoch.origin_text = epoch.scalar("origin", "2026-01-01");
  const auto parsed = parse_utc(c.epoch.origin_text);
  if (!parsed)
    fail(epoch.where("origin", epoch.get("origin")), "epoch.origin",
         fmt::format("'{}' is not a UTC date", c.epoch.origin_text),
         "write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, e.g. 2026-01-01");
  c.epoch.origin = *parsed;

  const Section queue(origin, top.get("queue"), "queue", {"max_depth"});
  c.queue.max_depth = static_cast<std::uint64_t>(queue.integer("max_depth", 100000, 1, 1ll << 40));

  const Section shutdown(origin, top.get("shutdown"), "shutdown", {"drain_timeout_s"});
  c.shutdown.drain_timeout_s =
      shutdown.number("drain_timeout_s", 60.0, 0.0, kMaxSeconds, "seconds", true);

  const Section log(origin, top.get("log"), "log", {"level"});
  c.log.level = log.choice("level", "info",
                           {"trace", "debug", "info", "warn", "error", "critical", "off"});
  return c;
}

}  // namespace kbv::kbvd
