#!/usr/bin/env python3
"""placement.py — does where a candidate's tensors live change its time? The validation bench
(validate_speedups.py) found kbv's median of the L3 #1 MLP candidate 20 % above do_bench's
(H100, r92 and r93: 7.26–7.32 ms against 6.00–6.09) while eager's agreed, and the GEMM examples'
2–6 % above. kbv's worker runs a candidate on views into one device arena the evaluator
allocated (eval/arena_layout.cpp: two slots, tensors 256-byte aligned, one cudaMalloc) and shares
through CUDA IPC; do_bench runs it on tensors of their own in its own process. This times the same
candidate, and PyTorch eager TF32, four ways with do_bench (median, unpaced, rounds alternating):
  own        tensors of their own (validate_speedups.py's way)
  arena      views into one allocation laid out as kbv's arena
  own-ipc    the own tensors, opened through CUDA IPC in a child process (torch.multiprocessing)
  arena-ipc  the arena's views, opened through CUDA IPC in a child process (kbv's way)
then, in the child on the arena's views, sample loops of kbv's shape (L2 flushed, events around
one call, synchronised; LOOPS): with the parent idle between samples or running a kernel of its
own before each (as kbv's evaluator writes inputs and times its library between a worker's
calls), after a rest (kbv's pacing), with do_bench's flush or the worker's; in this process, kbv's
flush on one buffer set against ROTATING_SETS sets taken in turn, as kbv's timed samples rotate
(a fresh set of addresses each sample). Beside them `kbv
eval`'s candidate median, CUPTI kernel span and TF32 library median, also with the worker's trace,
launch gate or sandbox off (KBV_VARIANTS), and its samples' medians split by input family and by
whether the library ran just before.

Usage (on the GPU machine; its python3 has torch):
  placement.py --kbv BIN/kbv --candidate libcuda_X.so [--candidate ...] [--shapes default] [--rounds 3]
Exit status: 0 when every candidate was measured, 1 when one could not be, 2 on bad usage.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibrate" / "python"))
from kbv_plugin import Plugin  # noqa: E402
from kbv_torch.forward import description_from_kbv_problems, graph_forward  # noqa: E402
from validate_speedups import ClockSampler, kbv_json, open_clock, set_tf32  # noqa: E402

# kbv's eval/arena_layout.hpp: kTensorAlignment, and the two slots the evaluator lays out.
ARENA_ALIGNMENT = 256
ARENA_SLOTS = 2
PLACEMENTS = ("own", "arena", "own-ipc", "arena-ipc", "arena, fragmented")
# "arena, fragmented": the device's memory is first filled with FRAGMENT_BYTES allocations up to
# LEAVE_FREE_BYTES, every other one freed, then the arena allocated (from the holes) and the rest
# freed: an arena on scattered physical pages, as a long-lived evaluator's may be.
FRAGMENT_BYTES = 2 << 20
LEAVE_FREE_BYTES = 1 << 30
# The sample loops: samples each, the L2 flush (do_bench's 256 MB), and what the parent writes
# in its own context before each sample of the second loop (kbv writes a sample's inputs).
LOOP_SAMPLES = 30
FLUSH_BYTES = 256 << 20
ANOTHER_CONTEXT_BYTES = 512 << 20
# kbv paces its samples to a GPU duty of 0.25 (measure/timing/duty_pacer): a 7 ms call rests
# ~20 ms. The paced loops rest this long before each sample, the last one then keeps the GPU
# busy for SPIN_MS (a spinning kernel) before the flush.
IDLE_MS = 20
SPIN_MS = 2
SPIN_CLOCK_MHZ = 1980  # the H100's and H200's default SM clock: torch.cuda._sleep counts cycles
# Each loop: its name, what runs before a sample (the parent idle, running a kernel on its own
# buffer or writing the inputs into the arena both share, a rest, a rest then a spin) and the L2 flush: do_bench's (zero 256 MB) or the worker's
# (worker/cuda_device.cpp: cudaCtxResetPersistingL2Cache, then a memset of KBV_FLUSH_MULTIPLE_OF_L2
# × the L2 with a value that changes every sample).
LOOPS = (("parent idle", "parent idle", "zero"), ("parent kernel", "parent kernel", "zero"),
         (f"idle {IDLE_MS} ms", "rest", "zero"), (f"idle {IDLE_MS} ms, spin {SPIN_MS} ms", "rest, spin", "zero"),
         ("kbv's flush", "parent idle", "kbv"), (f"idle {IDLE_MS} ms, kbv's flush", "rest", "kbv"),
         ("parent rewrites the inputs, kbv's flush", "parent rewrite", "kbv"))
KBV_FLUSH_MULTIPLE_OF_L2 = 2
# `kbv eval` of the same candidate under the worker's settings that can be changed from outside.
KBV_VARIANTS = (("trace on", {}), ("trace off", {"KBV_WORKER_TRACE": "off"}),
                ("no launch gate", {"KBV_WORKER_LAUNCH_GATE": "off"}),
                ("no seccomp", {"KBV_SANDBOX_SKIP": "seccomp"}), ("no landlock", {"KBV_SANDBOX_SKIP": "landlock"}),
                ("no namespaces", {"KBV_SANDBOX_SKIP": "userns,netns,mountns"}),
                ("no sandbox", {"KBV_SANDBOX_SKIP": "userns,netns,mountns,landlock,seccomp"}))
# The filesystem layer is not in "no sandbox": with it skipped the sandbox's own check finds kbv's
# key file readable and refuses to run the candidate (verdict resource; H100 r95).
# kbv's timed samples rotate through this many buffer sets (eval/evaluator.hpp, kTimingSlots), so
# a candidate reads other addresses than in its previous sample (no caching by pointer); do_bench
# and the loops above reuse one. The rotating loop times the candidate the same way on that many
# copies of its tensors in this process: the GPU's address translations then start cold each
# sample, as in kbv's worker.
ROTATING_SETS = 4


def aligned(nbytes):
    return (nbytes + ARENA_ALIGNMENT - 1) // ARENA_ALIGNMENT * ARENA_ALIGNMENT


def arena_views(torch, inputs, outputs, device="cuda"):
    """Slot 0 of an arena laid out as kbv's (inputs then outputs, slot after slot), filled with the
    inputs' values: (arena, input views, output views)."""
    tensors = list(inputs) + list(outputs)
    slot = sum(aligned(t.numel() * t.element_size()) for t in tensors)
    arena = torch.empty(slot * ARENA_SLOTS, dtype=torch.uint8, device=device)
    views, offset = [], 0
    for t in tensors:
        nbytes = t.numel() * t.element_size()
        views.append(arena[offset:offset + nbytes].view(t.dtype).view(t.shape))
        offset += aligned(nbytes)
    for view, t in zip(views, inputs):
        view.copy_(t)
    return arena, views[:len(inputs)], views[len(inputs):]


def loaded_cudart():
    """torch's libcudart, by the path this process mapped it from."""
    import ctypes
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libcudart.so" in line}
    if not paths:
        raise RuntimeError("no libcudart mapped in this process")
    return ctypes.CDLL(sorted(paths)[0])


def fragmented_arena(torch, inputs, outputs):
    """arena_views() after scattering the device's free memory (see FRAGMENT_BYTES)."""
    import ctypes
    cudart = loaded_cudart()
    torch.cuda.empty_cache()
    chunks = []
    while torch.cuda.mem_get_info()[0] > LEAVE_FREE_BYTES:
        pointer = ctypes.c_void_p()
        if cudart.cudaMalloc(ctypes.byref(pointer), ctypes.c_size_t(FRAGMENT_BYTES)) != 0:
            break
        chunks.append(pointer)
    for pointer in chunks[1::2]:
        cudart.cudaFree(pointer)
    try:
        return arena_views(torch, inputs, outputs)
    finally:
        for pointer in chunks[0::2]:
            cudart.cudaFree(pointer)


def candidate_call(torch, plugin, description, inputs, outputs):
    """The candidate's run() on these tensors (in the spec's order), on torch's current stream."""
    return plugin.call({spec["name"]: t for spec, t in zip(description["inputs"], inputs)},
                       {spec["name"]: t for spec, t in zip(description["outputs"], outputs)}, description["attributes"],
                       torch.cuda.current_stream().cuda_stream)


def time_pair(torch, plugin, description, forward, inputs, outputs, rounds, clock):
    """{candidate: (median ms, SM MHz), eager: (…)} on these tensors, alternating over rounds."""
    from triton.testing import do_bench
    call = candidate_call(torch, plugin, description, inputs, outputs)
    call()
    torch.cuda.synchronize()
    samples = {"candidate": [], "eager": []}
    mhz = {"candidate": [], "eager": []}
    with torch.no_grad():
        for r in range(rounds):
            for who in (("candidate", "eager") if r % 2 == 0 else ("eager", "candidate")):
                fn = call if who == "candidate" else (lambda: forward.run(*inputs))
                with ClockSampler(clock) as sampler:
                    samples[who].append(do_bench(fn, warmup=200, rep=1000, return_mode="median"))
                if sampler.median_mhz:
                    mhz[who].append(sampler.median_mhz)
    return {who: (statistics.median(samples[who]), statistics.median(mhz[who]) if mhz[who] else None) for who in samples}


def sample_loop(torch, calls, before, flush_kind, samples=LOOP_SAMPLES):
    """Median ms of `samples` calls, each: before() (the parent's turn, a rest or a spin), L2
    flush (see LOOPS), start event, the next of `calls` in turn, stop event, synchronise."""
    kbv_flush = flush_kind == "kbv"
    l2_bytes = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    flush = torch.empty(KBV_FLUSH_MULTIPLE_OF_L2 * l2_bytes if kbv_flush else FLUSH_BYTES, dtype=torch.uint8, device="cuda")
    cudart = loaded_cudart() if kbv_flush else None
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for sample in range(samples):
        before()
        if kbv_flush:
            cudart.cudaCtxResetPersistingL2Cache()
            flush.fill_(1 + sample % 255)
        else:
            flush.zero_()
        start.record()
        calls[sample % len(calls)]()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def rotation_loops(torch, plugin, description, inputs, outputs):
    """{loop name: median ms}: kbv's flush before each sample, on one buffer set and on
    ROTATING_SETS copies taken in turn (see ROTATING_SETS), in this process."""
    calls = [candidate_call(torch, plugin, description, inputs, outputs)]
    copies = [([t.clone() for t in inputs], [torch.empty_like(t) for t in outputs]) for _ in range(ROTATING_SETS - 1)]
    calls += [candidate_call(torch, plugin, description, copy_in, copy_out) for copy_in, copy_out in copies]
    for call in calls:  # each set's first call outside the loops
        call()
    torch.cuda.synchronize()
    rows = {"one buffer set": sample_loop(torch, calls[:1], lambda: None, "kbv"),
            f"{ROTATING_SETS} buffer sets in turn": sample_loop(torch, calls, lambda: None, "kbv")}
    del calls, copies
    torch.cuda.empty_cache()
    return rows


def child_main(queue, results, requests, replies, candidate, description, rounds):
    """In a spawned process: the tensors arrive through CUDA IPC; time them both ways there, then
    the two sample loops on the arena's views."""
    import torch
    try:
        set_tf32(torch, True)
        forward = graph_forward(torch, description, "cuda")
        plugin = Plugin.load(candidate)
        clock = open_clock(torch, "cuda")
        out = {}
        while True:
            item = queue.get()
            if item is None:
                break
            placement, inputs, outputs = item
            out[placement] = time_pair(torch, plugin, description, forward, inputs, outputs, rounds, clock)
            if placement == "arena-ipc":
                call = candidate_call(torch, plugin, description, inputs, outputs)
                spin_cycles = int(SPIN_MS * SPIN_CLOCK_MHZ * 1e3)
                for loop, what, flush_kind in LOOPS:
                    def before(what=what):
                        if what.startswith("parent"):
                            requests.put(what)
                            replies.get()
                            return
                        time.sleep(IDLE_MS * 1e-3)
                        if "spin" in what:
                            torch.cuda._sleep(spin_cycles)
                    out[loop] = sample_loop(torch, [call], before, flush_kind)
                requests.put(None)
            del inputs, outputs
        plugin.close()
        results.put(("ok", out))
    except Exception as error:  # reported by the parent, which names the candidate
        requests.put(None)  # the parent's service loop ends either way
        results.put(("error", f"{type(error).__name__}: {error}"))


def kbv_figures(kbv, candidate, shapes, settings):
    try:
        report = kbv_json(kbv, ["eval", str(candidate), "--device", "cuda", "--shapes", shapes, "--json", "--samples"],
                          env=dict(os.environ, **settings))
    except (RuntimeError, IndexError, ValueError) as error:  # no JSON line: kbv's stderr, or the parse error
        return {"error": f"kbv eval: {error}"}
    timing = report.get("timing") or {}

    def ms(key):
        entry = timing.get(key) or {}
        return entry.get("median_s") * 1e3 if entry.get("median_s") is not None else None
    samples = timing.get("samples") or {}
    split = {}
    for seconds, first, family, ratio in zip(samples.get("candidate_s", []), samples.get("baselines_first", []),
                                             samples.get("family", []), samples.get("sm_clock_ratio", [])):
        split.setdefault(f"library {'before' if first else 'after'}", []).append(seconds * 1e3)
        split.setdefault(f"family {family}", []).append(seconds * 1e3)
        split.setdefault("SM clock ratio", []).append(ratio)
    return {"verdict": report.get("verdict"), "candidate": ms("candidate"), "span": ms("candidate_kernel_span"),
            "library": ms("baseline_tf32"), "split": {k: (statistics.median(v), len(v)) for k, v in split.items()}}


def fmt(value):
    return "-" if value is None else f"{value:.4f}"


def measure(torch, mp, args, candidate, clock):
    plugin = Plugin.load(str(candidate))
    described = kbv_json(args.kbv, ["problems", plugin.problem, "--json"])
    description = dict(description_from_kbv_problems(described, args.shapes), attributes=described.get("attributes") or {})
    forward = graph_forward(torch, description, "cuda")
    inputs = [t.contiguous() for t in forward.tensors]
    outputs = [torch.empty(tuple(spec["shape"]), device="cuda") for spec in description["outputs"]]
    arena, arena_in, arena_out = arena_views(torch, inputs, outputs)
    rows = {"own": time_pair(torch, plugin, description, forward, inputs, outputs, args.rounds, clock),
            "arena": time_pair(torch, plugin, description, forward, arena_in, arena_out, args.rounds, clock)}
    rows["rotation"] = rotation_loops(torch, plugin, description, inputs, outputs)
    scattered, scattered_in, scattered_out = fragmented_arena(torch, inputs, outputs)
    rows["arena, fragmented"] = time_pair(torch, plugin, description, forward, scattered_in, scattered_out, args.rounds, clock)
    del scattered, scattered_in, scattered_out
    plugin.close()
    context = mp.get_context("spawn")
    queue, results, requests, replies = context.Queue(), context.Queue(), context.Queue(), context.Queue()
    child = context.Process(target=child_main, args=(queue, results, requests, replies, str(candidate), description, args.rounds))
    child.start()
    queue.put(("own-ipc", inputs, outputs))
    queue.put(("arena-ipc", arena_in, arena_out))
    queue.put(None)
    scratch = torch.empty(ANOTHER_CONTEXT_BYTES, dtype=torch.uint8, device="cuda")
    while (request := requests.get()) is not None:  # the child's sample loops
        if request == "parent kernel":
            scratch.fill_(len(request))
        elif request == "parent rewrite":  # as kbv's evaluator writes each sample's inputs into the shared arena
            for view, values in zip(arena_in, inputs):
                view.copy_(values)
        torch.cuda.synchronize()
        replies.put("done")
    del scratch
    status, payload = results.get()
    child.join()
    if status != "ok":
        raise RuntimeError(f"child process: {payload}")
    rows.update(payload)
    del arena, arena_in, arena_out, inputs, outputs, forward
    torch.cuda.empty_cache()
    return plugin.problem, rows


def main(argv=None):
    parser = argparse.ArgumentParser(description="a candidate's time by where its tensors live (own, kbv's arena, CUDA IPC)")
    parser.add_argument("--kbv", required=True, help="the kbv binary")
    parser.add_argument("--candidate", action="append", required=True, help="a CUDA candidate .so (repeatable)")
    parser.add_argument("--shapes", default="default")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import torch
        import torch.multiprocessing as mp
    except ImportError:
        print("placement.py: torch is not installed (fix: run with the GPU machine's python3)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("placement.py: torch sees no CUDA device (fix: run on the GPU machine)", file=sys.stderr)
        return 2
    set_tf32(torch, True)
    clock = open_clock(torch, "cuda")
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}; shapes {args.shapes}; do_bench (warmup 200 ms, rep 1000 ms, median), "
          f"{args.rounds} rounds; ms (SM MHz)\n")
    header = ["candidate", "problem"] + [f"{p} candidate" for p in PLACEMENTS] + [f"{p} eager" for p in PLACEMENTS] + \
             ["kbv candidate", "kbv kernel span", "kbv library TF32", "kbv candidate, trace off", "kbv span, trace off"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = 0
    for candidate in map(Path, args.candidate):
        try:
            problem, rows = measure(torch, mp, args, candidate, clock)
        except Exception as error:
            print(f"| {candidate.name} | failed: {type(error).__name__}: {error} |")
            failed += 1
            continue
        variants = {name: kbv_figures(args.kbv, candidate, args.shapes, settings) for name, settings in KBV_VARIANTS}
        traced, untraced = variants["trace on"], variants["trace off"]

        def cell(placement, who):
            value, mhz = rows[placement][who]
            return f"{value:.4f}" + (f" ({mhz:.0f})" if mhz else "")
        cells = [candidate.name, problem] + [cell(p, "candidate") for p in PLACEMENTS] + [cell(p, "eager") for p in PLACEMENTS]
        cells += [fmt(traced.get("candidate")), fmt(traced.get("span")), fmt(traced.get("library")),
                  fmt(untraced.get("candidate")), fmt(untraced.get("span"))]
        print("| " + " | ".join(cells) + " |", flush=True)
        print(f"- {candidate.name}: sample loops on the arena through IPC, ms: "
              + ", ".join(f"{loop} {fmt(rows.get(loop))}" for loop, _, _ in LOOPS))
        print(f"- {candidate.name}: own tensors, kbv's flush, ms: "
              + ", ".join(f"{loop} {fmt(ms)}" for loop, ms in rows["rotation"].items()))
        print(f"- {candidate.name}: kbv eval, candidate median ms: "
              + ", ".join(f"{name} {fmt(figures.get('candidate'))}" for name, figures in variants.items()))
        print(f"- {candidate.name}: kbv's samples (trace on), median ms (count): "
              + ", ".join(f"{k} {v:.4f} ({n})" for k, (v, n) in sorted(traced.get("split", {}).items())))
        for name, figures in variants.items():
            if figures.get("error") or figures.get("verdict") not in (None, "pass"):
                print(f"- {candidate.name}, kbv eval with the {name}: {figures.get('error') or 'verdict ' + str(figures.get('verdict'))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
