"""bench/gpu/runner/suites/sandbox.py — the worker's sandbox on the GPU machine. Parts:
  cost      kbv_bench_sandbox: what the sandbox adds to a worker's start (target < 50 ms)
  policies  a CUDA candidate (relu_vec4, small shapes, no timing) under the worker's policy and
            under variants set with KBV_SANDBOX_SKIP (docs/sandbox.md): which layer keeps CUDA
            from starting on a new kernel or driver
Default: cost."""
import evals
from common import code_block, md_table
from suites import Outcome

TITLE = "Sandbox on the GPU machine"
PARTS = ["cost", "policies"]
RELU = "candidates/cuda/libcuda_relu_vec4.so"
# (KBV_SANDBOX_SKIP, what it changes, whether CUDA must start under it: docs/sandbox.md).
POLICIES = [
    ("", "the worker's policy", True),
    ("landlock", "no Landlock: the mount-namespace fallback", True),
    ("hideonly", "hide_only", None),
    ("landlock_signalscope", "Landlock's signal scope forced on", None),
    ("noproctask", "no write rule beneath /proc/self/task (CUDA names its threads there)", False),
    ("procreadonly", "/proc remounted read-only", False),
]


def part_cost(ctx, body):
    result = ctx.run("sandbox-kbv_bench_sandbox", [ctx.bin("kbv_bench_sandbox")], 120)
    body += ["## Start cost (`kbv_bench_sandbox`)", ""]
    body += code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else "")) + [""]
    added = [line for line in result.stdout.splitlines() if line.startswith("added by apply_sandbox")]
    return result.ok and bool(added) and "met" in added[0], added[0] if added else result.status()


def part_policies(ctx, body):
    rows, baseline_started = [], None
    for skip, what, must_start in POLICIES:
        record = evals.evaluate(ctx, "sandbox-policies", ctx.bundle / RELU, ["--shapes", "small", "--no-timing"], 90,
                                label=skip or "(none)", env=dict(ctx.env, KBV_SANDBOX_SKIP=skip) if skip else None)
        report = record.get("report") or {}
        started = report.get("verdict") == "pass"
        if not skip:
            baseline_started = started
        # A variant's failure says something about the sandbox only where the policy itself starts CUDA.
        comparable = must_start is not None and (not skip or baseline_started)
        agrees = ("yes" if started == must_start else "NO") if comparable else "-"
        rows.append([f"`{skip}`" if skip else "(none)", what, report.get("verdict", record.get("error") or "no report"),
                     (report.get("detail") or "")[:120], {True: "starts", False: "fails", None: "-"}[must_start], agrees])
    body += ["## CUDA under policy variants (`KBV_SANDBOX_SKIP`)", ""]
    body += md_table(["KBV_SANDBOX_SKIP", "what changes", "verdict", "detail", "CUDA must", "agrees"], rows) + [""]
    if not baseline_started:
        body += ["CUDA did not start under the worker's own policy: the variants say nothing about the sandbox until it does.", ""]
    disagree = sum(r[-1] == "NO" for r in rows)
    return disagree == 0, f"{len(rows) - disagree} of {len(rows)} policy probes as docs/sandbox.md says"


def run(ctx, parts, options):
    parts = parts or ["cost"]
    body, ok, headlines = [], True, []
    for part in parts:
        part_ok, headline = globals()[f"part_{part}"](ctx, body)
        ok, headlines = ok and part_ok, headlines + [headline]
    spec = "sandbox" + (":" + ",".join(parts) if parts != ["cost"] else "")
    ctx.write_summary("sandbox", TITLE, ctx.command_for(spec), body)
    return Outcome(ok, "; ".join(headlines)[:110])
