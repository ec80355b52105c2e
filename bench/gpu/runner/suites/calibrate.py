"""bench/gpu/runner/suites/calibrate.py — `kbv calibrate`: the device's ceilings (copy
bandwidth, TF32 and FP32 GEMM rates) for the physical floor, and cudnnFind's choice for every
conv baseline. Its ceilings are used by the suites after it in the same run (run.sh runs it
first) and come back as OUT/ceilings.json (docs/results/ceilings.json once copied in)."""
import json

from common import code_block
from suites import Outcome

TITLE = "Device ceilings (kbv calibrate)"
PARTS = []


def run(ctx, parts, options):
    ceilings = ctx.out / "ceilings.json"
    result = ctx.run("calibrate", [ctx.bin("kbv"), "calibrate", "--out", ceilings], 420)
    body = code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else ""))
    headline = result.status()
    if result.ok and ceilings.is_file():
        measured = json.loads(ceilings.read_text())
        ctx.use_ceilings(ceilings, f"measured by this run's calibrate suite ({measured.get('measured_at', '?')})")
        body += ["", "| ceiling | value |", "|---|---|",
                 f"| copy (read + write) | {measured['copy_bytes_per_s'] / 1e12:.2f} TB/s |",
                 f"| TF32 GEMM | {measured['tf32_flops_per_s'] / 1e12:.0f} TFLOP/s |",
                 f"| FP32 GEMM | {measured['fp32_flops_per_s'] / 1e12:.1f} TFLOP/s |"]
        headline = (f"copy {measured['copy_bytes_per_s'] / 1e12:.2f} TB/s, TF32 {measured['tf32_flops_per_s'] / 1e12:.0f} TFLOP/s, "
                    f"FP32 {measured['fp32_flops_per_s'] / 1e12:.1f} TFLOP/s")
    ctx.write_summary("calibrate", TITLE, ctx.command_for("calibrate"), body)
    return Outcome(result.ok, headline)
