"""bench/gpu/runner/suites/batch.py — throughput of consecutive candidates of one problem in one
`kbv eval` (eval/evaluation_session.hpp: the data plane, the family validations and an early-started
worker are shared; each candidate still gets its own sandboxed worker, fresh inputs and its own
timing): for every honest CUDA example, COPIES distinct copies evaluated in one process. Prints per
problem the first candidate's wall (what one evaluation alone costs, process start aside), the later
ones' mean, and the whole run's evaluations per hour (issue #15's figure: >= 2000 on one H200).
Options: copies=N (default 4), only=REGEX (examples whose file name matches), cupti_zeroed=0 (the
workers hand CUPTI its own buffers instead of zeroed ones: KBV_WORKER_CUPTI_ZEROED=off; written to
batch-cupti_unzeroed.md)."""
import json
import re
import statistics

from common import md_table, stop_reason
from suites import Outcome

TITLE = "Consecutive candidates of one problem in one kbv eval"
PARTS = []
DEFAULT_COPIES = 4
EVAL_TIMEOUT_S = 150  # per candidate (kbv eval's own call timeout is far below)
THROUGHPUT_TARGET_PER_HOUR = 2000  # issue #15
# The phases a shared session saves or hides, shown first and second candidate side by side.
SHARED_PHASES = ["worker_start", "data_plane_and_worker_setup", "correctness.reference_and_baseline_check",
                 "correctness.prepare_inputs"]
# The second table: where a later candidate's wall goes, its costliest phases over the whole run.
BREAKDOWN_PHASES = 9
# The third: the CUDA clock agreement's headroom (daemon/eval/sample_checks.cpp, for_device(cuda)):
# a call is flagged when the worker's median < FACTOR · the evaluator's − SLACK; the report's
# environment.clock_agreement gives both, and the slack now grows with the worker's routine.
CLOCK_FACTOR, CLOCK_SLACK_S = 0.5, 150e-6
# The fourth: the worker's own account of a call's host time (environment.worker_host_steps_s,
# worker/cuda_device.cpp), timed calls beside null calls: where a timed call costs more than the
# null call the clock agreement subtracts.
WORKER_STEPS = ["begin_window", "l2_persisting_reset", "gate_hold", "enqueue_before_run", "run", "enqueue_after_run",
                "synchronize", "end_window"]


def reports_of(stdout):
    reports = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            try:
                reports.append(json.loads(line))
            except ValueError:
                reports.append(None)
    return reports


def summarize(label, reports, process_wall_s, copies):
    """One table row and the numbers behind it for one example's batch."""
    verdicts = [(r or {}).get("verdict", "?") for r in reports]
    walls = [(r or {}).get("wall_s", 0.0) for r in reports]
    reused = sum(1 for r in reports[1:] if ((r or {}).get("environment") or {}).get("data_plane_reused"))
    phases = [((r or {}).get("environment") or {}).get("wall_s_by_phase") or {} for r in reports]
    later = walls[1:]

    def phase_pair(name):
        first = phases[0].get(name, 0.0) if phases else 0.0
        rest = statistics.mean(p.get(name, 0.0) for p in phases[1:]) if len(phases) > 1 else 0.0
        return f"{first:.2f} / {rest:.2f}"

    row = [label, ",".join(sorted(set(verdicts))) or "-", f"{walls[0]:.2f}" if walls else "-",
           f"{statistics.mean(later):.2f}" if later else "-", f"{process_wall_s / copies:.2f}", f"{reused}/{max(0, copies - 1)}"]
    row += [phase_pair(name) for name in SHARED_PHASES]
    return row, all(v == "pass" for v in verdicts) and len(reports) == copies


def later_phases(reports):
    """Mean wall by phase over the later candidates (the first pays for what the batch shares), and
    their mean count of kept timing samples (timing.candidate.samples)."""
    later = [r or {} for r in reports[1:]]
    phases = [(r.get("environment") or {}).get("wall_s_by_phase") or {} for r in later]
    names = {name for p in phases for name in p}
    means = {name: statistics.mean(p.get(name, 0.0) for p in phases) for name in names} if phases else {}
    samples = [((r.get("timing") or {}).get("candidate") or {}).get("samples") or 0 for r in later]
    return means, (statistics.mean(samples) if samples else 0.0)


def breakdown_table(per_example):
    """Rows of later-candidate phase means, the costliest phases over all examples as columns."""
    totals = {}
    for means, _ in per_example.values():
        for name, seconds in means.items():
            totals[name] = totals.get(name, 0.0) + seconds
    columns = [name for name, _ in sorted(totals.items(), key=lambda item: -item[1])[:BREAKDOWN_PHASES]]
    header = ["example", "timed samples"] + [f"{name} s" for name in columns] + ["other s"]
    rows = []
    for label, (means, samples) in per_example.items():
        shown = [means.get(name, 0.0) for name in columns]
        rows.append([label, f"{samples:.0f}"] + [f"{v:.2f}" for v in shown] + [f"{sum(means.values()) - sum(shown):.2f}"])
    return md_table(header, rows)


def clock_rows(label, reports):
    """One row per report with timing figures: the worker's median, the evaluator's (beyond the bare
    round trip), the most the evaluator's may be before the rule flags the call, the ping, and the
    kept samples with how their sampling stopped."""
    rows = []
    for r in reports:
        env = (r or {}).get("environment") or {}
        worker = (((r or {}).get("timing") or {}).get("candidate") or {}).get("median_s")
        trusted = env.get("trusted_median_s")
        if not worker or not trusted:
            continue
        rule = env.get("clock_agreement") or {}  # the rule the evaluation applied (since 2026-12-06), else the fixed one before
        allowed = (worker + rule.get("slack_s", CLOCK_SLACK_S)) / rule.get("factor", CLOCK_FACTOR)
        ping = env.get("ping_round_trip_s")
        samples = (((r or {}).get("timing") or {}).get("candidate") or {}).get("samples")
        rows.append([label, r.get("verdict", "?"), f"{worker * 1e3:.3f}", f"{trusted * 1e3:.3f}", f"{allowed * 1e3:.3f}",
                     f"{allowed / trusted:.2f}", f"{ping * 1e3:.3f}" if ping else "-", str(samples) if samples else "-", stop_reason(env)])
    return rows


def worker_step_rows(label, reports):
    """Two rows from the last report that has them: its timing calls' and null calls' median per
    worker step in µs (the report's are seconds), their sum, and for timing calls the evaluator's
    mean wait for the answer (timing.call_round_trips over the calls) and what of it lies beyond
    the worker's steps (the messages, waking the stopped worker)."""
    for r in reversed(reports):
        env = ((r or {}).get("environment") or {})
        steps = env.get("worker_host_steps_s") or {}
        if "timing_calls" not in steps:
            continue
        rows = []
        for kind in ("timing_calls", "null_calls"):
            figures = steps.get(kind) or {}
            values = [v * 1e6 if isinstance(v, (int, float)) else None for v in (figures.get(step) for step in WORKER_STEPS)]
            total = sum(v for v in values if v is not None)
            waited = (env.get("wall_s_by_phase") or {}).get("timing.call_round_trips")
            calls = figures.get("calls", 0)
            round_trip = waited * 1e6 / calls if kind == "timing_calls" and waited and calls else None
            rows.append([label, kind, str(calls)] + [f"{v:.0f}" if v is not None else "-" for v in values] + [f"{total:.0f}"]
                        + ([f"{round_trip:.0f}", f"{round_trip - total:.0f}"] if round_trip is not None else ["-", "-"]))
        return rows
    return []


def is_imported_example(name):
    """An example of a problem imported from KernelBench (libcuda_kb_…), not one of kbv's curated problems."""
    return name.startswith("libcuda_kb_")


def rates(runs):
    """Evaluations per hour over (example, evaluations, wall s) runs: all of them, and the curated problems' alone
    (issue #15 states its target over those). None where a subset took no time."""
    def per_hour(subset):
        wall = sum(w for _, _, w in subset)
        return 3600 * sum(n for _, n, _ in subset) / wall if wall > 0 else None
    return per_hour(runs), per_hour([r for r in runs if not is_imported_example(r[0])])


def run(ctx, parts, options):
    copies = int(options.get("copies", DEFAULT_COPIES))
    pattern = re.compile(options["only"]) if options.get("only") else None
    examples = [so for so in sorted((ctx.bundle / "candidates" / "cuda").glob("*.so")) if not pattern or pattern.search(so.name)]
    # With CUPTI's own buffers in the workers the run is an A/B half: its own
    # batch-cupti_unzeroed.md and logs, so both halves can run in one call.
    unzeroed = options.get("cupti_zeroed") == "0"
    name = "batch-cupti_unzeroed" if unzeroed else "batch"
    env = dict(ctx.env, KBV_WORKER_CUPTI_ZEROED="off") if unzeroed else None
    scratch = ctx.out / "batch-candidates"
    scratch.mkdir(parents=True, exist_ok=True)
    rows, all_pass, total_wall, total_evals, per_example, clock, steps, runs = [], True, 0.0, 0, {}, [], [], []
    for example in examples:
        paths = []
        for i in range(copies):
            copy = scratch / f"{example.stem}_{i}.so"
            copy.write_bytes(example.read_bytes() + bytes([i]))  # distinct files, as a sweep's are
            paths.append(copy)
        result = ctx.run(name, [ctx.bin("kbv"), "eval", *paths, "--device", "cuda", "--json"], EVAL_TIMEOUT_S * copies, env=env)
        reports = reports_of(result.stdout)
        for path, report in zip(paths, reports):
            ctx.append_jsonl(name, {"label": path.name, "report": report})
        row, ok = summarize(example.name, reports, result.wall_s, copies)
        rows.append(row)
        per_example[example.name] = later_phases(reports)
        clock += clock_rows(example.name, reports)
        steps += worker_step_rows(example.name, reports)
        all_pass = all_pass and ok
        total_wall += result.wall_s
        total_evals += len(reports)
        runs.append((example.name, len(reports), result.wall_s))
        for path in paths:
            path.unlink()
    per_hour = 3600 * total_evals / total_wall if total_wall > 0 else 0
    _, curated_per_hour = rates(runs)
    curated = sum(1 for name, _, _ in runs if not is_imported_example(name))
    header = ["example", "verdicts", "first s", "later s (mean)", "process s / candidate", "plane shared"]
    header += [f"{name} s (first / later)" for name in SHARED_PHASES]
    body = [f"{copies} copies of each honest CUDA example (default sizes) in one `kbv eval` each.", "",
            f"**{per_hour:.0f} evaluations per hour** ({total_evals} evaluations in {total_wall:.1f} s of `kbv eval` processes, "
            f"process starts included; target >= {THROUGHPUT_TARGET_PER_HOUR})"
            + (f"; the {curated} curated problems' examples alone: **{curated_per_hour:.0f}** per hour (issue #15 states its target over "
               f"them; the others are KernelBench imports, libcuda_kb_…)." if curated_per_hour is not None and curated < len(runs) else "."), ""]
    body += md_table(header, rows) + [""]
    body += ["`first s`, `later s`: the reports' `wall_s`; `process s / candidate`: the kbv eval process's wall over the copies; "
             f"`plane shared`: later candidates whose report says `data_plane_reused`. Every report is in logs.tar.gz (logs/{name}.jsonl).", ""]
    if copies > 1:
        body += ["Where a later candidate's wall goes (means over the later copies; `wall_s_by_phase` of the reports, "
                 "the costliest phases over the run as columns):", ""]
        body += breakdown_table(per_example)
    body += ["", "The CUDA clock agreement per evaluation (ms): the worker's median, the evaluator's median beyond the bare round "
             "trip, the most that may be before the call is flagged (`hack_suspected`), their ratio (headroom: below 1 flagged), "
             "the ping round trip of the timing phase, and the kept samples with how their sampling stopped (`median`: the median known to ±0.5 %; `noise`: the noise target or the minimums; `plateau`; `budget`):", ""]
    body += md_table(["example", "verdict", "worker", "evaluator", "allowed", "headroom", "ping", "samples", "stopped on"], clock)
    body += ["", "Where the worker's host time goes in a call (µs, medians of the last copy's timing calls and null calls; "
             "`environment.worker_host_steps_s`, reported by the worker, so diagnostic only), and for timing calls the "
             "evaluator's mean wait for the answer and what of it lies beyond the worker's steps:", ""]
    body += md_table(["example", "calls", "n"] + WORKER_STEPS + ["sum", "evaluator's wait", "beyond the worker"], steps)
    spec = "batch" + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    ctx.write_summary(name, TITLE, ctx.command_for(spec), body)
    return Outcome(all_pass and bool(rows), f"{per_hour:.0f} evaluations/hour over {total_evals} ({copies} per example"
                                            + (f"; curated {curated_per_hour:.0f}/h" if curated_per_hour is not None and curated < len(runs) else "")
                                            + "); "
                                            f"{'all pass' if all_pass else 'NOT all pass'}")
