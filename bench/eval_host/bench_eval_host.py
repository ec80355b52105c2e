#!/usr/bin/env python3
"""bench_eval_host.py — wall time of `kbv eval` on each host example candidate (small shapes).

Target (issue #2): under 2 s wall per evaluation on a 2-core machine, worker start included.
Usage: bench/eval_host/bench_eval_host.py [BUILD_DIR] [--repeats N] [--only NAME]... [--batch N]
Prints one row per candidate (median and max wall over the repeats, verdict) and a summary.
--batch N: also evaluates N copies of each candidate in one `kbv eval` (consecutive candidates share
the data plane, the family validations and an early-started worker: eval/evaluation_session.hpp)
and prints the wall per candidate there, beside the alone figure.
Exit status 1 when an example did not pass (the figures would mean nothing), else 0: a missed
target is printed, not failed (ctest bench_eval_host runs one example once so the program cannot
rot; the figure comes from a quiet machine).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import host_examples

TARGET_SECONDS = 2.0  # issue #2


def batch_wall(kbv: Path, candidate: Path, count: int, scratch: Path, env: dict) -> tuple:
    """Wall per candidate of `count` copies of `candidate` in one kbv eval; how many of them had
    the data plane of the one before ("k/n"); each one's verdict."""
    copies = host_examples.batch_copies(candidate, count, scratch)
    start = time.perf_counter()
    run = subprocess.run([str(kbv), "eval", *map(str, copies), "--json"], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    reports = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    shared = sum(1 for r in reports if r.get("environment", {}).get("data_plane_reused"))
    return wall / count, f"{shared}/{count}", [r.get("verdict", "?") for r in reports] or [f"exit {run.returncode}"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", nargs="?", default="build")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", action="append", help="only this example (library name without lib/.so, e.g. host_relu; repeatable)")
    parser.add_argument("--batch", type=int, default=0, help="also time N copies of each candidate in one kbv eval")
    args = parser.parse_args()
    found = host_examples.locate(Path(args.build_dir), args.only)
    if found is None:
        return 2
    kbv, candidates = found
    worst, failed = 0.0, []
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, KBV_KEY_FILE=str(Path(scratch) / "key"))
        batch_header = f" {'batch s/cand':>12} {'shared':>7}" if args.batch > 1 else ""
        print(f"{'candidate':36} {'median s':>9} {'max s':>7}{batch_header}  verdict")
        for candidate in candidates:
            walls, verdict = [], "?"
            for _ in range(args.repeats):
                start = time.perf_counter()
                run = subprocess.run([str(kbv), "eval", str(candidate), "--json"], capture_output=True, text=True, env=env)
                walls.append(time.perf_counter() - start)
                verdict = json.loads(run.stdout.splitlines()[-1])["verdict"] if run.stdout else f"exit {run.returncode}"
            worst = max(worst, max(walls))
            batch_text = ""
            if args.batch > 1:
                per_candidate, shared, batch_verdicts = batch_wall(kbv, candidate, args.batch, Path(scratch), env)
                batch_text = f" {per_candidate:12.3f} {shared:>7}"
                if any(v != "pass" for v in batch_verdicts):
                    verdict = "batch: " + ",".join(batch_verdicts)
            if verdict != "pass":
                failed.append(candidate.name)
            print(f"{candidate.name:36} {statistics.median(walls):9.3f} {max(walls):7.3f}{batch_text}  {verdict}")
    print(f"worst wall {worst:.3f} s over {len(candidates)} candidates x {args.repeats}; target < {TARGET_SECONDS} s: "
          f"{'met' if worst < TARGET_SECONDS else 'MISSED'} (nproc {os.cpu_count()})")
    if failed:
        print(f"did not pass: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
