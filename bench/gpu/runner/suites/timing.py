"""bench/gpu/runner/suites/timing.py — how precise kbv's timing is. Parts:
  noise     `kbv eval --samples` of every honest CUDA example: samples, noise pooled and within
            input families, the TF32 baseline's noise, host time inside the timed window
            (event time − kernel span), whether the order of contenders moves the figure
  gemm      the 4096³ cuBLAS TF32 GEMM (red-team library_cublas) by input family: each
            contender's median per family, noise within families against pooled
  do_bench  kbv's TF32 baseline against triton's do_bench(torch.mm) from the same idle state
            (bench/torch_parity/do_bench_matched.py; needs torch and triton)
  timer     kbv_bench_cuda_timing --skip-problems: the cold timer on spin kernels of known
            length, and the cuBLAS 4096³ GEMM through the baseline
  library   kbv_bench_cuda_timing on the bundle's problems: each library baseline's TF32, FP32
            and one-launch-per-node medians and what runs (issue #13's figures), without torch.
            Options: problems=a+b (default: every problem), kernels=1 (every kernel of one TF32
            run with its duration, CUPTI: best with one problem, CUPTI stays on once started)
  trace     kbv_bench_cuda_timing --trace-cost: what the worker's CUPTI trace adds to a null call,
            step by step, with CUPTI's defaults and with each variant (pinned host buffers,
            small device buffers, the tracer's zeroed buffers), each in its own process
  conv_engines  kbv_bench_cuda_timing --conv-engines: every cuDNN plan (heuristics A, B,
            fallback, each engine's defaults, the legacy algorithms) for conv2d_relu_biasadd's
            channels-last TF32 convolution, timed, with the kernels each runs (issue #13)
  conv_passes  kbv_bench_cuda_timing --conv-passes: each layout pass around that convolution
            (input to NHWC, output back with the bias, output back with the epilogue) in both
            transpose forms, beside a device copy of the same bytes
  gemm_padding  kbv_bench_cuda_timing --gemm-padding: matmul_irregular's unaligned TF32 product
            as called, padded as the library does (pass by pass), and padded into the unaligned
            C through cuBLAS and each cuBLASLt offer (issue #13)
  fused_chains  kbv_bench_cuda_timing --fused-chains: every fused elementwise chain of the
            problems' library baselines (default shapes) with the chain's interpreter unrolled
            and rolled (the library's), outputs compared
  column_reduce  kbv_bench_cuda_timing --column-reduce: sum_dim1's library column sum (float4
            through the rows' period) beside the plain column kernel and its variants (slices,
            unroll, block width, a running pointer), outputs compared (#13)
  linear_offers  kbv_bench_cuda_timing --linear-offers: every cuBLASLt algorithm the heuristic
            offers for the library's linear + bias step on the L3 MLPs' layers, timed cold, with
            RELU_BIAS's first: whether a timed choice would beat the heuristic's (#13). Option
            cublas=torch: run it a second time on the cuBLASLt PyTorch loads (its wheel's own,
            found by an addmm in a torch process), to see whether eager's kernels are that
            library's offers rather than other settings (L3 #2: eager's 64x256 tile, offered
            nowhere by kbv's cuBLASLt)
Default: noise, gemm, do_bench and timer."""
import statistics
import sys

import evals
from common import code_block, md_table, ms, pct, stop_reason
from suites import Outcome

TITLE = "Timing precision"
PARTS = ["noise", "gemm", "do_bench", "timer", "library", "trace", "conv_engines", "conv_passes", "gemm_padding", "fused_chains", "column_reduce",
         "linear_offers"]
TRACE_VARIANTS = ["default", "pinned", "small-buffer", "zeroed"]
DEFAULT_PARTS = ["noise", "gemm", "do_bench", "timer"]
EVAL_TIMEOUT_S = 150
NOISE_TARGET = 0.01  # IQR/median of a candidate of ≥ 100 µs (README's figures table)
LONG_ENOUGH_S = 100e-6
GEMM = "candidates/redteam/libredteam_library_cublas.so"


def order_effect(report):
    """|median after the baselines ran first − median when the candidate ran first| / median:
    what ran just before the timed call moves the figure by this much (timing.samples)."""
    samples = (report.get("timing") or {}).get("samples") or {}
    values, first = samples.get("candidate_s") or [], samples.get("baselines_first") or []
    after = [v for v, f in zip(values, first) if f]
    before = [v for v, f in zip(values, first) if not f]
    if len(after) < 4 or len(before) < 4:
        return None
    return abs(statistics.median(after) - statistics.median(before)) / statistics.median(values)


def noise_row(record):
    report = record.get("report")
    if not report or report.get("verdict") != "pass":
        return [record["label"], (report or {}).get("verdict", record.get("error") or "no report")] + [""] * 10
    t, env = report["timing"], report.get("environment") or {}
    cand, tf32, span = t.get("candidate") or {}, t.get("baseline_tf32") or {}, t.get("candidate_kernel_span") or {}
    within = (t.get("noise_within_families") or {}).get("candidate")
    host_in_window = (cand["median_s"] - span["median_s"]) * 1e6 if span.get("median_s") else None
    stop = stop_reason(env)
    return [report["problem"]["name"], cand.get("samples"), ms(cand.get("median_s")), pct(cand["iqr_s"] / cand["median_s"]), pct(within),
            pct(env.get("candidate_relative_stdev_within_families")), pct(tf32["iqr_s"] / tf32["median_s"]) if tf32.get("median_s") else "-",
            f"{host_in_window:.1f}" if host_in_window is not None else "-", pct(order_effect(report)),
            f"{env.get('sm_clock_mhz_median', 0):.0f}", f"{env.get('warmup_samples_dropped', '-')}/{env.get('throttled_samples_dropped', '-')}", stop]


def part_noise(ctx, body):
    records = [evals.evaluate(ctx, "timing", so, ["--samples"], EVAL_TIMEOUT_S)
               for so in sorted((ctx.bundle / "candidates" / "cuda").glob("*.so"))]
    body += ["## Noise per honest example (`kbv eval --samples`)", ""]
    body += md_table(["problem", "samples", "candidate ms", "IQR/median", "IQR/median within families", "rel. stdev within families (stop rule)",
                      "TF32 IQR/median", "host µs in window", "order effect", "SM MHz", "warm-up/throttled dropped", "stopped on"],
                     [noise_row(r) for r in records])
    long_ones = [r["report"] for r in records if r.get("report") and r["report"].get("verdict") == "pass"
                 and r["report"]["timing"]["candidate"]["median_s"] >= LONG_ENOUGH_S]
    noisy = [r["problem"]["name"] for r in long_ones if r["timing"]["candidate"]["iqr_s"] / r["timing"]["candidate"]["median_s"] >= NOISE_TARGET]
    body += ["", f"Target: IQR/median under {NOISE_TARGET:.0%} for candidates of ≥ 100 µs: {len(long_ones) - len(noisy)} of "
             f"{len(long_ones)} meet it" + (f" (not: {', '.join(noisy)})" if noisy else "") + ". `host µs in window`: the "
             "candidate's event time minus its kernel span (medians). `order effect`: how far the median moves between rounds "
             "where the baselines ran first and rounds where the candidate did.", ""]
    passed = [r for r in records if r.get("report") and r["report"].get("verdict") == "pass"]
    return bool(records) and len(passed) == len(records) and not noisy


def part_gemm(ctx, body):
    record = evals.evaluate(ctx, "timing", ctx.bundle / GEMM, ["--samples"], EVAL_TIMEOUT_S,
                            label="library_cublas (cuBLAS TF32 4096³)")
    report = record.get("report")
    body += ["## The 4096³ cuBLAS TF32 GEMM by input family (red-team library_cublas, `--samples`)", ""]
    if not report or not (report.get("timing") or {}).get("by_family"):
        body += [f"No figures: {record.get('error') or (report or {}).get('detail', 'no report')}", ""]
        return False
    t = report["timing"]
    rows = []
    for family, figures in sorted(t["by_family"].items()):
        median = lambda k: ms((figures.get(k) or {}).get("median_s"))
        rows.append([family, median("candidate"), median("baseline_tf32"), median("baseline_fp32"), f"{figures.get('speedup_vs_tf32', 0):.3f}"])
    body += md_table(["family", "candidate ms", "TF32 ms", "FP32 ms", "× TF32"], rows)
    within = t.get("noise_within_families") or {}
    pooled = lambda k: pct(t[k]["iqr_s"] / t[k]["median_s"]) if (t.get(k) or {}).get("median_s") else "-"
    body += ["", "| contender | IQR/median pooled | within families |", "|---|---|---|"]
    body += [f"| {k} | {pooled(k)} | {pct(within.get(k))} |" for k in ("candidate", "baseline_tf32", "baseline_fp32")]
    env = report.get("environment") or {}
    body += ["", f"{t['candidate'].get('samples')} samples in {report.get('wall_s', 0):.1f} s of eval; the stop rule's noise "
             f"(rel. stdev within families) {pct(env.get('candidate_relative_stdev_within_families'))}"
             + ("; stopped on a noise plateau" if "stopped_on_noise_plateau" in env else "") + ".", ""]
    return report.get("verdict") == "pass"


def part_do_bench(ctx, body):
    result = ctx.run("timing-do_bench_matched", [sys.executable, ctx.repo / "bench/torch_parity/do_bench_matched.py", "--kbv", ctx.bin("kbv"),
                                                 "--candidate", ctx.bundle / GEMM], 420)
    body += ["## kbv's TF32 baseline against do_bench(torch.mm), same idle state (`bench/torch_parity/do_bench_matched.py`)", ""]
    body += code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else "")) + [""]
    body += ["Target: kbv's baseline within 2 % of do_bench from the same starting state.", ""]
    return result.ok


def bench_output(ctx, body, log, argv, timeout_s, heading=None):
    """Runs one kbv_bench_cuda_timing command into `log`, appends `heading` (if any) and its
    output (with the failure's stderr) to `body`; true when it exited 0."""
    result = ctx.run(log, [ctx.bin("kbv_bench_cuda_timing")] + argv, timeout_s)
    body += ([heading, ""] if heading else []) + code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else "")) + [""]
    return result.ok


def part_timer(ctx, body):
    return bench_output(ctx, body, "timing-kbv_bench_cuda_timing", ["--skip-problems"], 300,
                        "## The cold timer on kernels of known length (`kbv_bench_cuda_timing --skip-problems`)")


def part_trace(ctx, body):
    body += ["## What the worker's CUPTI trace adds to a call (`kbv_bench_cuda_timing --trace-cost VARIANT`)", ""]
    ok = True
    for variant in TRACE_VARIANTS:
        ok = bench_output(ctx, body, f"timing-trace-{variant}", ["--trace-cost", variant], 120) and ok
    return ok


# The parts that are one kbv_bench_cuda_timing mode each: its flag, whether it takes the bundle's
# problems folder, its timeout (s) and what its heading calls it. Logged as timing-<part, dashed>.
SINGLE_MODES = {
    "conv_engines": ("--conv-engines", False, 300, "cuDNN plans for conv2d_relu_biasadd's channels-last TF32 convolution"),
    "conv_passes": ("--conv-passes", True, 120, "Layout passes around conv2d_relu_biasadd's channels-last convolution"),
    "gemm_padding": ("--gemm-padding", False, 180, "matmul_irregular's unaligned TF32 product, padded or not"),
    "fused_chains": ("--fused-chains", True, 300, "Fused elementwise chains, interpreter unrolled and rolled"),
    "column_reduce": ("--column-reduce", True, 120, "sum_dim1's column sum beside variants"),
    "linear_offers": ("--linear-offers", False, 180, "Every cuBLASLt offer for the L3 MLPs' linear layers, cold"),
}


def part_single_mode(ctx, body, part):
    flag, takes_problems, timeout_s, what = SINGLE_MODES[part]
    argv = [flag] + ([str(ctx.bundle / "problems")] if takes_problems else [])
    return bench_output(ctx, body, "timing-" + part.replace("_", "-"), argv, timeout_s, f"## {what} (`kbv_bench_cuda_timing {flag}`)")


# An addmm with a 1-D bias goes through cuBLASLt (aten's gemm_and_bias), so the process has
# loaded the cuBLASLt PyTorch uses; its folder is printed (empty when none was loaded).
TORCH_CUBLASLT_PROBE = ("import torch\n"
                        "a = torch.ones(64, 64, device='cuda'); b = torch.ones(64, device='cuda')\n"
                        "torch.addmm(b, a, a); torch.cuda.synchronize()\n"
                        "paths = [line.split()[-1] for line in open('/proc/self/maps') if 'libcublasLt' in line]\n"
                        "print(paths[0].rsplit('/', 1)[0] if paths else '')\n")


def with_library_first(env, folder):
    """`env` with `folder` searched first for shared libraries."""
    paths = [folder] + [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
    return dict(env, LD_LIBRARY_PATH=":".join(paths))


def part_linear_offers_on_torch_cublas(ctx, body):
    probe = ctx.run("timing-torch-cublaslt", [sys.executable, "-c", TORCH_CUBLASLT_PROBE], 120)
    folder = probe.stdout.strip().splitlines()[-1] if probe.ok and probe.stdout.strip() else ""
    heading = "## The same offers on PyTorch's own cuBLASLt (`timing:linear_offers,cublas=torch`)"
    if not folder:
        body += [heading, "", "PyTorch's cuBLASLt was not found: " + (probe.stderr[-800:] if not probe.ok else "no libcublasLt mapped after an addmm"), ""]
        return False
    result = ctx.run("timing-linear-offers-torch-cublas", [ctx.bin("kbv_bench_cuda_timing"), "--linear-offers"], 180,
                     env=with_library_first(ctx.env, folder))
    body += [heading, "", f"`LD_LIBRARY_PATH={folder}:…` (the header line names the cuBLASLt version that ran)", ""]
    body += code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else "")) + [""]
    return result.ok


def library_argv(bench, problems_dir, options):
    """kbv_bench_cuda_timing's command line for the library part: --only per named problem."""
    argv = [bench, "--problems", problems_dir]
    for problem in filter(None, options.get("problems", "").split("+")):
        argv += ["--only", problem]
    if options.get("kernels") == "1":
        argv.append("--kernels")
    return argv


def part_library(ctx, body, options):
    result = ctx.run("timing-library", library_argv(ctx.bin("kbv_bench_cuda_timing"), ctx.bundle / "problems", options), 480)
    named = options.get("problems", "").replace("+", ", ") or "every problem"
    body += [f"## Library baselines ({named}; `kbv_bench_cuda_timing --problems BUNDLE/problems`)", ""]
    body += code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else "")) + [""]
    return result.ok


def run(ctx, parts, options):
    parts = parts or DEFAULT_PARTS
    body, ok = [], True
    for part in parts:
        if part == "library":
            ok = part_library(ctx, body, options) and ok
        elif part in SINGLE_MODES:
            ok = part_single_mode(ctx, body, part) and ok
            if part == "linear_offers" and options.get("cublas") == "torch":
                ok = part_linear_offers_on_torch_cublas(ctx, body) and ok
        else:
            ok = globals()[f"part_{part}"](ctx, body) and ok
    words = (parts if parts != DEFAULT_PARTS else []) + [f"{k}={v}" for k, v in options.items()]
    spec = "timing" + (":" + ",".join(words) if words else "")
    ctx.write_summary("timing", TITLE, ctx.command_for(spec), body)
    return Outcome(ok, f"parts {', '.join(parts)}: " + ("targets met" if ok else "see timing.md"))
