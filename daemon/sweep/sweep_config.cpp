// daemon/sweep/sweep_config.cpp — parse and validate a sweep's YAML configuration.
#include "sweep/sweep_config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

// A YAML node's place: "FILE:LINE" for errors a person reads in an editor.
std::string where(const fs::path& file, const YAML::Node& node) {
  if (!node.IsDefined() || node.Mark().line < 0) return file.string();
  return fmt::format("{}:{}", file.string(), node.Mark().line + 1);
}

// A ConfigError that keeps its parts, so one bad candidate source can become an Issue.
class FieldError : public ConfigError {
 public:
  explicit FieldError(Issue issue) : ConfigError(issue.text()), issue_(std::move(issue)) {}
  const Issue& issue() const { return issue_; }

 private:
  Issue issue_;
};

[[noreturn]] void fail(const std::string& at, const std::string& field, const std::string& problem,
                       const std::string& fix) {
  throw FieldError({at, field, problem, fix});
}

// Reads one mapping's fields with their types; every error names file, line and field.
// Errors throw ConfigError; a caller that can go on without the mapping catches it.
// Upper bounds on numbers a sweep file gives: each far above any real use, and each keeps the
// value inside the int (or the duration arithmetic) it ends up in (jobs: 4294967296 wrapped to 0
// and the sweep waited forever; wall_s: 1e308 overflowed the deadline and stopped at once).
constexpr std::int64_t kMaxBatch = 100000;
constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600.0;   // a week for one evaluation
constexpr double kMaxPollSeconds = 3600.0;

class Fields {
 public:
  Fields(const fs::path& file, const YAML::Node& node, std::string prefix, const std::set<std::string>& known)
      : file_(file), prefix_(std::move(prefix)) {
    // A missing section is an invalid node in yaml-cpp: every use but IsDefined() throws.
    if (!node.IsDefined() || node.IsNull()) return;
    node_ = node;
    if (!node_.IsMap())
      fail(where(file_, node_), prefix_.empty() ? "(document)" : prefix_, "must be a mapping of fields", "write 'FIELD: VALUE' lines under it");
    std::map<std::string, YAML::Mark> seen;
    for (const auto& entry : node_) {
      if (!entry.first.IsScalar())
        fail(where(file_, entry.first), prefix_.empty() ? "(document)" : prefix_, "a key that is a list or a mapping",
             "write each field as 'NAME: VALUE'");
      const auto key = entry.first.Scalar();
      if (!known.count(key)) {
        std::string names;
        for (const auto& name : known) names += (names.empty() ? "" : ", ") + name;
        fail(where(file_, entry.first), field(key), "unknown field", "use one of: " + names);
      }
      // yaml-cpp reads the first of two equal keys: a second is an error, not silently ignored.
      if (const auto [it, fresh] = seen.emplace(key, entry.first.Mark()); !fresh)
        fail(where(file_, entry.first), field(key), fmt::format("given twice (first at line {})", it->second.line + 1), "keep one of them");
    }
  }

  bool has(const std::string& key) const { return node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull(); }
  YAML::Node get(const std::string& key) const { return has(key) ? node_[key] : YAML::Node(); }
  std::string field(const std::string& key) const { return prefix_.empty() ? key : prefix_ + "." + key; }
  std::string at(const std::string& key) const { return where(file_, get(key)); }

  std::string text(const std::string& key, std::string fallback) const {
    if (!has(key)) return fallback;
    const auto n = get(key);
    if (!n.IsScalar()) fail(at(key), field(key), "must be a single value", fmt::format("write '{}: VALUE'", key));
    return n.Scalar();
  }

  double number(const std::string& key, double fallback, double min, double max) const {
    if (!has(key)) return fallback;
    const auto value = text(key, "");
    double parsed = 0;
    std::size_t used = 0;
    try {
      parsed = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || used == 0 || !std::isfinite(parsed))
      fail(at(key), field(key), fmt::format("'{}' is not a finite number", value), "write a number");
    if (parsed < min) fail(at(key), field(key), fmt::format("{} is below the minimum {}", parsed, min), fmt::format("use a value of at least {}", min));
    if (parsed > max) fail(at(key), field(key), fmt::format("{} is above the maximum {}", parsed, max), fmt::format("use a value of at most {}", max));
    return parsed;
  }

  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min, std::int64_t max) const {
    if (!has(key)) return fallback;
    const auto value = text(key, "");
    std::int64_t parsed = 0;
    std::size_t used = 0;
    try {
      parsed = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || used == 0) fail(at(key), field(key), fmt::format("'{}' is not a whole number", value), "write a whole number");
    if (parsed < min) fail(at(key), field(key), fmt::format("{} is below the minimum {}", parsed, min), fmt::format("use a value of at least {}", min));
    if (parsed > max) fail(at(key), field(key), fmt::format("{} is above the maximum {}", parsed, max), fmt::format("use a value of at most {}", max));
    return parsed;
  }

  bool boolean(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const auto value = text(key, "");
    if (value == "true" || value == "yes") return true;
    if (value == "false" || value == "no") return false;
    fail(at(key), field(key), fmt::format("must be true or false, got '{}'", value), "write true or false");
  }

  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    if (!has(key)) return out;
    const auto n = get(key);
    if (n.IsScalar()) return {n.Scalar()};
    if (!n.IsSequence()) fail(at(key), field(key), "must be a list of strings", fmt::format("write '{}: [a, b]'", key));
    for (const auto& item : n) {
      if (!item.IsScalar()) fail(where(file_, item), field(key), "every item must be a single value", fmt::format("write '{}: [a, b]'", key));
      out.push_back(item.Scalar());
    }
    return out;
  }

  fs::path path(const std::string& key, const fs::path& fallback) const {
    if (!has(key)) return fallback;
    const fs::path value = text(key, "");
    if (value.empty()) return fallback;
    return value.is_absolute() ? value : fs::absolute(file_).parent_path() / value;
  }

 private:
  const fs::path& file_;
  YAML::Node node_;
  std::string prefix_;
};

std::vector<int> integers(const Fields& fields, const std::string& key) {
  std::vector<int> out;
  for (const auto& value : fields.strings(key)) {
    try {
      std::size_t used = 0;
      out.push_back(std::stoi(value, &used));
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      fail(fields.at(key), fields.field(key), fmt::format("'{}' is not a whole number", value), fmt::format("write '{}: [1, 2]'", key));
    }
  }
  return out;
}

CandidateSource read_source(const fs::path& file, const YAML::Node& node, std::size_t index) {
  CandidateSource source;
  source.field = fmt::format("candidates[{}]", index);
  if (node.IsScalar()) {  // a bare string: a folder
    source.pattern = node.Scalar();
  } else {
    const Fields fields(file, node, source.field, {"folder", "glob", "recursive", "model", "problem", "tags"});
    if (fields.has("folder") == fields.has("glob"))
      fail(where(file, node), source.field, "needs exactly one of folder and glob", "write 'folder: PATH' or 'glob: PATTERN'");
    source.kind = fields.has("glob") ? CandidateSource::Kind::glob : CandidateSource::Kind::folder;
    source.pattern = fields.text(fields.has("glob") ? "glob" : "folder", "");
    if (source.pattern.empty()) fail(where(file, node), source.field, "has an empty path", "name a folder or a glob pattern");
    source.recursive = fields.boolean("recursive", false);
    if (source.recursive && source.kind == CandidateSource::Kind::glob)
      fail(fields.at("recursive"), fields.field("recursive"), "applies to folders only", "remove it, or use '**' nowhere: list the folders instead");
    source.model = fields.text("model", "");
    source.problem = fields.text("problem", "");
    source.tags = fields.strings("tags");
  }
  if (source.pattern.is_relative()) source.pattern = fs::absolute(file).parent_path() / source.pattern;
  return source;
}

void read_candidates(SweepConfig& config, const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!node.IsSequence())
    fail(where(config.file, node), "candidates", "must be a list of sources", "write '- folder: PATH' or '- glob: PATTERN' items");
  std::size_t index = 0;
  for (const auto& item : node) {
    try {
      config.sources.push_back(read_source(config.file, item, index));
    } catch (const FieldError& error) {
      config.issues.push_back(error.issue());  // this source is left out; the others still run
    }
    ++index;
  }
}

}  // namespace

std::string_view mode_name(Mode mode) { return mode == Mode::kbvd ? "kbvd" : "standalone"; }

SweepConfig parse_sweep_config(const std::string& text, const fs::path& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(fmt::format("{}:{}", file.string(), e.mark.line + 1), "(syntax)", e.msg, "correct the YAML syntax at that line");
  }
  if (!root.IsDefined() || root.IsNull()) fail(file.string(), "(document)", "is empty", "write at least 'output_dir:' and 'candidates:' (see configs/sweep.yaml)");
  SweepConfig config;
  config.file = file;
  const Fields top(file, root, "",
                   {"name", "output_dir", "problems_dir", "mode", "epoch", "candidates", "filters", "reverify", "budget", "kbvd", "standalone"});
  config.name = top.text("name", config.name);
  static const std::string kNameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
  if (config.name.empty() || config.name.find_first_not_of(kNameChars) != std::string::npos)
    fail(top.at("name"), "name", fmt::format("'{}' is not a plain name", config.name), "use letters, digits, '-', '_' and '.' only");
  if (!top.has("output_dir")) fail(file.string(), "output_dir", "is missing", "name the folder that keeps this sweep's results and reports");
  config.output_dir = top.path("output_dir", {});
  config.problems_dir = top.path("problems_dir", {});
  const auto mode = top.text("mode", "kbvd");
  if (mode == "kbvd") config.mode = Mode::kbvd;
  else if (mode == "standalone") config.mode = Mode::standalone;
  else fail(top.at("mode"), "mode", fmt::format("'{}' is not a mode", mode), "use kbvd or standalone");
  const auto epoch = top.text("epoch", "current");
  if (epoch != "current") config.epoch = static_cast<std::uint64_t>(top.integer("epoch", 0, 0, std::numeric_limits<std::int64_t>::max()));

  read_candidates(config, top.get("candidates"));

  const Fields filters(file, top.get("filters"), "filters", {"problems", "levels", "tags", "models"});
  config.filters.problems = filters.strings("problems");
  config.filters.models = filters.strings("models");
  config.filters.tags = filters.strings("tags");
  config.filters.levels = integers(filters, "levels");

  const Fields reverify(file, top.get("reverify"), "reverify", {"epochs"});
  config.reverify_epochs = static_cast<int>(reverify.integer("epochs", config.reverify_epochs, 0, kMaxReverifyEpochs));

  const Fields budget(file, top.get("budget"), "budget", {"wall_s", "evaluations"});
  config.budget.wall_s = budget.number("wall_s", 0, 0, kMaxWallSeconds);
  config.budget.evaluations = budget.integer("evaluations", 0, 0, std::numeric_limits<std::int64_t>::max());

  const Fields kbvd(file, top.get("kbvd"), "kbvd", {"socket", "poll_interval_s"});
  config.kbvd.socket = kbvd.path("socket", {});
  config.kbvd.poll_interval_s = kbvd.number("poll_interval_s", config.kbvd.poll_interval_s, 0.05, kMaxPollSeconds);

  const Fields standalone(file, top.get("standalone"), "standalone",
                          {"device", "gpus", "jobs", "timeout_s", "batch", "shapes", "key_file", "extra_args"});
  auto& s = config.standalone;
  s.device = standalone.text("device", s.device);
  if (s.device != "host" && s.device != "cuda") fail(standalone.at("device"), "standalone.device", fmt::format("'{}' is not a device", s.device), "use host or cuda");
  if (standalone.has("gpus") && !(standalone.get("gpus").IsScalar() && standalone.get("gpus").Scalar() == "auto")) {
    s.gpus = integers(standalone, "gpus");
    // Ordinals, each once: -1 reached kbv eval as --gpu -1, and one GPU twice had two evaluations time each other (review).
    for (std::size_t i = 0; i < s.gpus.size(); ++i)
      if (s.gpus[i] < 0 || std::find(s.gpus.begin(), s.gpus.begin() + static_cast<std::ptrdiff_t>(i), s.gpus[i]) != s.gpus.begin() + static_cast<std::ptrdiff_t>(i))
        fail(standalone.at("gpus"), standalone.field("gpus"), fmt::format("GPU {} is not a distinct ordinal (0 or more, each once)", s.gpus[i]),
             "list each GPU once, e.g. gpus: [0, 1]");
  }
  s.jobs = static_cast<int>(standalone.integer("jobs", s.jobs, 1, kMaxJobs));
  s.timeout_s = standalone.number("timeout_s", s.timeout_s, 1, kMaxTimeoutSeconds);
  s.batch = static_cast<int>(standalone.integer("batch", s.batch, 1, kMaxBatch));
  s.shapes = standalone.text("shapes", "");
  s.key_file = standalone.path("key_file", {});
  s.extra_args = standalone.strings("extra_args");
  return config;
}

SweepConfig load_sweep_config(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error)) fail(file.string(), "(file)", "does not exist or is not a regular file", "give the path of a sweep YAML file (e.g. configs/sweep.yaml)");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file.string(), "(file)", "cannot be read", "make it readable by this user");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_sweep_config(text.str(), file);
}

}  // namespace kbv::sweep
