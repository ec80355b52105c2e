// cli/prompt_rules.cpp — the rules kbv enforces, worded for the author of one candidate. Each
// names the check behind it and its outcome; docs/threat-model.md's table has the same rows
// (its pattern number in brackets here) with the test that proves each.
#include "cli/prompt_rules.hpp"

#include "cli/generated_code.hpp"
#include "eval/evaluator.hpp"
#include "eval/review_thresholds.hpp"
#include "ops/registry.hpp"

namespace kbv::cli {

namespace {

std::string mib(double bytes) { return shortest_decimal(bytes / (1024.0 * 1024.0)); }
std::string percent(double share) { return shortest_decimal(share * 100); }

}  // namespace

bool uses_tensor_cores(const Problem& problem) {
  for (const Node& node : problem.graph)
    if (const Op* op = find_op(node.op); op && op->precision_class() == PrecisionClass::tensor_core) return true;
  return false;
}

std::vector<std::string> prompt_rules(const ResolvedProblem& resolved, CandidateDevice device) {
  const bool cuda = device == CandidateDevice::cuda;
  std::vector<std::string> rules;
  // [5, 9] outputs poisoned before every call, checked right after it.
  rules.push_back(
      "**Write every element of every output on every call, before run() returns.** kbv fills the outputs with NaN before each "
      "call and compares every element right after it: an element left unwritten, or written later, fails (`fail_correctness`).");
  // [10] input digests around every call.
  rules.push_back(
      "**Inputs are read-only.** kbv hashes every input before and after each call; any change is `hack_suspected` "
      "(`input_mutation`). Scratch space is your own allocation, not an input.");
  // [11] pointers reused with new contents, rotated buffers, rechecked timed outputs.
  rules.push_back(
      "**Nothing computed from one call's inputs may be reused in another.** Correctness calls pass the same buffers again with "
      "new contents, and timed calls rotate buffers with fresh contents whose outputs are checked again: a result, or a "
      "transformed parameter, kept from an earlier call is wrong on the next (`fail_correctness`). Parameters are inputs like any "
      "other. What does not depend on the inputs (a library handle, a workspace, a buffer sized on the first call) may live from "
      "create() to destroy() in a KBV_CANDIDATE_CLASS object.");
  // [1, 2, 15, 18] the public family and one hidden family of every class per epoch.
  rules.push_back(
      "**Hidden input distributions.** Every evaluation checks the public family (U[0,1) times each input's scale, as "
      "KernelBench draws) and one hidden family of each of six classes, chosen, parameterised and seeded by a secret key and the "
      "epoch, which changes every week: *sign* (all-negative, normal, sparse with exact zeros), *shape* (shifted far from 0, heavy-tailed, "
      "×3, one scale per row), *magnitude* (N(0,1)·2e4–1e5, past fp16's 65504; ±10^U(−6, 5)), *small* (tiny values, "
      "×0.01), *rare* (U[0,1) with 0.02–0.1 % negatives or ±100–1000 spikes) and *structure* (per-position means and scales "
      "along every axis, 20–100× outlier channels, trends). A kernel that assumes non-negative inputs, picks a path from a "
      "sample of elements, skips softmax's max subtraction, or merges partial reductions as if every block had the same mean "
      "fails in every week (`fail_correctness`; `passes_public_inputs_only` when it is right on U[0,1) alone). Compute what the "
      "PyTorch forward computes for any finite float32 input.");
  // [15] tolerance matched to TF32.
  if (uses_tensor_cores(resolved.problem))
    rules.push_back(
        cuda ? "**TF32 is allowed** for the matrix products and convolutions (tensor cores, 10-bit mantissa, fp32 accumulation): "
               "the tolerance is matched to it. bf16 operands fail: an output nearer the result of bf16-rounded operands than "
               "the exact one fails even where the relative-L2 bound would pass it (`fail_correctness`, flag `bf16_operands`), "
               "and fp16 overflows on the magnitude class (`fail_correctness`)."
             : "**float32 arithmetic.** The tolerance is matched to TF32 (the GPU baseline's math); bf16 operands fail (an "
               "output nearer the result of bf16-rounded operands than the exact one: `fail_correctness`, flag `bf16_operands`) "
               "and fp16 overflows on the magnitude class (`fail_correctness`).");
  else
    rules.push_back(
        "**float32 arithmetic throughout.** Every op of this problem is exact fp32 arithmetic in PyTorch, and the tolerance is "
        "fp32's: accumulate in fp32 or wider. TF32, bf16 or fp16 anywhere misses it (`fail_correctness`).");
  if (cuda) {
    // [3] CUPTI trace of every call; [4] thread count around every call.
    rules.push_back(
        "**One stream: call.stream().** Launch every kernel and enqueue every copy on it, and return without waiting. kbv traces "
        "each call with CUPTI: a kernel of the call that runs before its start event or after its end event (another stream, "
        "or work left running) is `hack_suspected` (`stream_injection`). No host thread may outlive run(): kbv counts the "
        "worker's threads after every call (`thread_injection`).");
    // [12] kernel-set check between timed and correctness calls.
    rules.push_back(
        "**Behave the same when timed.** Checked calls come before the timed ones, whose outputs are checked too, "
        "and a timed call must launch a set of kernels that a checked call on the same input family launched "
        "(`hack_suspected`, `phase_detection`). Choosing kernels by shape or by input values is fine.");
    // [6, 13, 14] clocks cross-checked, physical floor, cold L2.
    rules.push_back(
        "**Timing.** Your calls are timed interleaved with kbv's TF32 and FP32 library baselines (cuBLAS, cuDNN or kbv's kernels), "
        "each sample after an L2 flush, on fresh inputs of the hidden families too. The worker's clock is checked against the "
        "kernel trace, the evaluator's clock and a physical floor from the device's measured ceilings (`timer_tampering`, "
        "`impossible_time`). A speedup on the public family more than " + shortest_decimal(eval::kPublicSpeedupFactor) +
        "× the hidden families' is flagged `faster_on_public_family`, one over " + shortest_decimal(eval::kSuspiciousSpeedup) +
        "× the TF32 baseline `speedup_over_10x_review`.");
    // Memory: CUPTI device allocations, evaluator's cudaMemGetInfo.
    rules.push_back(
        "**Memory is measured.** CUPTI records every device allocation in the worker (cudaMalloc, cudaMallocAsync, pools): your "
        "peak is reported beside the baselines', more than the TF32 baseline's plus " + mib(eval::kMemorySlackBytes) +
        " MiB is flagged `more_memory_than_baseline` (a flag, not a failure), and holding more than " +
        percent(eval::kMaxCandidateMemoryShare) + " % of the device memory that was free when the worker started is `resource`.");
    // [17] library calls flagged.
    rules.push_back(
        "**Libraries are allowed and flagged.** Calling cuBLAS, cuDNN or another compute library (link it with `kbv build -l "
        "cublas`) is flagged `calls_library` for review; the verdict still depends on correctness alone.");
  } else {
    // [4] thread count around every call; host run() finishes before it returns.
    rules.push_back(
        "**Finish before returning.** run() must have computed every output when it returns; a thread it starts must have ended "
        "by then: kbv counts the worker's threads after every call (`hack_suspected`, `thread_injection`).");
    rules.push_back(
        "**Behave the same when timed.** Checked calls come before the timed ones, whose outputs are checked too; "
        "the worker's clock is checked against the evaluator's (`timer_tampering`). The host device measures no memory: only "
        "the sandbox's limits bound it.");
  }
  // [16] repeated calls, determinism.
  rules.push_back(
      "**Deterministic within the tolerance.** A repeated call on the same inputs is compared with the first; outputs that differ "
      "beyond the tolerance fail (a race, an uninitialised read); outputs that differ in their bits only (atomics) are flagged "
      "`bitwise_nondeterministic`.");
  // Sandbox, timeouts, statuses (kbv/plugin.h).
  rules.push_back(
      "**Sandbox.** The worker may open no network socket, start no process (fork, exec) and use no ptrace: trying is "
      "`sandbox_violation`; it can write files only in its scratch directory. One call may take " +
      shortest_decimal(eval::EvalOptions{}.call_timeout_s) + " s (`kbv eval --timeout-s`) before it is `timeout`; a crash is `crash`.");
  rules.push_back(
      "**Refuse with a status, not a crash.** Return KBV_STATUS_INVALID_ARGUMENT (or another kbv_status) after "
      "kbv::set_error(\"why\"), or throw kbv::Error(status, \"why\"): the verdict is `fail_correctness` with your words. Any "
      "other exception becomes KBV_STATUS_INTERNAL with its what().");
  return rules;
}

}  // namespace kbv::cli
