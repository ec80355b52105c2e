// daemon/sweep/sweep_folder.cpp — the output folder's layout; its records read back bounded.
#include "sweep/sweep_folder.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "client/json_dump.hpp"
#include "client/json_parse.hpp"
#include "io/whole_file.hpp"
#include "sweep/record_check.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEpochPrefix = "epoch-";
// A write takes milliseconds; a temporary this old was left by a killed writer, never by a
// shard writing beside us in a shared folder.
constexpr auto kStaleTemporaryAge = std::chrono::minutes(10);
// Bounds on a JSON file read back: a result record is a few KiB to a few MiB (samples kept), a
// report a few MiB per thousand rows; nesting is under twenty levels.
constexpr std::size_t kMaxJsonFileBytes = std::size_t{256} << 20;
constexpr int kMaxJsonDepth = 256;

std::optional<std::uint64_t> epoch_of(const std::string& name) {
  if (!name.starts_with(kEpochPrefix) || name.size() == kEpochPrefix.size()) return std::nullopt;
  const auto digits = name.substr(kEpochPrefix.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoull(digits);
}

}  // namespace

SweepFolder::SweepFolder(fs::path root) : root_(std::move(root)) {}

fs::path SweepFolder::epoch_dir(std::uint64_t epoch) const { return root_ / fmt::format("{}{}", kEpochPrefix, epoch); }
fs::path SweepFolder::results_dir(std::uint64_t epoch) const { return epoch_dir(epoch) / "results"; }
fs::path SweepFolder::plans_dir(std::uint64_t epoch) const { return epoch_dir(epoch) / "plans"; }
fs::path SweepFolder::runs_dir() const { return root_ / "runs"; }
fs::path SweepFolder::scratch_dir() const { return root_ / ".scratch"; }

std::optional<nlohmann::json> SweepFolder::result(std::uint64_t epoch, const std::string& key) const {
  const auto path = results_dir(epoch) / (key + ".json");
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  try {
    auto record = read_json_file(path);
    if (record_damage(record, key, epoch)) return std::nullopt;
    return record;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void SweepFolder::write_result(std::uint64_t epoch, const std::string& key, const nlohmann::json& record) const {
  fs::create_directories(results_dir(epoch));
  io::write_file_whole(results_dir(epoch) / (key + ".json"), control::json_dump(record, 1) + "\n");
}

std::map<std::string, nlohmann::json> SweepFolder::results(std::uint64_t epoch, std::vector<UnusableRecord>* unusable) const {
  std::map<std::string, nlohmann::json> out;
  std::error_code error;
  const auto dir = results_dir(epoch);
  if (!fs::is_directory(dir, error)) return out;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with(".") || entry.path().extension() != ".json") continue;
    const auto key = entry.path().stem().string();
    try {
      auto record = read_json_file(entry.path());
      if (const auto damage = record_damage(record, key, epoch)) {
        if (unusable) unusable->push_back({entry.path().string(), "is a result record that cannot be trusted (" + *damage + ")"});
        continue;
      }
      out.emplace(key, std::move(record));
    } catch (const std::exception& failure) {
      if (unusable) unusable->push_back({entry.path().string(), "is not a readable result record (" + std::string(failure.what()) + ")"});
    }
  }
  return out;
}

std::vector<std::uint64_t> SweepFolder::epochs() const {
  std::vector<std::uint64_t> out;
  std::error_code error;
  if (!fs::is_directory(root_, error)) return out;
  for (const auto& entry : fs::directory_iterator(root_, error))
    if (const auto epoch = epoch_of(entry.path().filename().string()); epoch && entry.is_directory(error)) out.push_back(*epoch);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> SweepFolder::runs() const {
  std::vector<fs::path> out;
  std::error_code error;
  if (!fs::is_directory(runs_dir(), error)) return out;
  for (const auto& entry : fs::directory_iterator(runs_dir(), error))
    if (entry.is_directory(error) && !entry.path().filename().string().starts_with(".")) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

fs::path SweepFolder::create_run(std::uint64_t epoch) const {
  fs::create_directories(runs_dir());
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  const auto base = fmt::format("{:%Y%m%dT%H%M%SZ}-epoch-{}", now, epoch);
  for (int attempt = 1;; ++attempt) {
    const auto path = runs_dir() / (attempt == 1 ? base : fmt::format("{}-{}", base, attempt));
    if (fs::create_directory(path)) return path;
  }
}

nlohmann::json read_json_file(const fs::path& path) {
  // Non-blocking, so a FIFO in a results folder answers at once instead of hanging the reader.
  const io::BoundedRead read = io::read_bounded_file(path, kMaxJsonFileBytes);
  if (read.refused == io::ReadRefusal::cannot_open)
    throw std::runtime_error(fmt::format("{}: cannot be read ({}); fix: check that it exists and is readable", path.string(), std::strerror(read.open_errno)));
  if (read.refused == io::ReadRefusal::not_regular)
    throw std::runtime_error(fmt::format("{}: not a regular file; fix: remove it (a result record is a plain file kbv writes)", path.string()));
  if (read.refused == io::ReadRefusal::too_large)
    throw std::runtime_error(fmt::format("{}: larger than {} MiB, more than any record kbv writes; fix: remove it", path.string(), kMaxJsonFileBytes >> 20));
  // Nesting deeper than any record kbv writes is refused while parsing: a valid but 100000-deep
  // document overflowed the stack when it was later copied.
  bool too_deep = false;
  nlohmann::json json = control::parse_bounded(read.text, kMaxJsonDepth, &too_deep);
  if (too_deep)
    throw std::runtime_error(fmt::format("{}: nested deeper than {} levels, more than any record kbv writes; fix: remove it", path.string(), kMaxJsonDepth));
  if (json.is_discarded()) throw std::runtime_error(fmt::format("{}: is not valid JSON; fix: remove it (it is written again)", path.string()));
  return json;
}

void remove_stale_temporaries(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.path().filename().string().starts_with(io::kTemporaryPrefix)) continue;
    std::error_code stat_error;
    const auto written = entry.last_write_time(stat_error);
    if (!stat_error && now - written > kStaleTemporaryAge) fs::remove(entry.path(), stat_error);
  }
}

}  // namespace kbv::sweep
