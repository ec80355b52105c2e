#!/usr/bin/env python3
"""kernel_timeline.py — a candidate's kernels one by one, in PyTorch's process and in kbv's worker.
kbv's median of the L3 #1 MLP candidate is ~20 % above do_bench's (docs/results/h100/parity.md),
and CUPTI's kernel span is the whole median: placement.py ruled out where the tensors live, IPC,
the flush, the launch gate and the sandbox layers one by one. This says where inside the span the
difference lies: the same .so called on tensors of its own here, kbv's flush (persisting-L2 reset,
a fill of 2 × L2 with a changing value) before each call, traced by torch.profiler (CUPTI, as kbv's
worker is), every kernel's duration and the idle time before it by position in the call; beside
it `kbv eval`'s timing.candidate_kernels (the worker's CUPTI window, the same positions), also
with the worker's rlimits off (KBV_VARIANTS). A kernel slower in kbv at every position points at
the device or the process (a clock, a context); one position alone at that kernel's data (its
operands: the arena's, or buffers the candidate allocated itself).

Usage (on the GPU machine; its python3 has torch):
  kernel_timeline.py --kbv BIN/kbv --candidate libcuda_X.so [--candidate ...] [--shapes default] [--calls 30] [--sweep]
Exit status: 0 when every candidate was measured both ways, 1 when one could not be, 2 on bad usage.
"""
import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibrate" / "python"))
from kbv_plugin import Plugin  # noqa: E402
from kbv_torch.forward import description_from_kbv_problems, graph_forward  # noqa: E402
from placement import KBV_FLUSH_MULTIPLE_OF_L2, candidate_call, loaded_cudart, sample_loop  # noqa: E402
from validate_speedups import kbv_json, set_tf32  # noqa: E402

# Calls before the traced ones: lazy loading, the candidate's own buffers, clocks up.
WARMUP_CALLS = 5
# Context-wide settings a kernel's speed can depend on (cuda_runtime_api.h's enums), read in this
# process beside the worker's (`kbv eval`'s environment.worker_context), then each changed in
# turn here with the candidate timed under it: does one of them make it as slow as in kbv?
CACHE_CONFIGS = {0: "PreferNone", 1: "PreferShared", 2: "PreferL1", 3: "PreferEqual"}
LIMIT_STACK, LIMIT_MAX_L2_FETCH_GRANULARITY, LIMIT_PERSISTING_L2_CACHE = 0x00, 0x05, 0x06
FETCH_GRANULARITIES = (32, 64, 128)
ATTRIBUTE_MAX_PERSISTING_L2_CACHE = 108  # cudaDevAttrMaxPersistingL2CacheSize
# `kbv eval` of the same candidate: as kbv runs it, with the worker's rlimits off (RLIMIT_AS is
# set after the worker's CUDA device is up; no earlier parity run left it out), and with the timed
# samples on one buffer set in the evaluator's arena instead of kbv's four in turn (KBV_TIMING_SLOTS:
# r100 found L3 #1's +20 % there, four sets of its weights in turn; since then the parameters are
# one set the timing slots share, and the variant rotates the activations and outputs no more).
KBV_VARIANTS = (("kbv", {}), ("kbv, no rlimits", {"KBV_SANDBOX_SKIP": "rlimit_as,rlimit_fsize,rlimit_nproc,rlimit_nofile"}),
                ("kbv, one timing slot", {"KBV_TIMING_SLOTS": "1"}))


def short(name, width=48):
    return name if len(name) <= width else name[:width - 1] + "…"


def flush_kernel_names(torch):
    """The kernel names torch runs for kbv's flush (placement.sample_loop's fill of 2 × L2), to
    split the trace into calls."""
    from torch.profiler import ProfilerActivity, profile
    l2_bytes = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    flush = torch.empty(KBV_FLUSH_MULTIPLE_OF_L2 * l2_bytes, dtype=torch.uint8, device="cuda")
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        flush.fill_(7)
        torch.cuda.synchronize()
    return {event.name for event in prof.events() if event.device_type.name == "CUDA"}


def torch_timeline(torch, call, calls):
    """{"kernels": [[(name, ms, gap ms)] per call], "event_ms": median of the calls' event times}: each
    call after kbv's flush, events around the call, synchronised, traced by torch.profiler."""
    from torch.profiler import ProfilerActivity, profile
    flush_names = flush_kernel_names(torch)
    warm_up(torch, call)
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        event_ms = sample_loop(torch, [call], lambda: None, "kbv", samples=calls)
    device = [(e.name, e.time_range.start, e.time_range.end) for e in prof.events() if e.device_type.name == "CUDA"]
    return {"kernels": calls_from_trace(device, flush_names), "event_ms": event_ms}


def warm_up(torch, call):
    for _ in range(WARMUP_CALLS):
        call()
    torch.cuda.synchronize()


def calls_from_trace(kernels, flush_names):
    """[[(name, ms, idle ms before it)] per call] from (name, start µs, end µs) device records: a
    call is what runs after a flush kernel (named in flush_names) and before the next; the idle
    time is since the latest end of the call's kernels before it (0 when it overlaps them)."""
    per_call, current, latest_end = [], None, None
    for name, begin, end in sorted(kernels, key=lambda k: k[1]):
        if name in flush_names:
            current, latest_end = [], None
            per_call.append(current)
            continue
        if current is None:  # before the first flush: not a traced call
            continue
        gap = 0.0 if latest_end is None or begin <= latest_end else (begin - latest_end) / 1e3
        current.append((name, (end - begin) / 1e3, gap))
        latest_end = end if latest_end is None else max(latest_end, end)
    return [c for c in per_call if c]


def by_position(calls):
    """[(name, median ms, median gap ms)] when every call ran the same sequence; else None."""
    if not calls or any([k[0] for k in c] != [k[0] for k in calls[0]] for c in calls):
        return None
    return [(calls[0][i][0], statistics.median(c[i][1] for c in calls), statistics.median(c[i][2] for c in calls))
            for i in range(len(calls[0]))]


def context_settings(cudart):
    """This process's context settings, as worker/cuda_device.cpp's context_settings() reads the worker's."""
    import ctypes
    cache, value = ctypes.c_int(-1), ctypes.c_size_t(0)

    def limit(which):
        return value.value if cudart.cudaDeviceGetLimit(ctypes.byref(value), ctypes.c_int(which)) == 0 else -1
    return {"cache_config": cache.value if cudart.cudaDeviceGetCacheConfig(ctypes.byref(cache)) == 0 else -1,
            "max_l2_fetch_granularity_bytes": limit(LIMIT_MAX_L2_FETCH_GRANULARITY),
            "persisting_l2_cache_bytes": limit(LIMIT_PERSISTING_L2_CACHE), "stack_bytes": limit(LIMIT_STACK)}


def settings_sweep(torch, call, calls):
    """[(setting, median ms of `calls` event-timed calls after kbv's flush)]: as found, then each
    cache config, each L2 fetch granularity and the largest persisting-L2 set-aside in turn, every
    one put back before the next."""
    import ctypes
    cudart = loaded_cudart()

    def timed():
        warm_up(torch, call)
        return sample_loop(torch, [call], lambda: None, "kbv", samples=calls)
    found = context_settings(cudart)
    rows = [("as found", timed())]
    for config, name in CACHE_CONFIGS.items():
        if cudart.cudaDeviceSetCacheConfig(ctypes.c_int(config)) == 0:
            rows.append((f"cache config {name}", timed()))
    cudart.cudaDeviceSetCacheConfig(ctypes.c_int(found["cache_config"]))
    for granularity in FETCH_GRANULARITIES:
        if cudart.cudaDeviceSetLimit(ctypes.c_int(LIMIT_MAX_L2_FETCH_GRANULARITY), ctypes.c_size_t(granularity)) == 0:
            rows.append((f"L2 fetch granularity {granularity} B", timed()))
    cudart.cudaDeviceSetLimit(ctypes.c_int(LIMIT_MAX_L2_FETCH_GRANULARITY), ctypes.c_size_t(max(0, found["max_l2_fetch_granularity_bytes"])))
    most = ctypes.c_int(0)
    if cudart.cudaDeviceGetAttribute(ctypes.byref(most), ctypes.c_int(ATTRIBUTE_MAX_PERSISTING_L2_CACHE), ctypes.c_int(torch.cuda.current_device())) == 0 \
            and most.value > 0 and cudart.cudaDeviceSetLimit(ctypes.c_int(LIMIT_PERSISTING_L2_CACHE), ctypes.c_size_t(most.value)) == 0:
        rows.append((f"persisting L2 set-aside {most.value >> 20} MiB", timed()))
    cudart.cudaDeviceSetLimit(ctypes.c_int(LIMIT_PERSISTING_L2_CACHE), ctypes.c_size_t(max(0, found["persisting_l2_cache_bytes"])))
    return found, rows


def kbv_timeline(kbv, candidate, shapes, settings):
    try:
        report = kbv_json(kbv, ["eval", str(candidate), "--device", "cuda", "--shapes", shapes, "--json"], env=dict(os.environ, **settings))
    except (RuntimeError, IndexError, ValueError) as error:
        return {"error": f"kbv eval: {error}"}
    timing = report.get("timing") or {}
    kernels = timing.get("candidate_kernels") or {}
    candidate = (timing.get("candidate") or {}).get("median_s")
    return {"verdict": report.get("verdict"), "candidate_ms": candidate * 1e3 if candidate is not None else None,
            "context": (report.get("environment") or {}).get("worker_context"),
            "by": kernels.get("by"), "kernels": kernels.get("kernels") or [],
            "kernel_sum_ms": kernels["kernel_sum_s"] * 1e3 if "kernel_sum_s" in kernels else None,
            "gap_sum_ms": kernels["gap_sum_s"] * 1e3 if "gap_sum_s" in kernels else None}


def torch_cudart_folder():
    """The folder of the libcudart this process (PyTorch's) mapped."""
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "libcudart.so" in line})
    return str(Path(paths[0]).parent) if paths else None


def kbv_variants():
    """KBV_VARIANTS, and `kbv eval` with PyTorch's libcudart first on LD_LIBRARY_PATH (the evaluator
    and the worker, which passes LD_LIBRARY_PATH on, then run the CUDA runtime PyTorch runs)."""
    variants = list(KBV_VARIANTS)
    if folder := torch_cudart_folder():
        variants.append(("kbv, PyTorch's libcudart", {"LD_LIBRARY_PATH": folder + ":" + os.environ.get("LD_LIBRARY_PATH", "")}))
    return variants


def fmt(value):
    return "-" if value is None else f"{value:.4f}"


def measure(torch, args, candidate):
    plugin = Plugin.load(str(candidate))
    try:
        described = kbv_json(args.kbv, ["problems", plugin.problem, "--json"])
        description = dict(description_from_kbv_problems(described, args.shapes), attributes=described.get("attributes") or {})
        forward = graph_forward(torch, description, "cuda")
        inputs = [t.contiguous() for t in forward.tensors]
        outputs = [torch.empty(tuple(spec["shape"]), device="cuda") for spec in description["outputs"]]
        call = candidate_call(torch, plugin, description, inputs, outputs)
        traced = torch_timeline(torch, call, args.calls)
        traced["context"], traced["sweep"] = settings_sweep(torch, call, args.calls) if args.sweep else (context_settings(loaded_cudart()), [])
    finally:
        plugin.close()
    del forward, inputs, outputs
    torch.cuda.empty_cache()
    return traced


def print_candidate(candidate, traced, variants):
    python_rows = by_position(traced["kernels"])
    sums = [sum(k[1] for k in c) for c in traced["kernels"]]
    gaps = [sum(k[2] for k in c) for c in traced["kernels"]]
    print(f"### {candidate.name}\n")
    print(f"PyTorch's process: events {traced['event_ms']:.4f} ms a call, kernels {statistics.median(sums):.4f} ms, "
          f"idle between them {statistics.median(gaps):.4f} ms ({len(traced['kernels'])} traced calls); context {traced['context']}")
    if traced["sweep"]:
        print("PyTorch's process, event-timed median under each context setting (ms): "
              + ", ".join(f"{name} {ms:.4f}" for name, ms in traced["sweep"]))
    for name, figures in variants.items():
        if figures.get("error"):
            print(f"{name}: {figures['error']}")
            continue
        print(f"{name}: verdict {figures['verdict']}, candidate {fmt(figures['candidate_ms'])} ms, kernels {fmt(figures['kernel_sum_ms'])} ms, "
              f"idle between them {fmt(figures['gap_sum_ms'])} ms (by {figures['by']}); worker context {figures.get('context')}")
    print()
    names = list(variants)
    header = ["position", "kernel (PyTorch's name)", "PyTorch ms (idle before)"] + [f"{n} ms (idle before)" for n in names] + \
             [f"{n} / PyTorch" for n in names]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    if python_rows is None:
        print("| - | the calls ran different kernel sequences in PyTorch's process: no table by position |")
        return
    for position, (name, ms, gap) in enumerate(python_rows):
        cells = [str(position), short(name), f"{ms:.4f} ({gap:.4f})"]
        ratios = []
        for n in names:
            rows = variants[n].get("kernels") or []
            row = rows[position] if variants[n].get("by") == "position" and position < len(rows) else None
            if row is None:
                cells.append("-")
                ratios.append("-")
                continue
            kbv_ms, kbv_gap = row["median_s"] * 1e3, row["median_gap_before_s"] * 1e3
            cells.append(f"{kbv_ms:.4f} ({kbv_gap:.4f})")
            ratios.append(f"{kbv_ms / ms:.3f}" if ms > 0 else "-")
        print("| " + " | ".join(cells + ratios) + " |")
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description="a candidate's kernels one by one, in PyTorch's process and in kbv's worker")
    parser.add_argument("--kbv", required=True, help="the kbv binary")
    parser.add_argument("--candidate", action="append", required=True, help="a CUDA candidate .so (repeatable)")
    parser.add_argument("--shapes", default="default")
    parser.add_argument("--calls", type=int, default=30, help="traced calls in PyTorch's process")
    parser.add_argument("--sweep", action="store_true", help="also time the candidate here under each context setting (settings_sweep)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.calls < 1:
        print("kernel_timeline.py: --calls must be at least 1", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print("kernel_timeline.py: torch is not installed (fix: run with the GPU machine's python3)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("kernel_timeline.py: torch sees no CUDA device (fix: run on the GPU machine)", file=sys.stderr)
        return 2
    set_tf32(torch, True)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}; shapes {args.shapes}; {args.calls} traced calls in PyTorch's "
          f"process after {WARMUP_CALLS} warm-up calls; medians in ms\n")
    failed = 0
    for candidate in map(Path, args.candidate):
        try:
            traced = measure(torch, args, candidate)
        except Exception as error:
            print(f"### {candidate.name}\n\nfailed in PyTorch's process: {type(error).__name__}: {error}\n")
            failed += 1
            continue
        variants = {name: kbv_timeline(args.kbv, candidate, args.shapes, settings) for name, settings in kbv_variants()}
        failed += any(v.get("error") or v.get("by") is None for v in variants.values())
        print_candidate(candidate, traced, variants)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
