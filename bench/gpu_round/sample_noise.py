#!/usr/bin/env python3
"""sample_noise.py EVALS.jsonl — what the kept timing samples of `kbv eval --samples` say about
their noise: per contender, IQR/median over all samples and split by who went first in the
sample's round (a keyed coin: baselines first, or the candidate), and the SM clock ratio's
spread. A split whose halves differ by more than the IQR means the order (what ran just before
the timed call) moves the figure."""
import json
import statistics
import sys


def quantiles(values):
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


def describe(label, values):
    if len(values) < 4:
        return f"{label}: {len(values)} samples"
    low, mid, high = quantiles(values)
    return f"{label}: median {mid * 1e3:.4f} ms, IQR/median {(high - low) / mid * 100:.2f} %, n {len(values)}"


def main():
    for line in open(sys.argv[1]):
        line = line.strip()
        if not line:
            continue
        report = json.loads(line)
        samples = (report.get("timing") or {}).get("samples")
        if not samples:
            continue
        print(f"== {report['candidate']['name']} ({report['problem']['name']}): {report['verdict']}")
        first = samples["baselines_first"]
        for key in [k for k in samples if k.endswith("_s")]:
            values = samples[key]
            after_baselines = [v for v, f in zip(values, first) if f]
            candidate_first = [v for v, f in zip(values, first) if not f]
            print("  " + describe(key, values))
            print("    " + describe("rounds with baselines first", after_baselines) + " | " + describe("candidate first", candidate_first))
        clocks = samples["sm_clock_ratio"]
        print(f"  SM clock ratio after the candidate's call: min {min(clocks):.3f}, median {statistics.median(clocks):.3f}, max {max(clocks):.3f}")


if __name__ == "__main__":
    main()
