#!/usr/bin/env python3
"""profile_kernels.py — the GPU kernels PyTorch runs for a problem's forward, eager TF32 and
torch.compile (max-autotune-no-cudagraphs, TF32, as `kbv calibrate --torch` compiles it), each
with its CUDA time per call, from torch.profiler. What kbv's library baseline must match or beat
(issue #13): which kernels compile generated or chose, and where its time goes.

The problem comes from `kbv problems NAME --json` (its graph in PyTorch: kbv_torch/forward.py);
a problem imported from KernelBench needs --kernelbench DIR (KernelBench's own Model).

Usage (on the GPU machine; its python3 has torch):
  profile_kernels.py --kbv BIN/kbv --problem NAME [--problem NAME]... [--shapes default]
                     [--kernelbench DIR] [--calls 10] > kernels.md
Exit status: 0 when every problem was profiled, 1 when one could not be, 2 on bad usage.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibrate" / "python"))
from kbv_torch.forward import NoForward, description_from_kbv_problems, problem_forward  # noqa: E402
from kbv_torch.server import COMPILE_MODE, set_math_mode  # noqa: E402

# Calls before profiling: compile and autotune, cuDNN's benchmark choice, allocator warm-up.
WARMUP_CALLS = 3


def describe(kbv, name, shape_set):
    listed = json.loads(subprocess.run([kbv, "problems", name, "--json"], capture_output=True, text=True, check=True).stdout)
    described = listed[0] if isinstance(listed, list) else listed
    spec = None
    if described.get("file") and Path(described["file"]).is_file():
        try:
            import yaml  # noqa: PLC0415 - only an imported problem's `kernelbench` block needs the YAML itself
            spec = yaml.safe_load(Path(described["file"]).read_text())
        except ImportError:
            pass
    return description_from_kbv_problems(described, shape_set, spec)


def kernel_table(torch, call, calls):
    """(kernel name, calls, CUDA ms per forward) for every GPU kernel and memcpy/memset, by total time."""
    from torch.profiler import ProfilerActivity, profile
    for _ in range(WARMUP_CALLS):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            call()
        torch.cuda.synchronize()
    rows = []
    for event in prof.key_averages():
        device_us = getattr(event, "device_time_total", None)
        if device_us is None:
            device_us = event.cuda_time_total
        if device_us <= 0:
            continue
        rows.append((event.key, event.count / calls, device_us / 1e3 / calls))
    return sorted(rows, key=lambda row: -row[2])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kbv", required=True)
    parser.add_argument("--problem", action="append", required=True)
    parser.add_argument("--shapes", default="default")
    parser.add_argument("--kernelbench")
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        print("profile_kernels.py: torch sees no CUDA device (fix: run on the GPU machine)", file=sys.stderr)
        return 2
    failed = False
    print(f"# PyTorch kernels per forward ({torch.cuda.get_device_name()}, torch {torch.__version__}, shapes {args.shapes})\n")
    for name in args.problem:
        print(f"## {name}\n")
        try:
            forward = problem_forward(torch, describe(args.kbv, name, args.shapes), args.shapes, args.kernelbench, "cuda")
        except (NoForward, subprocess.CalledProcessError, KeyError) as why:
            print(f"not profiled: {why}\n")
            failed = True
            continue
        set_math_mode(torch, True)
        with torch.no_grad():
            contenders = [("eager TF32", forward.eager), (f"torch.compile {COMPILE_MODE} TF32", forward.compiled(torch, COMPILE_MODE))]
            for label, call in contenders:
                try:
                    rows = kernel_table(torch, call, args.calls)
                except Exception as error:  # noqa: BLE001 - a compile or run failure is this contender's result; the rest go on
                    print(f"### {label}: not profiled: {type(error).__name__}: {str(error)[:500]}\n")
                    failed = True
                    continue
                print(f"### {label}: {sum(r[2] for r in rows):.3f} ms of kernels per forward\n")
                print("| ms per forward | calls per forward | kernel |\n|---:|---:|---|")
                for key, count, ms in rows:
                    print(f"| {ms:.3f} | {count:g} | `{key[:160]}` |")
                print()
        del forward
        torch._dynamo.reset()
        torch.cuda.empty_cache()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
