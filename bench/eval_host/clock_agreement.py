#!/usr/bin/env python3
"""clock_agreement.py — how close honest host candidates come to the host's clock-agreement bound.

The evaluator holds the worker's median time r against its own trusted median T (round trip less a
null call, bounded by the worker's CPU time: docs/measurement.md) and flags timer_tampering when
r < FACTOR·T − SLACK (eval/sample_checks.hpp: 0.6 and 40 µs). This prints, per host example, r, T,
r/T and the margin r − (FACTOR·T − SLACK), idle and under load: --load N runs N CPU spinners beside
--parallel P evaluations at once (the test suite runs two evaluations on two cores); --batch B
evaluates B copies of each example in one `kbv eval` (a batch shares its data plane), --rounds R
repeats the whole; "null growth" is the CPU time the worker's null calls took after the load
beyond the least before it, which the host's bound on them must allow (eval/wait_correction.hpp,
kHostPreloadBound). The two exchange columns are the worker's own median CPU time through a timed
call's exchange and a null call's, besides run() (environment.worker_host_steps_s: diagnostics from
the candidate's process): what the CPU-time floor subtracts (the null call's) against what a call
costs. A disagreement is measured again before it is a verdict (up to three times:
eval/evaluation_timing.cpp); the last column and the closing line count the evaluations whose
report says so (environment.clock_agreement_measured_again).
Usage: bench/eval_host/clock_agreement.py [BUILD_DIR] [--load N] [--parallel P] [--batch B] [--rounds R] [--only NAME]...
Exit status 1 when an honest example was flagged or did not pass (the bound is too tight for this
machine), else 0.
"""
import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import host_examples

# eval/sample_checks.hpp: kHostClockAgreementFactor, kHostClockAgreementSlackSeconds.
FACTOR = 0.6
SLACK_S = 40e-6
# eval/wait_correction.hpp: kHostPreloadBound (factor 1, this slack).
HOST_BOUND_SLACK_S = 200e-6


def spin() -> None:
    while True:
        pass


def evaluate(kbv: Path, candidate: Path, env: dict, batch: int, scratch: Path) -> list:
    """The reports of `batch` copies of `candidate` in one kbv eval (the candidate itself when 1)."""
    copies = host_examples.batch_copies(candidate, batch, scratch) if batch > 1 else [candidate]
    run = subprocess.run([str(kbv), "eval", *map(str, copies), "--json"], capture_output=True, text=True, env=env)
    reports = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return reports or [{"verdict": f"exit {run.returncode}"}]


def exchange_cpu(report: dict, kind: str) -> str:
    """The worker's median CPU time in µs through one exchange of this kind besides run(): from its
    last answer to the message (stopped, continued, woken, reading) plus the message's own
    (worker/exchange_cpu.hpp; environment.worker_host_steps_s), or "–" without them."""
    steps = ((report.get("environment") or {}).get("worker_host_steps_s") or {}).get(kind) or {}
    parts = [steps.get("since_last_answer_cpu"), steps.get("message_besides_run_cpu")]
    return "–" if None in parts else f"{sum(parts) * 1e6:.1f}"


def null_call_growth(report: dict):
    """Seconds of CPU time the worker's null calls took after the load (their median, unbounded:
    trusted_wait_correction.null_call_on_cpu_median_s) beyond the least before it
    (null_calls_before_load.least_on_cpu_s): what the host's bound on them must allow; None
    without both."""
    env = report.get("environment") or {}
    after = (env.get("trusted_wait_correction") or {}).get("null_call_on_cpu_median_s")
    before = (env.get("null_calls_before_load") or {}).get("least_on_cpu_s")
    return None if after is None or before is None else after - before


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", nargs="?", default="build")
    parser.add_argument("--load", type=int, default=0, help="CPU spinners beside the evaluations")
    parser.add_argument("--parallel", type=int, default=1, help="evaluations at once")
    parser.add_argument("--batch", type=int, default=1, help="copies of each example in one kbv eval")
    parser.add_argument("--rounds", type=int, default=1, help="times the whole is repeated")
    parser.add_argument("--only", action="append", help="only this example (e.g. host_relu; repeatable)")
    args = parser.parse_args()
    found = host_examples.locate(Path(args.build_dir), args.only)
    if found is None:
        return 2
    kbv, candidates = found
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for s in spinners:
        s.start()
    flagged = []
    try:
        with tempfile.TemporaryDirectory() as scratch, ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
            env = dict(os.environ, KBV_KEY_FILE=str(Path(scratch) / "key"))
            runs = [c for _ in range(max(1, args.rounds)) for c in candidates]
            reports = [(c, r) for c, rs in pool.map(lambda c: (c, evaluate(kbv, c, env, args.batch, Path(scratch))), runs) for r in rs]
    finally:
        for s in spinners:
            s.terminate()
    print(f"host clock agreement: flagged when r < {FACTOR}·T − {SLACK_S * 1e6:.0f} µs; load {args.load} spinners, "
          f"{args.parallel} at once, batches of {args.batch}, {args.rounds} rounds, nproc {os.cpu_count()}")
    print(f"{'candidate':32} {'r µs':>9} {'T µs':>9} {'r/T':>6} {'margin µs':>10} {'call exch':>10} {'null exch':>10} {'null growth':>11}  verdict")
    worst, measured_again, growths = None, 0, []
    for candidate, report in reports:
        again = (report.get("environment") or {}).get("clock_agreement_measured_again")
        measured_again += 1 if again else 0
        remark = "  (measured again after a disagreement)" if again else ""
        r = report.get("timing", {}).get("candidate", {}).get("median_s")
        t = report.get("environment", {}).get("trusted_median_s")
        verdict = report.get("verdict", "?") + (f" ({report['hack_pattern']})" if report.get("hack_pattern") else "")
        if report.get("verdict") != "pass":
            flagged.append(candidate.name)
        if r is None or t is None:
            print(f"{candidate.name:32} {'–':>9} {'–':>9} {'–':>6} {'–':>10}  {verdict}{remark}")
            continue
        margin = r - (FACTOR * t - SLACK_S)
        worst = margin if worst is None else min(worst, margin)
        call_exchange, null_exchange = (exchange_cpu(report, kind) for kind in ("timing_calls", "null_calls"))
        growth = null_call_growth(report)
        if growth is not None:
            growths.append(growth)
        print(f"{candidate.name:32} {r * 1e6:9.1f} {t * 1e6:9.1f} {r / t if t else 0:6.2f} {margin * 1e6:10.1f} "
              f"{call_exchange:>10} {null_exchange:>10} {'–' if growth is None else f'{growth * 1e6:.1f}':>11}  {verdict}{remark}")
    print(f"smallest margin {worst * 1e6:.1f} µs" if worst is not None else "no timed example")
    if growths:
        print(f"null calls after the load against the least before it (CPU time): {statistics.mean(growths) * 1e6:.1f} µs more on "
              f"average, {max(growths) * 1e6:.1f} at most; the host's bound allows {HOST_BOUND_SLACK_S * 1e6:.0f} µs more")
    print(f"{len(reports)} evaluations: {len(reports) - len(flagged)} passed, {len(flagged)} not passed; "
          f"{measured_again} measured again after a disagreement")
    if flagged:
        print(f"not passed: {', '.join(flagged)}", file=sys.stderr)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
