// baseline/algorithm_cache.cpp — the algorithm cache's file: {"version": 1, "entries": {key:
// {"algorithm": n, "math_type": n}}}.
#include "measure/baseline/algorithm_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace kbv::cuda::measure {
namespace {

constexpr int kFileVersion = 1;

// The file's entries; an empty object when it does not exist or cannot be used.
nlohmann::json read_entries(const std::filesystem::path& file) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) return nlohmann::json::object();
  try {
    std::ifstream in(file);
    const nlohmann::json document = nlohmann::json::parse(in);
    if (document.value("version", 0) != kFileVersion || !document.contains("entries") || !document["entries"].is_object())
      throw std::runtime_error("not a version-1 algorithm cache (expected {\"version\": 1, \"entries\": {...}})");
    return document["entries"];
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kbv: ignoring the cuDNN algorithm cache %s: %s (fix: delete it; kbv rewrites it)\n", file.c_str(), error.what());
    return nlohmann::json::object();
  }
}

}  // namespace

std::optional<AlgorithmChoice> AlgorithmCache::find(const std::string& key) const {
  const nlohmann::json entries = read_entries(file_);
  const auto entry = entries.find(key);
  if (entry == entries.end() || !entry->is_object()) return std::nullopt;
  const auto algorithm = entry->find("algorithm");
  const auto math = entry->find("math_type");
  if (algorithm == entry->end() || math == entry->end() || !algorithm->is_number_integer() || !math->is_number_integer()) return std::nullopt;
  return AlgorithmChoice{algorithm->get<int>(), math->get<int>()};
}

bool AlgorithmCache::remember(const std::string& key, const AlgorithmChoice& choice, std::string* error) const {
  nlohmann::json entries = read_entries(file_);
  entries[key] = {{"algorithm", choice.algorithm}, {"math_type", choice.math_type}};
  const nlohmann::json document = {{"version", kFileVersion}, {"entries", entries}};
  std::error_code failed;
  if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path(), failed);
  const std::filesystem::path temporary = file_.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << document.dump(2) << "\n";
    if (!out) {
      if (error) *error = "cannot write " + temporary.string();
      std::filesystem::remove(temporary, failed);
      return false;
    }
  }
  std::filesystem::rename(temporary, file_, failed);
  if (failed) {
    if (error) *error = "cannot replace " + file_.string() + ": " + failed.message();
    std::filesystem::remove(temporary, failed);
    return false;
  }
  return true;
}

}  // namespace kbv::cuda::measure
