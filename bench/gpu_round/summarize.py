#!/usr/bin/env python3
"""summarize.py EVAL_JSONL [WALLS] — one line per kbv eval JSON report: verdict, pattern,
candidate and baseline medians, speedups, noise, memory and wall time."""
import json
import sys

walls = {}
if len(sys.argv) > 2:
    for line in open(sys.argv[2]):
        parts = line.split()
        if parts:
            walls[parts[0]] = " ".join(parts[1:])
print(f"{'candidate':44} {'verdict':17} {'pattern/family':18} {'cand ms':>9} {'noise':>6} {'tf32 ms':>9} {'fp32 ms':>9} {'x tf32':>7} {'x fp32':>7} {'mem':>6}  flags / wall")
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    name = r.get("candidate", {}).get("path", "?").rsplit("/", 1)[-1]
    t = r.get("timing") or {}
    def ms(key):
        v = (t.get(key) or {}).get("median_s")
        return f"{v * 1e3:9.3f}" if v else f"{'-':>9}"
    c = t.get("candidate") or {}
    noise = f"{c['iqr_s'] / c['median_s'] * 100:5.2f}%" if c.get("median_s") else "     -"
    sp = r.get("speedup") or {}
    f = lambda v: f"{v:7.2f}" if v else f"{'-':>7}"
    mem = (r.get("memory") or {}).get("ratio")
    why = r.get("hack_pattern") or r.get("failed_family") or ""
    print(f"{name:44} {r.get('verdict', '?'):17} {why:18} {ms('candidate')} {noise:>6} {ms('baseline_tf32')} {ms('baseline_fp32')} "
          f"{f(sp.get('vs_tf32'))} {f(sp.get('vs_fp32'))} {(f'{mem:6.2f}' if mem is not None else '     -')}  {','.join(r.get('flags', []))} {walls.get(name, '')}")
    if r.get("verdict") != "pass":
        print(f"    detail: {r.get('detail', '')[:300]}")
