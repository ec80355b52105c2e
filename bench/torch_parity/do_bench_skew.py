#!/usr/bin/env python3
"""do_bench_skew.py — where the gap between kbv's TF32 4096³ GEMM median and
triton.testing.do_bench's median of torch.mm comes from (issue #3: within 2 %).

Two kernels × four timers, on the same 4096³ fp32 operands:
  kernels: torch.mm with TF32 allowed; cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH and a 32 MiB
           workspace through ctypes (the call kbv's matmul baseline makes, daemon/ops/common/baseline/blas.cpp).
  timers:  do_bench (median; its 256 MB zero_() flush, reps queued, one sync at the end);
           kbv-style (cudaMemsetAsync over 2×L2, start event, call, stop event, sync, median);
           kbv-style with do_bench's 256 MB flush; warm (no flush, queued).
Same kernel, different timers → timer skew; same timer, different kernels → algorithm choice.
torch.profiler names the kernel each launches. Every cell is measured once per round, rounds
in rotated order, with the SM clock, power and temperature after each (a 4096³ TF32 GEMM runs
the H200 into its power limit, so back-to-back timers read the clock they cause).

Usage (where PyTorch, Triton and a GPU are): do_bench_skew.py [--samples N] [--rounds R] > report.txt
"""
import argparse
import ctypes
import statistics
import subprocess
import time

import torch
import triton.testing

N = 4096
CUBLAS_OP_N = 0
CUBLAS_TF32_TENSOR_OP_MATH = 3
WORKSPACE_BYTES = 32 << 20  # kbv's kBlasWorkspaceBytes
DO_BENCH_FLUSH_BYTES = 256_000_000  # triton.testing.do_bench's cache buffer


def cublas_sgemm(a, b, c):
    """cublasSgemm on torch's current stream, TF32 tensor-op math: c = a·b (row-major)."""
    lib = ctypes.CDLL("libcublas.so.13")  # torch has loaded it: the same copy
    handle = ctypes.c_void_p()
    assert lib.cublasCreate_v2(ctypes.byref(handle)) == 0
    assert lib.cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH) == 0
    workspace = torch.empty(WORKSPACE_BYTES, dtype=torch.uint8, device="cuda")
    assert lib.cublasSetWorkspace_v2(handle, ctypes.c_void_p(workspace.data_ptr()), ctypes.c_size_t(WORKSPACE_BYTES)) == 0
    assert lib.cublasSetStream_v2(handle, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)) == 0
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    pa, pb, pc = (ctypes.c_void_p(t.data_ptr()) for t in (a, b, c))

    def call():
        # Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: pass B first (as kbv does).
        status = lib.cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, ctypes.byref(one), pb, N, pa, N,
                                    ctypes.byref(zero), pc, N)
        assert status == 0, status

    call.keep = (lib, handle, workspace)
    return call


def kbv_style(fn, samples, flush_bytes):
    """Flush with cudaMemsetAsync, events around the call, sync every sample, median (s)."""
    cudart = ctypes.CDLL("libcudart.so.13")
    flush = torch.empty(flush_bytes, dtype=torch.uint8, device="cuda")
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for i in range(samples + 10):
        assert cudart.cudaMemsetAsync(ctypes.c_void_p(flush.data_ptr()), i % 256, ctypes.c_size_t(flush_bytes), stream) == 0
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        if i >= 10:
            times.append(start.elapsed_time(stop) * 1e-3)
    return statistics.median(times)


def warm(fn, samples):
    """No flush, reps queued back to back, one sync: the L2-warm time (s)."""
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(samples)]
    for _ in range(10):
        fn()
    for start, stop in events:
        start.record()
        fn()
        stop.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e-3 for s, e in events)


def kernels_of(fn):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})


def gpu_state():
    """SM clock (MHz), power (W) and temperature (C) right now, from nvidia-smi."""
    out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.strip().splitlines()
    return out[0] if out else "?"


def cool_down(watts, max_seconds):
    """Waits (up to max_seconds) until the GPU draws less than `watts`; returns the draw then."""
    deadline = time.monotonic() + max_seconds
    while True:
        state = gpu_state().split(",")
        draw = float(state[1]) if len(state) > 1 else 0.0
        if draw < watts or time.monotonic() > deadline:
            return draw
        time.sleep(0.25)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="each (kernel, timer) cell is measured once per round, in rotated order")
    parser.add_argument("--cool-watts", type=float, default=0,
                        help="before each cell, wait (up to 15 s) until the GPU draws less than this (0: do not wait)")
    parser.add_argument("--timers", default="do_bench median,kbv-style 2xL2 memset,kbv-style 256 MB memset,warm queued",
                        help="comma-separated subset of the timers")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = True
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.rand(N, N, device="cuda", generator=g) * 2 - 1
    b = torch.rand(N, N, device="cuda", generator=g) * 2 - 1
    c_torch, c_cublas = torch.empty(N, N, device="cuda"), torch.empty(N, N, device="cuda")
    kernels = {"torch.mm": lambda: torch.mm(a, b, out=c_torch), "cublasSgemm TF32 (kbv's call)": cublas_sgemm(a, b, c_cublas)}
    for fn in kernels.values():
        fn()
    torch.cuda.synchronize()
    print(f"GPU {torch.cuda.get_device_name(0)}, torch {torch.__version__}, L2 {l2 >> 20} MiB, 4096³ fp32 TF32")
    print(f"outputs agree: max |torch - cublas| = {(c_torch - c_cublas).abs().max().item():.3e}")
    for name, fn in kernels.items():
        print(f"{name}: kernels {kernels_of(fn)}")
    timers = {
        "do_bench median": lambda fn: triton.testing.do_bench(fn, return_mode="median") * 1e-3,
        "kbv-style 2xL2 memset": lambda fn: kbv_style(fn, args.samples, 2 * l2),
        "kbv-style 256 MB memset": lambda fn: kbv_style(fn, args.samples, DO_BENCH_FLUSH_BYTES),
        "warm queued": lambda fn: warm(fn, args.samples),
    }
    timers = {name: timers[name] for name in args.timers.split(",")}
    cells = [(k, t) for k in kernels for t in timers]
    results = {cell: [] for cell in cells}
    for r in range(args.rounds):
        for i in range(len(cells)):
            kernel, timer = cells[(i + r) % len(cells)]
            before = f"{cool_down(args.cool_watts, 15):.0f} W before; " if args.cool_watts > 0 else ""
            seconds = timers[timer](kernels[kernel])
            results[(kernel, timer)].append(seconds)
            print(f"round {r} {kernel} / {timer}: {seconds * 1e3:.4f} ms; {before}after it: SM MHz, W, C = {gpu_state()}")
    print()
    print("| kernel | " + " | ".join(f"{t} (median of {args.rounds}, min–max)" for t in timers) + " |")
    print("|---|" + "---|" * len(timers))
    med = {cell: statistics.median(v) for cell, v in results.items()}
    for kernel in kernels:
        print(f"| {kernel} | " + " | ".join(
            f"{med[(kernel, t)] * 1e3:.4f} ms ({min(results[(kernel, t)]) * 1e3:.4f}–{max(results[(kernel, t)]) * 1e3:.4f})" for t in timers) + " |")
    t, k = "torch.mm", "cublasSgemm TF32 (kbv's call)"
    print(f"timer skew, same kernel (kbv-style 2xL2 / do_bench median): torch.mm {med[(t, 'kbv-style 2xL2 memset')] / med[(t, 'do_bench median')]:.4f}, "
          f"cublasSgemm {med[(k, 'kbv-style 2xL2 memset')] / med[(k, 'do_bench median')]:.4f}")
    print(f"algorithm, same timer (cublasSgemm / torch.mm): do_bench {med[(k, 'do_bench median')] / med[(t, 'do_bench median')]:.4f}, "
          f"kbv-style {med[(k, 'kbv-style 2xL2 memset')] / med[(t, 'kbv-style 2xL2 memset')]:.4f}")
    print(f"do_bench median of torch.mm over {args.rounds} rounds: {med[(t, 'do_bench median')] * 1e3:.4f} ms "
          f"(spread {(max(results[(t, 'do_bench median')]) / min(results[(t, 'do_bench median')]) - 1) * 100:.1f} %)")


if __name__ == "__main__":
    main()
