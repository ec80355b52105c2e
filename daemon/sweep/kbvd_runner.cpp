// daemon/sweep/kbvd_runner.cpp — submit, requeue and wait through kbvd's control socket.
#include "sweep/kbvd_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <thread>

#include "client/control_client.hpp"
#include "client/json_dump.hpp"
#include "io/whole_file.hpp"
#include "sweep/json_text.hpp"
#include "sweep/result_record.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Pending candidates looked at per poll: kbvd works its queue in order, so the oldest pending
// ones finish first; this bounds the requests per poll however large the sweep is.
constexpr std::size_t kShowsPerPoll = 32;
// A candidate kbvd finished without an evaluation of this epoch is requeued at most this often
// (it happens only when kbvd's epoch moved, which stops the run anyway).
constexpr int kMaxRequeues = 3;

struct Pending {
  const PlannedEvaluation* item = nullptr;
  int requeues = 0;
};

// The newest finished evaluation of `epoch` in a `results show` answer.
std::optional<json> evaluation_in(const json& shown, std::uint64_t epoch) {
  std::optional<json> found;
  for (const auto& evaluation : shown.value("evaluations", json::array()))
    if (json_text(evaluation, "state") == "done" && evaluation.value("epoch", std::int64_t{-1}) == static_cast<std::int64_t>(epoch))
      found = evaluation;
  return found;
}

// `results show` for a sha256; nullopt when kbvd does not know it (it still answers status).
std::optional<json> show(const fs::path& socket, const std::string& sha256) {
  try {
    return control::results_show(socket, sha256);
  } catch (const control::ControlError&) {
    control::status(socket);  // throws when kbvd itself is the problem
    return std::nullopt;
  }
}

// Runs one control request; kbvd's refusal comes back as its message, while kbvd being
// unreachable throws (nothing more can be done through it).
template <typename Request>
std::optional<std::string> refusal_of(const fs::path& socket, Request request) {
  try {
    request();
    return std::nullopt;
  } catch (const control::ControlError& error) {
    control::status(socket);
    return std::string(error.what());
  }
}

// A candidate kbvd would not evaluate again for this epoch.
Issue not_requeued(const PlannedEvaluation& item, const std::string& why) {
  return {item.candidate.path.empty() ? item.candidate.sha256 : item.candidate.path.string(), "(file)",
          "kbvd did not evaluate it again for this epoch: " + why,
          "correct what kbvd names (its manifest beside the candidate in kbvd's inbox, say), then run the sweep again"};
}

fs::path write_manifest(const fs::path& scratch, const Candidate& candidate) {
  json manifest = json::object();
  if (!candidate.model.empty()) manifest["model"] = candidate.model;
  if (!candidate.sample_id.empty()) manifest["sample_id"] = candidate.sample_id;
  if (!candidate.problem.empty()) manifest["problem"] = candidate.problem;
  if (!candidate.tags.empty()) manifest["tags"] = candidate.tags;
  fs::create_directories(scratch);
  const auto path = scratch / (candidate.sha256 + ".so.json");
  io::write_file_whole(path, control::json_dump(manifest) + "\n");
  return path;
}

}  // namespace

std::uint64_t kbvd_epoch(const fs::path& socket) {
  json status;
  try {
    status = control::status(socket);
  } catch (const control::ControlError& error) {
    throw control::ControlError(fmt::format("{}; fix: start kbvd (systemctl start kbvd), point kbvd.socket or --socket at its control socket, or run with --standalone", error.what()));
  }
  if (status.value("draining", false))
    throw control::ControlError(fmt::format("kbvd at {} is shutting down (draining); fix: run the sweep once kbvd is back", socket.string()));
  return status.value("epoch", std::uint64_t{0});
}

RunResult run_through_kbvd(const RunContext& context, const KbvdSettings& settings) {
  RunResult result;
  std::deque<Pending> pending;
  const auto stop_reason = [&]() -> std::string {
    if (context.stop && context.stop->load()) return kStoppedSignal;
    if (context.deadline && std::chrono::steady_clock::now() >= *context.deadline) return kStoppedWallBudget;
    return "";
  };
  const auto epoch_moved = [&]() -> std::string {
    const auto now = kbvd_epoch(settings.socket);
    if (now == context.epoch) return "";
    return fmt::format("kbvd moved from epoch {} to {} during the sweep; run it again for epoch {}", context.epoch, now, now);
  };
  const auto mismatch = [&](const PlannedEvaluation& item, const json& shown) {
    const auto known = shown.value("problem", json(nullptr));
    if (item.candidate.problem.empty() || !known.is_string() || known.get<std::string>() == item.candidate.problem) return false;
    result.issues.push_back({item.candidate.path.empty() ? item.candidate.sha256 : item.candidate.path.string(), "problem",
                             fmt::format("kbvd knows these bytes as problem '{}', the sweep asks for '{}'", known.get<std::string>(), item.candidate.problem),
                             "evaluate it as one problem only, or run this sweep with --standalone"});
    context.on_note("kbv sweep: " + result.issues.back().text());
    return true;
  };

  // Hand every candidate to kbvd (or take the verdict it already has for this epoch).
  for (const PlannedEvaluation* item : context.todo) {
    if (const auto why = stop_reason(); !why.empty()) {
      result.stopped_because = why;
      return result;
    }
    const auto shown = show(settings.socket, item->candidate.sha256);
    if (shown) {
      if (mismatch(*item, *shown)) continue;
      if (const auto evaluation = evaluation_in(*shown, context.epoch)) {
        context.on_record(*item, record_from_kbvd(item->candidate, item->role, context.epoch, *evaluation));
        continue;
      }
    }
    if (context.max_evaluations > 0 && result.started >= context.max_evaluations) {
      result.stopped_because = kStoppedEvaluationBudget;
      break;
    }
    if (shown && json_text(*shown, "state") != "done") {
      pending.push_back({item, 0});  // queued or running already
      continue;
    }
    if (shown) {
      // A refusal because kbvd queued it meanwhile: wait for it all the same. Any other (its
      // manifest became malformed, its problem unknown) leaves it done: said, and not waited for
      // (review: the sweep waited on it until its wall budget).
      if (const auto refused = refusal_of(settings.socket, [&] { control::requeue(settings.socket, item->candidate.sha256); })) {
        const auto again = show(settings.socket, item->candidate.sha256);
        if (!again || json_text(*again, "state") == "done") {
          result.issues.push_back(not_requeued(*item, *refused));
          context.on_note("kbv sweep: " + result.issues.back().text());
          continue;
        }
      }
    } else if (item->candidate.path.empty()) {
      result.issues.push_back({item->candidate.sha256, "(file)", "passed in an earlier epoch, but kbvd does not know it and its file is gone",
                               "submit the candidate again, or drop it from the sweep's history"});
      context.on_note("kbv sweep: " + result.issues.back().text());
      continue;
    } else {
      json answer;
      auto refused = refusal_of(settings.socket, [&] {
        answer = control::submit(settings.socket, item->candidate.path, write_manifest(settings.scratch, item->candidate));
      });
      if (!refused && json_text(answer, "result") == "rejected")
        refused = json_text(answer, "message").empty() ? std::string("no reason given") : json_text(answer, "message");
      if (refused) {
        result.issues.push_back({item->candidate.path.string(), "(file)", "kbvd did not take it: " + *refused,
                                 "correct the candidate or its manifest"});
        context.on_note("kbv sweep: " + result.issues.back().text());
        continue;
      }
      // kbvd identifies what it took by its bytes: other bytes than planned (the file rewritten
      // since, or a passed candidate's file changed since an earlier epoch) would never show up
      // under the planned sha256, and the sweep waited for them forever (review).
      if (const std::string took = json_text(answer, "sha256"); !took.empty() && took != item->candidate.sha256) {
        result.issues.push_back(changed_since_planned(item->candidate.path.string(), item->candidate.sha256, took));
        context.on_note("kbv sweep: " + result.issues.back().text());
        continue;
      }
    }
    ++result.started;
    pending.push_back({item, 0});
  }

  // Wait for this epoch's verdicts.
  while (!pending.empty()) {
    if (auto why = stop_reason(); !why.empty()) {
      result.stopped_because = why;
      break;
    }
    if (auto why = epoch_moved(); !why.empty()) {
      result.stopped_because = why;
      break;
    }
    std::size_t looked = 0;
    auto it = pending.begin();
    for (; it != pending.end() && looked < kShowsPerPoll; ++looked) {
      const auto shown = show(settings.socket, it->item->candidate.sha256);
      if (!shown) {
        ++it;  // taken from the watch folder but not yet recorded (deferred by back-pressure)
        continue;
      }
      if (const auto evaluation = evaluation_in(*shown, context.epoch)) {
        context.on_record(*it->item, record_from_kbvd(it->item->candidate, it->item->role, context.epoch, *evaluation));
        it = pending.erase(it);
        continue;
      }
      if (json_text(*shown, "state") == "done" && it->requeues >= kMaxRequeues) {
        // Requeued as often as the sweep will, and still done with no verdict of this epoch.
        result.issues.push_back(not_requeued(*it->item, "still without a verdict of this epoch after " + std::to_string(kMaxRequeues) + " requeues"));
        context.on_note("kbv sweep: " + result.issues.back().text());
        it = pending.erase(it);
        continue;
      }
      if (json_text(*shown, "state") == "done") {
        refusal_of(settings.socket, [&] { control::requeue(settings.socket, it->item->candidate.sha256); });
        ++it->requeues;
      }
      ++it;
    }
    // The next poll starts where this one stopped: more than kShowsPerPoll pending would otherwise
    // have the ones behind the first kShowsPerPoll never looked at.
    if (it != pending.end()) std::rotate(pending.begin(), it, pending.end());
    if (!pending.empty()) std::this_thread::sleep_for(std::chrono::duration<double>(settings.poll_interval_s));
  }
  return result;
}

}  // namespace kbv::sweep
