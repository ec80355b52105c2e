"""bench/gpu/runner/suites/data.py — the trusted GPU data path per family (kbv_bench_cuda_data:
input generation, widening, checksums, fp64 reference, comparisons, trivial outputs, recheck)
for every bundled problem at its default size, the conv2d reference's im2col budgets, and a first
convolution node's reference with several whole images a GEMM (conv2d_relu_biasadd)."""
from common import code_block
from suites import Outcome

TITLE = "Trusted data path (kbv_bench_cuda_data)"
PARTS = []  # problem names (default: every problem)


def run(ctx, parts, options):
    result = ctx.run("data-kbv_bench_cuda_data", [ctx.bin("kbv_bench_cuda_data"), *parts], 480)
    # stderr also when it ran to its end: the bench warns there when one read did not prove a pass
    body = code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok
                                       else f"\n{result.stderr[-1500:]}" if result.stderr.strip() else ""))
    body += ["", "Times in ms (CUDA events) per family of one problem at its default size."]
    spec = "data" + (":" + ",".join(parts) if parts else "")
    ctx.write_summary("data", TITLE, ctx.command_for(spec), body)
    return Outcome(result.ok, f"{result.status()} in {result.wall_s:.0f} s")
