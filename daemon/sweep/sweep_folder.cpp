// daemon/sweep/sweep_folder.cpp — the output folder's layout and atomic file writes.
#include "sweep/sweep_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "client/json_dump.hpp"
#include "sweep/record_check.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEpochPrefix = "epoch-";
constexpr std::string_view kTemporaryPrefix = ".tmp-";
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
  write_file_atomically(results_dir(epoch) / (key + ".json"), control::json_dump(record, 1) + "\n");
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

void write_file_atomically(const fs::path& path, const std::string& text) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  const auto temporary = path.parent_path() / fmt::format("{}{}-{:x}", kTemporaryPrefix, path.filename().string(), random());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot create: {}; fix: check the folder's permissions and free space", temporary.string(), std::strerror(errno)));
  std::size_t written = 0;
  while (written < text.size()) {
    const auto n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      throw std::runtime_error(fmt::format("{}: cannot write: {}; fix: free space on its file system", temporary.string(), std::strerror(saved)));
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(temporary.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(fmt::format("{}: cannot write: {}; fix: check the folder's permissions and free space", path.string(), std::strerror(saved)));
  }
}

nlohmann::json read_json_file(const fs::path& path) {
  // Non-blocking, so a FIFO in a results folder answers at once instead of hanging the reader.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot be read ({}); fix: check that it exists and is readable", path.string(), std::strerror(errno)));
  struct stat info {};
  std::string text;
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  const bool small = regular && info.st_size <= static_cast<off_t>(kMaxJsonFileBytes);
  if (small) {
    text.resize(static_cast<size_t>(info.st_size));
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      done += static_cast<size_t>(got);
    }
    text.resize(done);
  }
  ::close(fd);
  if (!regular) throw std::runtime_error(fmt::format("{}: not a regular file; fix: remove it (a result record is a plain file kbv writes)", path.string()));
  if (!small)
    throw std::runtime_error(fmt::format("{}: larger than {} MiB, more than any record kbv writes; fix: remove it", path.string(), kMaxJsonFileBytes >> 20));
  // Nesting deeper than any record kbv writes is refused while parsing: a valid but 100000-deep
  // document overflowed the stack when it was later copied.
  const nlohmann::json::parser_callback_t bounded_depth = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw std::runtime_error("nested too deeply");
    return true;
  };
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text, bounded_depth, false);
  } catch (const std::runtime_error&) {
    throw std::runtime_error(fmt::format("{}: nested deeper than {} levels, more than any record kbv writes; fix: remove it", path.string(), kMaxJsonDepth));
  }
  if (json.is_discarded()) throw std::runtime_error(fmt::format("{}: is not valid JSON; fix: remove it (it is written again)", path.string()));
  return json;
}

void remove_stale_temporaries(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.path().filename().string().starts_with(kTemporaryPrefix)) continue;
    std::error_code stat_error;
    const auto written = entry.last_write_time(stat_error);
    if (!stat_error && now - written > kStaleTemporaryAge) fs::remove(entry.path(), stat_error);
  }
}

}  // namespace kbv::sweep
