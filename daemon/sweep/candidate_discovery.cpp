// daemon/sweep/candidate_discovery.cpp — walk sources, read manifests, check files, filter.
#include "sweep/candidate_discovery.hpp"

#include <glob.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "client/control_client.hpp"
#include "eval/elf_check.hpp"
#include "identity/manifest.hpp"
#include "spec/name_suggestions.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

bool is_sidecar(const fs::path& path) {
  const auto name = path.filename().string();
  const auto ends_with = [&](const std::string& suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".so.yaml") || ends_with(".so.json");
}

// The sidecar manifest a candidate has (YAML first, as kbvd reads it).
fs::path manifest_of(const fs::path& candidate) {
  std::error_code error;
  return fs::exists(kbvd::yaml_manifest_path(candidate), error) ? kbvd::yaml_manifest_path(candidate) : kbvd::json_manifest_path(candidate);
}

bool hidden(const fs::path& path) { return path.filename().string().starts_with("."); }

// The files a source names, sorted; a source that names nothing is an issue.
std::vector<fs::path> files_of(const SweepConfig& config, const CandidateSource& source, Issues& issues) {
  std::vector<fs::path> files;
  std::error_code error;
  if (source.kind == CandidateSource::Kind::folder) {
    const auto field = source.field + ".folder";
    if (!fs::is_directory(source.pattern, error)) {
      issues.push_back({config.file.string(), field, fmt::format("folder {} does not exist", source.pattern.string()),
                        "create it, correct the path, or remove this entry"});
      return files;
    }
    const auto take = [&](const fs::directory_entry& entry) {
      if (entry.is_regular_file(error) && entry.path().extension() == ".so" && !hidden(entry.path())) files.push_back(entry.path());
    };
    if (source.recursive) {
      for (auto it = fs::recursive_directory_iterator(source.pattern, fs::directory_options::skip_permission_denied, error);
           !error && it != fs::recursive_directory_iterator(); it.increment(error))
        take(*it);
    } else {
      for (auto it = fs::directory_iterator(source.pattern, error); !error && it != fs::directory_iterator(); it.increment(error))
        take(*it);
    }
    if (error)
      issues.push_back({config.file.string(), field, fmt::format("folder {} cannot be read: {}", source.pattern.string(), error.message()),
                        "make it readable by this user"});
  } else {
    ::glob_t matches{};
    const int status = ::glob(source.pattern.c_str(), 0, nullptr, &matches);
    if (status == 0)
      for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
        const fs::path path = matches.gl_pathv[i];
        if (fs::is_regular_file(path, error) && !is_sidecar(path) && !hidden(path)) files.push_back(path);
      }
    ::globfree(&matches);
    if (files.empty())
      issues.push_back({config.file.string(), source.field + ".glob", fmt::format("pattern {} matches no candidate file", source.pattern.string()),
                        "correct the pattern, or remove this entry"});
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string known_problems(const ProblemCatalog& catalog, const std::string& given) {
  return unknown_name_fix(given, catalog.names(), "kbv problems");
}

}  // namespace

Issue issue_from_message(const std::string& file, const std::string& field, const std::string& message,
                         const std::string& default_fix) {
  std::string problem = message, fix = default_fix;
  if (const auto at = problem.rfind(" (fix: "); at != std::string::npos && problem.back() == ')') {
    fix = problem.substr(at + 7, problem.size() - at - 8);
    problem.erase(at);
  } else if (const auto semi = problem.rfind("; fix: "); semi != std::string::npos) {
    fix = problem.substr(semi + 7);
    problem.erase(semi);
  }
  // Drop a leading "NAME: " that repeats the file.
  const auto name = fs::path(file).filename().string();
  if (!name.empty() && problem.starts_with(name + ": ")) problem.erase(0, name.size() + 2);
  if (problem.starts_with(file + ": ")) problem.erase(0, file.size() + 2);
  return {file, field, problem, fix};
}

bool filters_admit(const Filters& filters, const Candidate& candidate) {
  const auto listed = [](const auto& list, const auto& value) {
    return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
  };
  if (candidate.problem.empty() && (!filters.problems.empty() || !filters.levels.empty())) return false;
  if (!listed(filters.problems, candidate.problem)) return false;
  if (!listed(filters.levels, candidate.level)) return false;
  if (!listed(filters.models, candidate.model)) return false;
  if (!filters.tags.empty() &&
      std::none_of(candidate.tags.begin(), candidate.tags.end(), [&](const std::string& tag) { return listed(filters.tags, tag); }))
    return false;
  return true;
}

Issues check_filters(const SweepConfig& config, const ProblemCatalog& catalog) {
  Issues issues;
  for (const auto& problem : config.filters.problems)
    if (!catalog.contains(problem))
      issues.push_back({config.file.string(), "filters.problems", fmt::format("'{}' is not a known problem", problem),
                        known_problems(catalog, problem)});
  return issues;
}

Discovery discover_candidates(const SweepConfig& config, const ProblemCatalog& catalog) {
  Discovery found;
  found.issues = check_filters(config, catalog);
  std::map<std::string, Candidate> by_key;
  // The same bytes under another model or sample id: one evaluation, credited to `kept` (the first
  // path in the sweep's order, or the one naming its problem). Said, not silent: a copy of
  // another's candidate under one's own manifest would otherwise take (or give) its verdict unseen
  // (review).
  const auto say_duplicate = [&](const Candidate& kept, const Candidate& dropped) {
    ++found.duplicates;
    if (kept.model != dropped.model || kept.sample_id != dropped.sample_id)
      found.issues.push_back({dropped.path.string(), "(file)",
                              fmt::format("the same bytes as {} (model '{}', sample '{}') under model '{}', sample '{}': evaluated once, "
                                          "credited to {}",
                                          kept.path.string(), kept.model, kept.sample_id, dropped.model, dropped.sample_id, kept.path.string()),
                              "submit each candidate once, under its own model"});
  };
  for (const auto& source : config.sources) {
    for (const auto& file : files_of(config, source, found.issues)) {
      Candidate candidate;
      candidate.path = fs::absolute(file);
      candidate.name = file.filename().string();
      candidate.source = source.field;
      std::string problem_file = config.file.string(), problem_field = source.field + ".problem";
      try {
        if (const auto manifest = kbvd::load_manifest_beside(file)) {
          candidate.model = manifest->model;
          candidate.sample_id = manifest->sample_id;
          candidate.problem = manifest->problem;
          candidate.tags = manifest->tags;
          if (!manifest->problem.empty()) {
            problem_file = manifest_of(file).string();
            problem_field = "problem";
          }
        }
      } catch (const kbvd::ManifestError& error) {
        // ManifestError's text is "FILE: FIELD: PROBLEM; fix: FIX".
        const auto manifest = manifest_of(file).string();
        auto issue = issue_from_message(manifest, "(manifest)", error.what(), "correct the manifest");
        if (const auto colon = issue.problem.find(": "); colon != std::string::npos) {
          issue.field = issue.problem.substr(0, colon);
          issue.problem.erase(0, colon + 2);
        }
        found.issues.push_back(issue);
        continue;
      }
      if (candidate.model.empty()) candidate.model = source.model;
      if (candidate.problem.empty()) candidate.problem = source.problem;
      for (const auto& tag : source.tags)
        if (std::find(candidate.tags.begin(), candidate.tags.end(), tag) == candidate.tags.end()) candidate.tags.push_back(tag);
      if (const auto wrong = eval::check_shared_object(file)) {
        found.issues.push_back(issue_from_message(file.string(), "(file)", *wrong, "replace it with a candidate built by kbv_add_candidate()"));
        continue;
      }
      if (!candidate.problem.empty()) {
        if (!catalog.contains(candidate.problem)) {
          found.issues.push_back({problem_file, problem_field, fmt::format("'{}' is not a known problem (candidate {})", candidate.problem, file.string()),
                                  known_problems(catalog, candidate.problem)});
          continue;
        }
        candidate.level = catalog.get(candidate.problem).level;
      } else if (!config.filters.problems.empty() || !config.filters.levels.empty()) {
        found.issues.push_back({file.string(), "problem",
                                "no manifest or source names its problem, so the problem and level filters cannot select it",
                                "add 'problem: NAME' to its sidecar manifest (" + file.filename().string() + ".yaml) or to its source in " +
                                    config.file.string()});
        continue;
      }
      try {
        candidate.sha256 = control::file_sha256(file);
      } catch (const std::exception& error) {
        found.issues.push_back({file.string(), "(file)", fmt::format("cannot be read: {}", error.what()), "make it readable by this user"});
        continue;
      }
      if (!filters_admit(config.filters, candidate)) {
        ++found.filtered_out;
        continue;
      }
      const auto [kept, fresh] = by_key.emplace(candidate.key(), candidate);
      if (!fresh) say_duplicate(kept->second, candidate);
    }
  }
  // A candidate whose problem only it declares ("<sha>-declared") is the same evaluation as its
  // bytes under a named problem, whichever came first (review: identical bytes under two models,
  // one manifest naming the problem, were both evaluated and counted): the named one stays.
  for (auto it = by_key.begin(); it != by_key.end();) {
    const Candidate& declared = it->second;
    const auto named = declared.problem.empty()
                           ? std::find_if(by_key.begin(), by_key.end(),
                                          [&](const auto& other) { return !other.second.problem.empty() && other.second.sha256 == declared.sha256; })
                           : by_key.end();
    if (named == by_key.end()) {
      ++it;
      continue;
    }
    say_duplicate(named->second, declared);
    it = by_key.erase(it);
  }
  for (auto& [key, candidate] : by_key) found.candidates.push_back(std::move(candidate));
  return found;
}

}  // namespace kbv::sweep
