// sweep/sweep_folder.hpp — a sweep's output folder (docs/sweeps.md, "The output folder"):
//
//   OUT/epoch-<E>/results/<key>.json   one file per evaluation: the record (result_record.hpp)
//   OUT/epoch-<E>/plans/<plan>.json    what a sweep of epoch E set out to evaluate
//   OUT/epoch-<E>/plans/<plan>.shard-<I>-of-<N>.json   how far shard I got
//   OUT/runs/<UTC time>-epoch-<E>/     the reports of one finished sweep (report.json, …)
//   OUT/report.{json,csv,md,html}      copies of the newest run's reports
//
// Every file is written whole under a temporary name in its folder and renamed into place
// (io::write_file_whole), so a reader (another shard, `kbv report`, a sweep resumed after kill -9)
// sees all of it or nothing, also on NFS. There is no database: shards of one sweep can share the folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

class SweepFolder {
 public:
  explicit SweepFolder(std::filesystem::path root);

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path epoch_dir(std::uint64_t epoch) const;
  std::filesystem::path results_dir(std::uint64_t epoch) const;
  std::filesystem::path plans_dir(std::uint64_t epoch) const;
  std::filesystem::path runs_dir() const;
  std::filesystem::path scratch_dir() const;  // evaluator output while it runs

  // A record that cannot be read or used, and why (record_check.hpp).
  struct UnusableRecord {
    std::string path, why;
  };
  // The record of `key` in `epoch`, if there is one that can be used: a record that cannot be
  // parsed or fails record_damage() (record_check.hpp) is as none, so it is evaluated again.
  std::optional<nlohmann::json> result(std::uint64_t epoch, const std::string& key) const;
  void write_result(std::uint64_t epoch, const std::string& key, const nlohmann::json& record) const;
  // Every usable record of an epoch, by key. The others are skipped and named in `unusable`
  // (when given): they are evaluated again.
  std::map<std::string, nlohmann::json> results(std::uint64_t epoch, std::vector<UnusableRecord>* unusable = nullptr) const;
  // Epochs that have a folder here, ascending.
  std::vector<std::uint64_t> epochs() const;
  // Run folders (runs/*), oldest first (their names sort by time).
  std::vector<std::filesystem::path> runs() const;
  // A new, empty run folder named after the current UTC time and the epoch.
  std::filesystem::path create_run(std::uint64_t epoch) const;

 private:
  std::filesystem::path root_;
};

// Reads a JSON file; throws std::runtime_error naming the file when it is missing, not a regular
// file (a FIFO does not block), over 256 MiB, nested over 256 levels or malformed.
nlohmann::json read_json_file(const std::filesystem::path& path);
// Removes temporary files a killed writer left in `folder` (names starting ".tmp-", older than
// any write in progress can be).
void remove_stale_temporaries(const std::filesystem::path& folder);

}  // namespace kbv::sweep
