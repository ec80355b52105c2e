# probe_lib.sh — sourced by the GPU round scripts: `probe NAME ENV... -- KBV_EVAL_ARGS` runs one
# `kbv eval --json` (60 s limit) with extra environment and appends a one-line summary of its
# result (verdict, pattern, detail, flags, wall, trace, candidate/baseline medians, worker
# stderr) to $log and the raw JSON to $out/evals.jsonl. Needs $b (the bundle), $out and $log.
show() { python3 -c '
import json,sys
raw=sys.stdin.read().strip().splitlines()
if not raw: print("  no JSON"); sys.exit()
d=json.loads(raw[-1]); e=d.get("environment") or {}; t=d.get("timing") or {}
m=lambda k: round(((t.get(k) or {}).get("median_s") or 0)*1e3, 4)
c=t.get("candidate") or {}
print("  ", d["verdict"], d.get("hack_pattern"), "|", d["detail"][:160], "| flags", d["flags"], "| wall", round(d["wall_seconds"],2), "| trace", str(e.get("trace"))[:12], "| cand ms", m("candidate"), "iqr", round((c.get("iqr_s") or 0)*1e3,4), "n", c.get("samples"), "span", m("candidate_kernel_span"), "tf32", m("baseline_tf32"), "fp32", m("baseline_fp32"))
w=d.get("worker_stderr_tail","")
if w: print("   worker stderr:", w[-500:].replace("\n"," / "))
'; }
probe() {
  name=$1; shift; envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $name" >> $log
  timeout 60 env "${envs[@]}" $b/bin/kbv eval "$@" --json > $out/p.json 2> $out/p.err; echo "  rc=$?" >> $log
  show < $out/p.json >> $log 2>&1; tail -2 $out/p.err >> $log
  cat $out/p.json >> $out/evals.jsonl
}
