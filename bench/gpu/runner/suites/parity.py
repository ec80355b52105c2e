"""bench/gpu/runner/suites/parity.py — kbv against PyTorch (bench/torch_parity). Parts:
  timing      kbv_bench_cuda_timing times every problem's TF32 and FP32 baselines (the cold
              timer, default shapes); PyTorch eager is timed with do_bench. Target: kbv's TF32
              baseline within 3 % of PyTorch TF32, or faster
  agreement   PyTorch's outputs on inputs `kbv export` wrote, judged by `kbv compare-outputs`
              against kbv's fp64 reference. Target: within tolerance in TF32 and FP32
  validation  validate_speedups.py: every honest CUDA example and PyTorch eager TF32 timed with
              do_bench in one process (the candidate through kbv's C ABI with ctypes), against
              kbv eval's derived speedup.vs_eager_tf32 (the run's PyTorch calibration: run
              calibrate:torch first, or keep docs/results/torch-baselines.json). Target: within
              5 % on every problem. Options: problems=a+b, rounds=N (default 3), duty=D (do_bench
              in bursts paced to that GPU duty; default kbv's 0.25, which kept every contender at
              one SM clock on the H100 where unpaced do_bench held GEMMs' eager 8–17 % lower;
              duty=1: do_bench unpaced), timer=gated (both contenders' device time behind a
              launch gate, as kbv times them, instead of do_bench's stream time, which charges a
              launch-bound eager forward its Python launches: kb_l3_3)
  kernels     profile_kernels.py: the GPU kernels PyTorch eager TF32 and torch.compile run per
              forward, with their times (torch.profiler): what the library baseline has to match.
              Options: problems=a+b (default: the problems whose library is behind compile),
              kernelbench=DIR (KernelBench/ of a checkout: imported problems need it)
  placement   placement.py: candidates (and eager) timed with do_bench on tensors of their own, on
              views into an arena laid out as kbv's (also on scattered pages), both through CUDA
              IPC in a child process, and in sample loops shaped as kbv's, beside kbv eval's median
              with the worker's trace, launch gate or sandbox off: what costs a candidate time in
              kbv. Options: problems=a+b (default: PLACEMENT_PROBLEMS), rounds=N
  timeline    kernel_timeline.py: each kernel of a candidate's call by position, its duration and
              the idle time before it, traced in PyTorch's process (torch.profiler, kbv's flush
              before each call) and in kbv's worker (kbv eval's timing.candidate_kernels, also with
              the worker's rlimits off): which of a candidate's kernels run longer in kbv.
              Options: problems=a+b (default: TIMELINE_PROBLEMS), calls=N, sweep=1 (also time the
              candidate in PyTorch's process under each context setting: cache config, L2 fetch
              granularity, persisting-L2 set-aside; beside the worker's as its report gives them)
Default: timing and agreement. Needs torch and triton (the GPU machine's python3)."""
import sys

from common import code_block
from suites import Outcome

TITLE = "Parity with PyTorch"
PARTS = ["timing", "agreement", "validation", "kernels", "placement", "timeline"]
# The problems whose library baseline is furthest behind the faster PyTorch (docs/results/calibrate-torch.md).
BEHIND_COMPILE = ["conv2d_relu_biasadd", "matmul_irregular", "cross_entropy"]
DEFAULT_PARTS = ["timing", "agreement"]
# kbv's own timers' duty (measure/timing: both calibration timers are paced to it).
VALIDATION_DUTY = "0.25"
# Where validation found kbv's candidate median furthest above do_bench's (H100, r93: the L3 #1 MLP
# +20 %, the GEMMs +2–6 %), and one it matched (relu).
PLACEMENT_PROBLEMS = ["kb_l3_1_mlp", "kb_l3_3_deepnarrowmlp", "matmul_square", "gemm_bias_gelu", "relu"]
# L3 #1 (+20 % in kbv), a one-kernel GEMM a few % above do_bench, and relu (equal).
TIMELINE_PROBLEMS = ["kb_l3_1_mlp", "matmul_square", "relu"]


def run_parity(ctx, parts):
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
    if len(parts) == 1:
        argv += ["--only", parts[0]]
    parity = ctx.run("parity-torch_parity", argv, 540)
    ok = ok and parity.ok
    body += parity.stdout.rstrip().splitlines() if parity.stdout.strip() else ["torch_parity.py printed no table."]
    if not parity.ok:
        body += ["", f"torch_parity.py: {parity.status()}", ""] + code_block(parity.stderr[-3000:])
    last = [line for line in parity.stdout.splitlines() if line and not line.startswith("|")]
    return ok, (last[-1] if last else parity.status()), body


def run_validation(ctx, options):
    argv = [sys.executable, ctx.repo / "bench/torch_parity/validate_speedups.py", "--kbv", ctx.bin("kbv"),
            "--candidates", ctx.bundle / "candidates" / "cuda", "--rounds", options.get("rounds", "3")]
    for problem in filter(None, options.get("problems", "").split("+")):
        argv += ["--problem", problem]
    argv += ["--duty", options.get("duty", VALIDATION_DUTY), "--timer", options.get("timer", "do_bench")]
    result = ctx.run("parity-validation", argv, int(options.get("timeout", 540)))
    body = [f"## Derived eager speedup against {options.get('timer', 'do_bench')} (validate_speedups.py)", "",
            f"PyTorch calibration: {ctx.torch_calibration_source}.", ""]
    body += result.stdout.rstrip().splitlines() if result.stdout.strip() else ["validate_speedups.py printed no table."]
    if not result.ok:
        body += ["", f"validate_speedups.py: {result.status()}", ""] + code_block(result.stderr[-3000:])
    last = [line for line in result.stdout.splitlines() if " within " in line and line.startswith(tuple("0123456789"))]
    return result.ok, (last[-1] if last else result.status()), body


def run_kernels(ctx, options):
    argv = [sys.executable, ctx.repo / "bench/torch_parity/profile_kernels.py", "--kbv", ctx.bin("kbv")]
    for problem in [name for name in options.get("problems", "").split("+") if name] or BEHIND_COMPILE:
        argv += ["--problem", problem]
    if options.get("kernelbench"):  # imported problems' forward is KernelBench's Model
        argv += ["--kernelbench", options["kernelbench"]]
    result = ctx.run("parity-kernels", argv, int(options.get("timeout", 300)))
    body = result.stdout.rstrip().splitlines() if result.stdout.strip() else ["profile_kernels.py printed no table."]
    if not result.ok:
        body += ["", f"profile_kernels.py: {result.status()}", ""] + code_block(result.stderr[-3000:])
    return result.ok, "kernels profiled" if result.ok else result.status(), body


def candidate_args(ctx, options, default_problems):
    """--candidate for each honest CUDA example of the problems= option's problems (else the defaults)."""
    folder = ctx.bundle / "candidates" / "cuda"
    args = []
    for problem in [name for name in options.get("problems", "").split("+") if name] or default_problems:
        for so in sorted(folder.glob(f"libcuda_{problem}_*.so")):
            args += ["--candidate", so]
    return args


def run_placement(ctx, options):
    argv = [sys.executable, ctx.repo / "bench/torch_parity/placement.py", "--kbv", ctx.bin("kbv"), "--rounds", options.get("rounds", "3")]
    argv += candidate_args(ctx, options, PLACEMENT_PROBLEMS)
    result = ctx.run("parity-placement", argv, int(options.get("timeout", 300)))
    body = ["## Where a candidate's tensors live (placement.py)", ""]
    body += result.stdout.rstrip().splitlines() if result.stdout.strip() else ["placement.py printed no table."]
    if not result.ok:
        body += ["", f"placement.py: {result.status()}", ""] + code_block(result.stderr[-3000:])
    return result.ok, "placement measured" if result.ok else result.status(), body


def run_timeline(ctx, options):
    argv = [sys.executable, ctx.repo / "bench/torch_parity/kernel_timeline.py", "--kbv", ctx.bin("kbv"), "--calls", options.get("calls", "30")]
    if options.get("sweep", "0") == "1":
        argv.append("--sweep")
    argv += candidate_args(ctx, options, TIMELINE_PROBLEMS)
    result = ctx.run("parity-timeline", argv, int(options.get("timeout", 240)))
    body = ["## A candidate's kernels one by one (kernel_timeline.py)", ""]
    body += result.stdout.rstrip().splitlines() if result.stdout.strip() else ["kernel_timeline.py printed nothing."]
    if not result.ok:
        body += ["", f"kernel_timeline.py: {result.status()}", ""] + code_block(result.stderr[-3000:])
    return result.ok, "kernels timed one by one" if result.ok else result.status(), body


def run(ctx, parts, options):
    parts = parts or DEFAULT_PARTS
    body, ok, headlines = [], True, []
    if "timing" in parts or "agreement" in parts:
        part_ok, headline, lines = run_parity(ctx, [p for p in parts if p in ("timing", "agreement")])
        ok, body = ok and part_ok, body + lines + [""]
        headlines.append(headline)
    if "validation" in parts:
        part_ok, headline, lines = run_validation(ctx, options)
        ok, body = ok and part_ok, body + lines
        headlines.append(headline)
    if "kernels" in parts:
        part_ok, headline, lines = run_kernels(ctx, options)
        ok, body = ok and part_ok, body + [""] + lines
        headlines.append(headline)
    if "placement" in parts:
        part_ok, headline, lines = run_placement(ctx, options)
        ok, body = ok and part_ok, body + [""] + lines
        headlines.append(headline)
    if "timeline" in parts:
        part_ok, headline, lines = run_timeline(ctx, options)
        ok, body = ok and part_ok, body + [""] + lines
        headlines.append(headline)
    spec = "parity" + (":" + ",".join(parts) if parts != DEFAULT_PARTS else "")
    ctx.write_summary("parity", TITLE, ctx.command_for(spec), body)
    return Outcome(ok, "; ".join(headlines)[:110])
