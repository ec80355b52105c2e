"""bench/gpu/runner/suites/parity.py — kbv's baselines against PyTorch
(bench/torch_parity/torch_parity.py). Parts:
  timing     kbv_bench_cuda_timing times every problem's TF32 and FP32 baselines (the cold
             timer, default shapes); PyTorch eager is timed with do_bench. Target: kbv's TF32
             baseline within 3 % of PyTorch TF32, or faster
  agreement  PyTorch's outputs on inputs `kbv export` wrote, judged by `kbv compare-outputs`
             against kbv's fp64 reference. Target: within tolerance in TF32 and FP32
Default: both. Needs torch and triton (the GPU machine's python3)."""
import sys

from common import code_block
from suites import Outcome

TITLE = "Parity with PyTorch"
PARTS = ["timing", "agreement"]


def run(ctx, parts, options):
    parts = parts or PARTS
    body, ok = [], True
    argv = [sys.executable, ctx.repo / "bench/torch_parity/torch_parity.py", ctx.bundle / "problems"]
    if "timing" in parts:
        bench = ctx.run("parity-kbv_bench_cuda_timing", [ctx.bin("kbv_bench_cuda_timing"), "--problems", ctx.bundle / "problems"], 360)
        ok = ok and bench.ok
        argv.append(ctx.logs / "parity-kbv_bench_cuda_timing.log")
        if bench.ok:
            body += ["kbv's medians come from `kbv_bench_cuda_timing --problems BUNDLE/problems` (in logs.tar.gz).", ""]
        else:
            body += [f"kbv_bench_cuda_timing: {bench.status()}; {bench.stderr.strip()[-500:]}", ""]
    argv += ["--kbv", ctx.bin("kbv")]
    if set(parts) != set(PARTS):
        argv += ["--only", parts[0]]
    parity = ctx.run("parity-torch_parity", argv, 540)
    ok = ok and parity.ok
    body += parity.stdout.rstrip().splitlines() if parity.stdout.strip() else ["torch_parity.py printed no table."]
    if not parity.ok:
        body += ["", f"torch_parity.py: {parity.status()}", ""] + code_block(parity.stderr[-3000:])
    spec = "parity" + (":" + ",".join(parts) if set(parts) != set(PARTS) else "")
    ctx.write_summary("parity", TITLE, ctx.command_for(spec), body)
    last = [line for line in parity.stdout.splitlines() if line and not line.startswith("|")]
    return Outcome(ok, (last[-1] if last else parity.status())[:110])
