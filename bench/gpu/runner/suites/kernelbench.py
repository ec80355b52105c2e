"""bench/gpu/runner/suites/kernelbench.py — scripts/kernelbench/validate.py on the GPU: every
KernelBench problem of the bundle (imported and curated) at its default (KernelBench's) sizes,
kbv's CUDA fp64 reference against the original PyTorch model run in fp64 on the device.
Needs a KernelBench checkout: the bundle's (bench/gpu/bundle.sh copies $KBV_KERNELBENCH's
KernelBench/ folder into BUNDLE/kernelbench) or `kernelbench=DIR`. Parts: levels (`1`, `2`,
`3`; default all). Options: `problems=a+b`, `timeout=S` (default 540), `jobs=N` (validate.py's
--jobs), `resume=PATH` (an earlier run's OUT/kernelbench-rows.jsonl, carried in the working
tree: its judged problems are skipped and its rows kept in this summary). Each problem's row is
appended to OUT/kernelbench-rows.jsonl as it finishes, so a run stopped at its limit still
reports what it did and the next device call can resume it."""
import json
import sys
from pathlib import Path

from common import code_block, md_table
from suites import Outcome

TITLE = "KernelBench problems validated against PyTorch fp64 (validate.py, default sizes)"
PARTS = ["1", "2", "3"]


def run(ctx, parts, options):
    checkout = Path(options.get("kernelbench", ctx.bundle / "kernelbench" / "KernelBench"))
    spec = "kernelbench" + (":" + ",".join(parts) if parts else "")
    if not (checkout / "level1").is_dir():
        ctx.write_summary("kernelbench", TITLE, ctx.command_for(spec),
                          [f"No KernelBench checkout at {checkout} (fix: bundle with KBV_KERNELBENCH=/path/to/KernelBench, or pass kernelbench=DIR)."])
        return Outcome(False, "no KernelBench checkout")
    rows_file = ctx.out / "kernelbench-rows.jsonl"
    earlier, dropped = [], []
    if options.get("resume"):
        resume = Path(options["resume"])
        if not resume.is_absolute():
            resume = ctx.repo / resume
        if not resume.is_file():
            ctx.write_summary("kernelbench", TITLE, ctx.command_for(spec), [f"resume={resume}: no such file (fix: carry an earlier run's kernelbench-rows.jsonl)"])
            return Outcome(False, "resume file missing")
        earlier = [json.loads(line) for line in resume.read_text().splitlines() if line.strip()]
        # A problem the bundle no longer has (refused since, or renamed) keeps no row: it was not judged as it is now.
        bundled = {path.stem for path in (ctx.bundle / "problems").rglob("*.yaml")}
        dropped = sorted(row["problem"] for row in earlier if row["problem"] not in bundled)
        earlier = [row for row in earlier if row["problem"] in bundled]
        rows_file.write_text("".join(json.dumps(row) + "\n" for row in earlier))
    argv = [sys.executable, ctx.repo / "scripts/kernelbench/validate.py", "--kernelbench", checkout, "--shapes", "default",
            "--device", "cuda", "--kbv", ctx.bin("kbv"), "--problems-dir", ctx.bundle / "problems", "--rows-jsonl", rows_file]
    if earlier:
        argv += ["--resume", resume]
    if options.get("jobs"):
        argv += ["--jobs", options["jobs"]]
    for level in parts:
        argv += ["--level", level]
    for problem in filter(None, options.get("problems", "").split("+")):
        argv += ["--problem", problem]
    result = ctx.run("kernelbench-validate", argv, int(options.get("timeout", 540)))
    rows = [json.loads(line) for line in rows_file.read_text().splitlines() if line.strip()] if rows_file.exists() else []
    # A problem tried again after an earlier error keeps its latest row.
    rows = list({row["problem"]: row for row in rows}.values())
    counts = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    table = md_table(["problem", "KernelBench", "verdict", "fp64 rel-L2", "compare-outputs", "wall s", "note"],
                     [[r["problem"], r["kb"], r["verdict"], f"{r['fp64_rel_l2']:.1e}" if "fp64_rel_l2" in r else "",
                       f"{r['compare']} ({r['compare_rel_l2']:.1e})" if "compare" in r else "", f"{r.get('wall_s', 0):.1f}",
                       str(r.get("note", "")).replace("|", "\\|").replace("\n", " ")[:200]] for r in rows])
    headline = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no problem validated"
    body = [f"{len(rows)} problems: {headline}." + ("" if result.ok else f" validate.py: {result.status()}."), "", *table]
    if dropped:
        body += ["", f"Resumed rows dropped (the bundle has no such problem): {', '.join(dropped)}."]
    if not result.ok and result.stderr.strip():
        body += ["", "validate.py's last output:", ""] + code_block(result.stderr[-2500:])
    ctx.write_summary("kernelbench", TITLE, ctx.command_for(spec), body)
    return Outcome(result.ok, headline[:110])
