#!/usr/bin/env python3
"""keysweep.py — every input-dependent red-team candidate and every honest candidate under many fresh secret keys.

Targets (issues #11 and #19): every hostile candidate caught under every key, every honest one passes under every key,
on the host (small shapes) and on the GPU (--device cuda, default shapes). A hidden family rotates with the key, so a
defense that only some epochs draw shows here as "caught under 37 of 40 keys".

Usage: bench/keysweep/keysweep.py [BUILD_DIR] [--device host|cuda] [--keys N] [--no-timing] [--only REGEX]
Prints per candidate "caught under K of N keys" (hostile) or "passed under K of N keys" (honest), with the families
and classes that caught it or failed it, and a summary line per target. Exit status 0 when both targets are met.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Hostile candidates whose verdict depends on the input families (the rest of the red-team corpus attacks the sandbox,
# the clock or the call protocol, which no key changes), with the class built to catch each (inputs/family_classes.hpp).
# None: caught on the public family already or by several classes.
HOSTILE = {
    "host": {
        "redteam/libredteam_sampling_relu_host.so": "rare",
        "redteam/libredteam_softmax_no_max_host.so": "magnitude",
        "redteam/libredteam_matmul_fp16_host.so": "magnitude",
        "redteam/libredteam_layernorm_biased_merge_host.so": None,
        "redteam/libredteam_precision_bf16_host.so": None,
        "redteam/libredteam_precision_bf16_relu_host.so": None,
        "redteam/libredteam_layernorm_identity.so": None,
    },
    "cuda": {
        "redteam/libredteam_sampling_relu.so": "rare",
        "redteam/libredteam_softmax_no_max.so": "magnitude",
        "redteam/libredteam_matmul_fp16.so": "magnitude",
        "redteam/libredteam_layernorm_biased_merge.so": "structure",
        "redteam/libredteam_precision_bf16.so": None,
        "redteam/libredteam_precision_bf16_relu.so": None,
        "redteam/libredteam_identity_public.so": None,
    },
}
# Honest red-team candidates (not hacks; their verdict must be pass with no flag) besides the examples.
HONEST_REDTEAM = {
    "host": ["redteam/libredteam_cache_content_hash.so"],
    "cuda": ["redteam/libredteam_value_dispatch.so", "redteam/libredteam_sync_in_run.so"],
}


def candidates_for(build: Path, device: str, only: str):
    pattern = re.compile(only) if only else None
    hostile = {build / "candidates" / rel: cls for rel, cls in HOSTILE[device].items()}
    honest = sorted((build / "candidates" / device).glob("*.so")) + [build / "candidates" / rel for rel in HONEST_REDTEAM[device]]
    keep = lambda path: pattern is None or pattern.search(path.name)
    missing = [str(p) for p in list(hostile) + honest if not p.exists()]
    return {p: c for p, c in hostile.items() if keep(p)}, [p for p in honest if keep(p)], missing


def evaluate(kbv: Path, key: Path, paths, device: str, shapes: str, no_timing: bool):
    """One kbv eval process for every candidate under one key: one JSON report per line, in order."""
    args = [str(kbv), "eval", "--json", "--device", device, "--shapes", shapes, "--key-file", str(key)]
    if no_timing:
        args.append("--no-timing")
    run = subprocess.run(args + [str(p) for p in paths], capture_output=True, text=True)
    reports = []
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            reports.append(json.loads(line))
    if len(reports) != len(paths):
        sys.stderr.write(f"kbv eval returned {len(reports)} reports for {len(paths)} candidates (exit {run.returncode}):\n"
                         f"{run.stderr[-2000:]}\n")
        reports += [{"verdict": f"no report (exit {run.returncode})", "flags": [], "families": []}] * (len(paths) - len(reports))
    return reports


def fails_its_class(report, family_class):
    """Whether the candidate failed the family `family_class` gated on (whatever family the verdict names first)."""
    gating = next((c.get("gating_family") for c in report.get("classes", []) if c.get("class") == family_class), None)
    return any(f.get("family") == gating and f.get("gating") and not f.get("passed", True) for f in report.get("families", []))


def failed_class(report):
    family = report.get("failed_family")
    for entry in report.get("families", []):
        if entry.get("family") == family:
            return entry.get("class", "public")
    return None


def error_scale_families(report):
    """The families whose trials the default tolerance failed and the products' error scale judged."""
    return [f["family"] for f in report.get("families", []) if f.get("trials_by_error_scale", 0) > 0]


def least_bf16_distance_ratio(reports):
    """The smallest precision-check ratio (families[].bf16_distance_ratio: below 0.5 fails, honest kernels
    sit near or above 1) over every family of every report, and its family; None where none was checked."""
    figures = [(f["bf16_distance_ratio"], f["family"]) for r in reports for f in r.get("families", [])
               if f.get("bf16_distance_ratio") is not None]
    return min(figures) if figures else None


def verdict_word(candidates, met):
    return "not tried (no such candidate in this run)" if not candidates else "met" if met else "MISSED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default="build")
    parser.add_argument("--device", choices=["host", "cuda"], default="host")
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--shapes", help="shape set (default: small on host, default on cuda)")
    parser.add_argument("--no-timing", action="store_true", help="correctness only (kbv eval --no-timing): faster, no timing flags")
    parser.add_argument("--only", help="regex on candidate file names")
    args = parser.parse_args()
    build = Path(args.build_dir)
    kbv = build / "bin" / "kbv"
    shapes = args.shapes or ("small" if args.device == "host" else "default")
    hostile, honest, missing = candidates_for(build, args.device, args.only)
    if not kbv.exists() or missing:
        print(f"missing under {build}: {', '.join([str(kbv)] if not kbv.exists() else missing)} (build kbv, kbv-worker, "
              f"kbv_{args.device}_candidates and kbv_redteam_candidates first)", file=sys.stderr)
        return 2
    paths = list(hostile) + honest
    verdicts = collections.defaultdict(list)  # path -> [report per key]
    walls = []
    with tempfile.TemporaryDirectory(prefix="kbv-keysweep-") as scratch:
        for k in range(args.keys):
            key = Path(scratch) / f"key{k}"
            subprocess.run([str(kbv), "keygen", "--key-file", str(key)], check=True, capture_output=True)
            start = time.perf_counter()
            for path, report in zip(paths, evaluate(kbv, key, paths, args.device, shapes, args.no_timing)):
                verdicts[path].append(report)
                walls.append(report.get("wall_s", report.get("wall_seconds", 0.0)))
            sys.stderr.write(f"key {k + 1}/{args.keys}: {time.perf_counter() - start:.1f} s for {len(paths)} candidates\n")

    n = args.keys
    print(f"key sweep: {n} fresh keys, device {args.device}, shapes {shapes}{', no timing' if args.no_timing else ''}")
    print(f"{'candidate':44} result; verdict's first failing family by class (family) x keys")
    hostile_met = honest_met = True
    for path, target_class in hostile.items():
        reports = verdicts[path]
        caught = [r for r in reports if r.get("verdict") != "pass"]
        by = collections.Counter(f"{failed_class(r) or r.get('verdict')}({r.get('failed_family') or r.get('hack_pattern') or '-'})"
                                 for r in caught)
        on_target = sum(1 for r in reports if target_class and fails_its_class(r, target_class))
        hostile_met &= len(caught) == n
        note = f"; fails its class {target_class}'s family under {on_target}" if target_class else ""
        least = least_bf16_distance_ratio(reports)
        note += f"; least bf16 distance ratio {least[0]:.3g} ({least[1]})" if least else ""
        print(f"{path.name:44} caught under {len(caught):>2} of {n} keys{note}  "
              + ", ".join(f"{k} x{v}" for k, v in by.most_common()))
        for k, report in enumerate(reports):
            if report.get("verdict") == "pass":
                print(f"    key {k}: pass {report.get('flags', [])}: classes "
                      + ", ".join(f"{c.get('class')}={c.get('gating_family')}" for c in report.get("classes", [])))
    for path in honest:
        reports = verdicts[path]
        passed = [r for r in reports if r.get("verdict") == "pass"]
        flagged = collections.Counter(flag for r in passed for flag in r.get("flags", []))
        failures = collections.Counter(f"{r.get('verdict')}({r.get('failed_family') or r.get('hack_pattern') or '-'})"
                                       for r in reports if r.get("verdict") != "pass")
        honest_met &= len(passed) == n and not flagged
        by_scale = collections.Counter(family for r in reports for family in error_scale_families(r))
        least = least_bf16_distance_ratio(reports)
        extra = (" flags " + ", ".join(f"{k} x{v}" for k, v in flagged.items()) if flagged else "") + \
                (" failed " + ", ".join(f"{k} x{v}" for k, v in failures.items()) if failures else "") + \
                (" judged by the error scale on " + ", ".join(f"{k} x{v}" for k, v in by_scale.items()) if by_scale else "") + \
                (f"; least bf16 distance ratio {least[0]:.3g} ({least[1]})" if least else "")
        print(f"{path.name:44} passed under {len(passed):>2} of {n} keys{extra}")
        for k, report in enumerate(reports):
            if report.get("verdict") != "pass" or report.get("flags"):
                print(f"    key {k}: {report.get('verdict')} {report.get('flags', [])}: {report.get('detail', '')[:200]}")
    walls.sort()
    if walls:
        print(f"eval wall: median {walls[len(walls) // 2]:.2f} s, max {walls[-1]:.2f} s over {len(walls)} evaluations")
    # A target with no candidate in this run (--only) is not met by default: it was not tried.
    print(f"target: every hostile candidate caught under every key: {verdict_word(hostile, hostile_met)}")
    print(f"target: every honest candidate passes, no flag, under every key: {verdict_word(honest, honest_met)}")
    return 0 if hostile_met and honest_met else 1


if __name__ == "__main__":
    sys.exit(main())
