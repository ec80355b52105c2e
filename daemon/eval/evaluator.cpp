// eval/evaluator.cpp — the evaluation sequence (see evaluator.hpp): load the candidate in a
// sandboxed worker, set up the data plane, check correctness, time, decide the verdict. The
// steps live in evaluation_*.cpp (evaluation.hpp).
#include "eval/evaluator.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "eval/candidate_build.hpp"
#include "eval/data_plane_factory.hpp"
#include "eval/device_diagnosis.hpp"
#include "eval/device_footprint.hpp"
#include "eval/elf_check.hpp"
#include "eval/evaluation.hpp"
#include "eval/failure_text.hpp"
#include "eval/message_fields.hpp"
#include "protocol/messages.hpp"
#include "timing/trace_buffers.hpp"
#include "verify/checksum.hpp"

#ifdef KBV_HAVE_SANDBOX
#include "sandbox/operator_skips.hpp"
#endif

namespace kbv::eval {
namespace detail {
namespace {

// The first ABI version that passes int64 and bool input tensors (kbv/plugin.h, History).
constexpr uint32_t kFirstAbiWithIntegerInputs = 2;

}  // namespace

EvalResult Evaluation::run() {
  const auto start = Clock::now();
  result_.candidate_path = options_.candidate.string();
  result_.candidate_device = options_.device;
  result_.epoch = options_.epoch;
  if (options_.problem) (void)catalog_.get(*options_.problem);  // unknown name: exit 2 before any work
  if (auto problem = check_candidate(options_.candidate)) {
    result_.verdict = Verdict::load_error;
    result_.detail = *problem;
    result_.input_error = true;
  } else {
    evaluate_candidate();
  }
  result_.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result_.environment["wall_s_by_phase"] = phases_.to_json();
  return std::move(result_);
}

std::string Evaluation::as_submitted(std::string text) const {
  // The worker loads kbv's private copy; the user knows the file they named.
  if (candidate_copy_.empty()) return text;
  for (size_t at = text.find(candidate_copy_); at != std::string::npos; at = text.find(candidate_copy_, at + options_.candidate.string().size()))
    text.replace(at, candidate_copy_.size(), options_.candidate.string());
  return text;
}

void Evaluation::worker_lost(const std::string& during, bool timed_out, double limit_s) {
  if (timed_out) {
    result_.worker_exit = exit_json(worker_->kill_and_reap());
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", limit_s);
    decide(Verdict::timeout, "no answer within " + std::string(limit) + " s " + during + "; the worker's process group was killed");
    return;
  }
  const WorkerExit exit = worker_->reap(std::chrono::milliseconds(2000));
  result_.worker_exit = exit_json(exit);
  // The seccomp filter kills with SIGSYS what it cannot report (a forbidden call made with
  // every signal blocked): that is a sandbox violation, not a crash.
  if (exit.signaled && exit.signal == SIGSYS) {
    decide(Verdict::sandbox_violation, "the worker was killed by the sandbox (SIGSYS) " + during + violation_text(worker_->drain_violations()));
    return;
  }
  const bool worker_said_why = !worker_error_.empty();
  if (auto violations = worker_->drain_violations(); !violations.empty()) {
    decide(Verdict::sandbox_violation, "the candidate attempted forbidden system calls (" + violation_text(violations) + ") and the worker " +
                                           exit_text(exit, worker_said_why));
    return;
  }
  // What the worker knew: its own error (a CUDA call of kbv's, with the API and the error's
  // name) and the candidate's last set_error text; else the last line the candidate printed.
  std::string detail = "the worker " + exit_text(exit, worker_said_why) + " " + during;
  if (worker_said_why) detail += ": " + worker_error_;
  else if (exit.exited && !exit.signaled)
    detail += " without saying why (the candidate may have called exit(); its output is in worker_stderr_tail)";
  if (!worker_candidate_error_.empty()) detail += " (the candidate's last set_error: " + worker_candidate_error_ + ")";
  if (!worker_said_why)
    if (const std::string line = last_output_line(worker_->stderr_tail()); !line.empty()) detail += "; its last output line: \"" + line + "\"";
  decide(Verdict::crash, detail);
}

std::optional<nlohmann::json> Evaluation::await(const std::string& during, double timeout_s) {
  auto message = worker_->receive(std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)));
  if (message && worker_->stop_failed()) {
    // kbv stops the worker once it has answered (eval/worker_process.hpp); one that cannot be
    // stopped keeps running past its answer, where nothing of it is checked or timed.
    decide(Verdict::timeout, "the worker answered " + during + " but did not stop within " +
                             std::to_string(kWorkerStopTimeout.count() / 1000) + " s of it (kbv stops the worker between "
                             "messages; a thread stuck in an uninterruptible wait keeps it running)");
    return std::nullopt;
  }
  if (message && text_field(*message, "type") == "worker_error") {
    // kbv's own code in the worker failed and it is exiting: a crash with the worker's words.
    worker_error_ = text_field(*message, "error");
    if (worker_error_.empty()) worker_error_ = "(no text)";
    worker_candidate_error_ = text_field(*message, "candidate_error");
    worker_lost(during, false, timeout_s);
    return std::nullopt;
  }
  if (!message && worker_->malformed_messages() > 0) {
    // kbv's worker writes only small JSON objects; a frame that is none was written by the
    // candidate (a forged message, e.g. one nested deep enough to overflow a reader's stack).
    result_.worker_exit = exit_json(worker_->kill_and_reap());
    decide(Verdict::hack_suspected, "the worker's control socket carried a frame kbv's worker never writes (over " +
                                        std::to_string(protocol::kMaxMessageBytes) + " bytes, nested deeper than " +
                                        std::to_string(protocol::kMaxMessageDepth) + " levels, or not a JSON object) " + during,
           "result_forgery");
    return std::nullopt;
  }
  if (!message) worker_lost(during, !worker_->gone(), timeout_s);
  return message;
}

std::optional<nlohmann::json> Evaluation::start_and_load() {
  started_ = session_.take_worker();  // a spare's, or one started during the previous candidate's correctness
  bool started_early = started_ != nullptr;
  if (!started_) started_ = std::make_unique<StartedWorker>(options_, catalog_);
  // From here on the evaluation reads only the copy, the bytes the worker loads: a submitted file
  // changed after this moment changes nothing.
  std::string copy_error;
  const std::optional<std::filesystem::path> copy = started_->place_candidate(options_.candidate, &copy_error);
  std::optional<std::string> problem = copy ? check_candidate(*copy) : copy_error;
  if (problem) {
    decide(Verdict::load_error, *problem);
    result_.input_error = true;
    return std::nullopt;
  }
  candidate_copy_ = copy->string();
  result_.candidate_sha256 = sha256_file_hex(*copy);
  if (needs_compute_library(needed_libraries(*copy))) add_flag("calls_library");
  result_.candidate_build = read_build_record(*copy).to_json();
  const nlohmann::json load = {{"type", "load"}, {"file", copy->filename().string()}};
  std::optional<nlohmann::json> first_message = started_->take_first_message();
  worker_ = started_->take_worker();
  if (started_early) {
    // A worker started early that is gone before it could take the candidate (it said nothing, or
    // the load message found no reader) ran none of the candidate's code: a fresh one replaces it.
    if (!first_message) first_message = worker_->receive(std::chrono::milliseconds(static_cast<int64_t>(options_.load_timeout_s * 1000)));
    const std::string type = first_message ? message_type(*first_message) : "";
    // One whose own start failed (its sandbox or its device) came up while the previous candidate
    // still ran, which may have held the device's memory then: that is not this candidate's
    // doing. A fresh worker, started now, decides; a failure then is this evaluation's own.
    if (type == "load_failed")
      result_.environment["worker_started_early_failed"] = text_field(*first_message, "kind") + ": " + text_field(*first_message, "error");
    if (type == "started" && !time_null_calls_before_load()) return std::nullopt;
    if (type == "started") threads_before_load_ = worker_->thread_count();
    if (type == "started" && worker_->send(load)) {
      result_.environment["worker_started_early"] = true;
      result_.environment["device_warm_up_s"] = started_->device_warm_up_s();
      result_.environment["worker_started_before_candidate_s"] = started_->age_s();
      return await("while loading the candidate", options_.load_timeout_s);
    }
    worker_.reset();
    const auto first_folders = std::move(started_);  // hold the checked copy until it is copied again
    started_ = std::make_unique<StartedWorker>(options_, catalog_);
    if (!started_->place_candidate(*copy, &copy_error)) {  // the bytes already checked and hashed
      decide(Verdict::load_error, copy_error);
      result_.input_error = true;
      return std::nullopt;
    }
    worker_ = started_->take_worker();
    started_early = false;
  }
  result_.environment["worker_started_early"] = false;
  result_.environment["device_warm_up_s"] = started_->device_warm_up_s();  // overlapping the worker's own start
  auto started = await("while starting the worker", options_.load_timeout_s);
  if (!started) return std::nullopt;
  if (message_type(*started) != "started") return started;  // load_failed: the sandbox or the device
  if (!time_null_calls_before_load()) return std::nullopt;
  threads_before_load_ = worker_->thread_count();
  worker_->send(load);
  return await("while loading the candidate", options_.load_timeout_s);
}

void Evaluation::evaluate_candidate() {
  std::unique_ptr<DataPlane> plane;
  std::shared_ptr<const ResolvedProblem> resolved;  // shared: a kept plane refers to it
  std::optional<nlohmann::json> ready;
  {
    auto phase = phases_.measure("worker_start");
    ready = start_and_load();
  }
  if (!ready) return finish_worker();
  const std::string type = message_type(*ready);
  if (type == "load_failed") {
    const std::string kind = text_field(*ready, "kind");
    const std::string error = text_field(*ready, "error");
    if (kind == "device_unavailable") {
      decide(Verdict::bad_input, "the " + options_.device + " device is unavailable: " + explain_cuda_unavailable(error, inspect_cuda_machine()));
      result_.input_error = true;
      return finish_worker();
    }
    decide(kind == "abi_error" ? Verdict::abi_error : kind == "sandbox_error" ? Verdict::resource : Verdict::load_error,
           error.empty() ? "the candidate could not be loaded" : as_submitted(error));
    return finish_worker();
  }
  if (type != "ready") {
    decide(Verdict::crash, "the worker sent '" + type + "' instead of ready");
    return finish_worker();
  }
  result_.abi_version = static_cast<unsigned>(std::clamp(number_field(*ready, "abi_version"), 0.0, 1e6));
  result_.declared_problem = text_field(*ready, "problem");
  result_.candidate_name = text_field(*ready, "candidate_name");
  if (ready->contains("sandbox")) worker_sandbox_ = (*ready)["sandbox"];
  // What loading the candidate (create()) left on the device is held through every call.
  const nlohmann::json load = object_field(*ready, "load_observed");
  const bool load_traced = text_field(load, "trace") == "cupti";
  if (load_traced) {
    held_candidate_bytes_ = std::max(0.0, number_field(load, "net_device_bytes"));
    peak_candidate_bytes_ = std::max(peak_candidate_bytes_, number_field(load, "peak_device_bytes"));
    peak_pool_bytes_ = std::max(peak_pool_bytes_, number_field(load, "peak_pool_bytes"));
  }
  const std::string declared_device = text_field(*ready, "device");
  if (declared_device != options_.device) {
    // A usage error, not the candidate's fault: the device is the caller's choice (kbvd gives each
    // evaluation its GPU slot, and the shape set and data plane follow from it), so kbv names the
    // fix rather than guessing.
    decide(Verdict::bad_input, "the candidate is built for the " + declared_device + " device but was evaluated with --device " +
                                   options_.device + " (fix: pass --device " + declared_device + ")");
    result_.input_error = true;
    return finish_worker();
  }
  const std::string problem_name = options_.problem.value_or(result_.declared_problem);
  if (problem_name != result_.declared_problem) {
    decide(Verdict::load_error, "the candidate declares problem '" + result_.declared_problem + "' but was evaluated as '" + problem_name +
                                    "' (fix: evaluate it with --problem " + result_.declared_problem + " or rebuild it for " + problem_name + ")");
    return finish_worker();
  }
  if (!catalog_.contains(problem_name))
    if (const auto broken = catalog_.load_errors().find(problem_name); broken != catalog_.load_errors().end()) {
      // The problem exists but its spec cannot be loaded: kbv's input is at fault, not the
      // candidate, and the spec's own error names the file, the field and the fix (review: the
      // candidate got "not among the problems" and the reason went to stderr only).
      decide(Verdict::bad_input, "problem '" + problem_name + "' cannot be evaluated: its spec is broken: " + std::string(broken->second.what()));
      result_.input_error = true;
      return finish_worker();
    }
  if (!catalog_.contains(problem_name)) {
    // Either side can be wrong: the candidate's problem, or the folder of problems kbv was given.
    decide(Verdict::load_error, "the candidate declares problem '" + problem_name + "', which is not among the problems in " +
                                    catalog_.directory().string() + " (fix: build it for one of them, as kbv problems lists them, or point "
                                    "--problems-dir at the folder holding " + problem_name + ".yaml)");
    return finish_worker();
  }
  // ABI 1 passes float32 tensors only (kbv/plugin.h, History).
  for (const TensorDecl& input : catalog_.get(problem_name).inputs)
    if (input.dtype != DType::float32 && result_.abi_version < kFirstAbiWithIntegerInputs) {
      decide(Verdict::abi_error, "problem '" + problem_name + "' passes the " + std::string(dtype_name(input.dtype)) + " input '" + input.name +
                                     "', which ABI " + std::to_string(result_.abi_version) + " (the version the candidate chose) cannot carry (fix: build it against "
                                     "kbv/plugin.h of ABI " + std::to_string(kFirstAbiWithIntegerInputs) + " or later; KBV_PLUGIN_ABI_MAX must allow it)");
      return finish_worker();
    }
  const std::string shape_set = options_.shape_set.value_or(options_.device == "host" ? "small" : "default");
  // The previous candidate's plane when it was for this problem (eval/evaluation_session.hpp), with
  // the resolved problem it refers to.
  std::optional<EvaluationSession::KeptPlane> kept = session_.take_plane(problem_name, shape_set, options_);
  const bool plane_reused = kept.has_value();
  resolved = plane_reused ? kept->problem : std::make_shared<const ResolvedProblem>(resolve_problem(catalog_.get(problem_name), shape_set));
  result_.problem = problem_name;
  result_.shape_set = shape_set;
  result_.level = resolved->problem.level;
  result_.flops = resolved->flops;
  result_.compulsory_bytes = resolved->compulsory_bytes;

  // A problem the device cannot hold is said so before anything is allocated (issue #16); on the
  // host, against the memory the kernel says is available (a shape set of 40 GB tensors was a
  // load_error blamed on the candidate when the worker could not map the arena).
  DeviceFootprint footprint = trusted_device_footprint(*resolved);
  if (options_.device == "host") footprint.reserve_bytes = 0;  // no CUDA contexts or library workspaces there
  if (const std::optional<double> free_bytes = device_free_bytes(options_.device, options_.gpu); free_bytes && !plane_reused) {
    if (const auto why = why_it_does_not_fit(*resolved, footprint, *free_bytes, options_.device)) {
      decide(Verdict::resource, *why);
      return finish_worker();
    }
  }
  std::optional<PhaseClock::Scope> setup_phase;
  setup_phase.emplace(phases_, "data_plane_and_worker_setup");
  nlohmann::json setup;
  if (plane_reused) {
    plane = std::move(kept->plane);
    setup = std::move(kept->setup);
    plane->scrub_arena();  // nothing the previous worker left in it reaches this one
  } else {
    plane = make_data_plane(*resolved, options_.device, options_.gpu);
    setup = plane->allocate(1 + timing_slots());
  }
  const nlohmann::json allocated = setup;
  nlohmann::json attributes = nlohmann::json::object();
  for (const Node& node : resolved->problem.graph)
    for (const auto& [name, value] : node.attrs) attributes[node.name + "." + name] = value;
  setup["type"] = "setup";
  setup["problem"] = problem_name;
  setup["attributes"] = attributes;
  worker_->send(setup, plane->arena_fd());
  auto setup_reply = await("during setup", options_.load_timeout_s);
  if (!setup_reply) return finish_worker();
  if (message_type(*setup_reply) != "setup_done") {
    const std::string error = text_field(*setup_reply, "error");
    decide(Verdict::load_error, "worker setup failed: " + (error.empty() ? std::string("unknown") : error));
    return finish_worker();
  }
  setup_phase.reset();
  baseline_threads_ = worker_->thread_count();
  // kbv's own threads (CUDA's, CUPTI's) are up before the worker says `started`; one that loading
  // or create() added outlives every call and can finish a call's work after it returned
  // (kbv/plugin.h: create() must not start threads). The per-call check below only sees threads
  // added after this count.
  if (threads_before_load_ > 0 && baseline_threads_ > threads_before_load_) {
    decide(Verdict::hack_suspected, "the worker had " + std::to_string(threads_before_load_) + " threads before the candidate was loaded and " +
                                        std::to_string(baseline_threads_) + " after its load and create(): a thread started there can finish "
                                        "a call's work after the call returns",
           "thread_injection");
    return finish_worker();
  }
  device_used_at_start_ = plane->device_memory().used_bytes;
  result_.environment.update(plane->environment());
  result_.environment["data_plane_reused"] = plane_reused;
  if (options_.device == "cuda") result_.environment["trusted_device_footprint_bytes"] = footprint.total();
  result_.physical_floor_s = plane->physical_floor_s(*resolved);

  inputs::EpochPlan plan = inputs::plan_epoch(key_, options_.epoch, problem_name, kTrialsPerFamily);
  phase_ = "correctness";
  // The next candidate's worker starts now and is up before this one is timed: nothing of it
  // runs while a candidate is timed. On CUDA only when the worker's trace counts this candidate's
  // memory: the evaluator's own view is device-wide and would count the next worker's contexts
  // (report_memory's fallback).
  if (options_.device != "cuda" || load_traced) session_.start_next_worker();
  validate_and_check(*plane, plan);
  session_.wait_for_next_worker(options_.load_timeout_s);
  result_.environment["family_validations_reused"] = validations_reused_;
  phase_ = "timing";
  if (!decided_ && !options_.skip_timing) time_contenders(*plane, plan);
  report_memory(*plane);
  derive_torch_baselines(*resolved);
  // The pool CUDA's stream-ordered allocations came from, beside the allocations report_memory
  // counts (the pool rounds each up to its granularity and may keep it after cudaFreeAsync).
  if (peak_pool_bytes_ > 0 && result_.memory && result_.memory->is_object()) (*result_.memory)["candidate_pool_reserved_bytes"] = peak_pool_bytes_;
  if (kernel_sets_.traced_calls() > 0) result_.environment["kernel_sets_seen"] = kernel_sets_.distinct_sets();
  if (auto steps = worker_steps_.summary(); !steps.empty()) result_.environment["worker_host_steps_s"] = std::move(steps);
  // Which buffers the traced workers used: the evaluator's own setting, which it passed on to them.
  if (const auto trace = result_.environment.find("trace");
      trace != result_.environment.end() && trace->is_string() && trace->get<std::string>().starts_with("cupti"))
    result_.environment["trace_buffers"] = timing::workers_trace_buffers_name();
  result_.environment["timing_slots"] = plane->slot_count() - 1;  // the buffer sets the timed samples rotated through
  if (!decided_)
    decide(Verdict::pass, options_.skip_timing ? "correct on every gating family; not timed (--no-timing)"
                                               : "correct on every gating family; timed against the baseline");
  const bool left_nothing = worker_leaves_nothing();
  finish_worker();
  session_.keep_plane(problem_name, shape_set, options_, {resolved, std::move(plane), allocated}, left_nothing);
}

bool Evaluation::worker_leaves_nothing() const {
#ifdef KBV_HAVE_SANDBOX
  return eval::worker_leaves_nothing(options_.sandbox, true, sandbox::operator_skipped_layers(), worker_sandbox_);
#else
  return eval::worker_leaves_nothing(options_.sandbox, false, {}, worker_sandbox_);
#endif
}

void Evaluation::finish_worker() {
  if (!worker_) return;
  if (!worker_->gone()) {
    worker_->send({{"type", "exit"}});
    worker_->reap(std::chrono::milliseconds(2000));
  }
  result_.worker_stderr_tail = worker_->stderr_tail();
  if (!worker_sandbox_.is_null()) result_.environment["worker_sandbox"] = worker_sandbox_;
  worker_.reset();
}

}  // namespace detail

int timing_slots() {
  const char* text = std::getenv("KBV_TIMING_SLOTS");
  if (text == nullptr) return kTimingSlots;
  const std::string value(text);
  if (value.size() == 1 && value[0] >= '1' && value[0] < '1' + kTimingSlots) return value[0] - '0';
  throw std::runtime_error("KBV_TIMING_SLOTS='" + value + "' is not a number of timing buffer sets from 1 to " + std::to_string(kTimingSlots) +
                           " (fix: unset it for kbv's " + std::to_string(kTimingSlots) + ", or give a number in that range)");
}

EvalResult evaluate(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key) {
  EvaluationSession alone(options, catalog);
  return evaluate(options, catalog, key, alone);
}

EvalResult evaluate(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key, EvaluationSession& session) {
  (void)timing_slots();  // a malformed KBV_TIMING_SLOTS is the request's error (exit 2), found before any worker starts
  return detail::Evaluation(options, catalog, key, session).run();
}

}  // namespace kbv::eval
