#!/usr/bin/env python3
"""validate_speedups.py — kbv's derived speedup over PyTorch eager against a direct measurement
(issue #13: within 5 % on every problem).

For every honest example candidate (libcuda_<problem>_<variant>.so), in this one process:
  * the candidate is loaded with ctypes through kbv's C ABI (kbv_plugin.py) and called on inputs
    drawn with torch (torch.rand × each input's scale, as kbv_torch's graph forward draws them);
    its outputs are checked against PyTorch's (a wiring slip shows, not a tolerance verdict);
  * the candidate and PyTorch eager with TF32 (the problem's graph in PyTorch: kbv_torch/forward.py)
    are timed with triton.testing.do_bench (median), alternating over --rounds rounds;
    direct = eager median / candidate median, the median over rounds.
Then `kbv eval CANDIDATE --device cuda --json` gives kbv's derived `speedup.vs_eager_tf32`
(interleaved library speedup × the calibration's ratio; run `kbv calibrate --torch` first, or point
KBV_TORCH_CALIBRATION at its file). The check: |derived / direct − 1| ≤ --tolerance (0.05).
Beside it: kbv's candidate median against do_bench's, and kbv's estimated eager time
(`baselines.eager_tf32.estimated_median_s`) against do_bench's eager median, so a miss shows
whether the candidate's timing or the calibration moved; and the SM clock (NVML, sampled every
millisecond while do_bench ran each contender, median) beside the clock the calibration recorded
for eager TF32, so a contender slowed by the power limit under do_bench's back-to-back calls (which
kbv's protocol, with fresh inputs between samples, does not reach) shows as a lower clock.

--device host runs the same on the CPU with host candidates and a perf_counter median: kbv has no
PyTorch calibration there, so every row says why there is no derived figure (kbv's tests use it).

Usage (the GPU machine's python3 has torch and triton; kbv built with the CUDA device):
  validate_speedups.py --kbv BIN/kbv --candidates DIR [--problem P]... [--rounds 3] [--tolerance 0.05]
                       [--device cuda|host] [--shapes default|small] [--duty D] [--timer do_bench|gated] > table.md
--duty D (0 < D < 1) times with do_bench in short bursts, each followed by a rest that holds the
GPU's busy fraction at D (kbv's protocol: 0.25), so neither contender runs at the power limit.
A row whose do_bench clocks are more than 2 % apart (CLOCK_AGREEMENT) says "clocks apart": not
validated either way.
--timer gated times both contenders as kbv times each (device time): every sample behind a launch
gate (kbv_torch's cold timer backend: a 2 × L2 fill, torch.cuda._sleep holding the stream while
the host enqueues, CUDA events), the median of GATED_SECONDS of samples, paced to --duty. do_bench
(the default) times the stream, so a forward whose host launches outlast its kernels (PyTorch eager
of a deep narrow MLP, kb_l3_3) pays its Python launch time there, which kbv's gated calibration
leaves out by design: with do_bench such a row compares two definitions of eager's time.
Exit status: 0 when every candidate is within the tolerance, 1 otherwise (clocks apart included),
2 on bad usage.
"""
import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibrate" / "python"))
from kbv_plugin import DEVICE_CUDA, Plugin, PluginError  # noqa: E402
from kbv_torch.cold_timing import MAX_OVERRUNS_IN_A_ROW, CudaBackend, duty_pause_seconds  # noqa: E402
from kbv_torch.forward import description_from_kbv_problems, graph_forward  # noqa: E402
from kbv_torch.gpu_clock import NvmlClock  # noqa: E402

# How often the SM clock is read while do_bench runs a contender.
CLOCK_PERIOD_S = 0.001

# A wrong output (another function, garbage from a wiring slip) differs by O(1) of the output's RMS;
# TF32 rounding by ~1e-3.
AGREEMENT = 0.05
# kbv's calibration::kClockAgreement: SM clocks further apart than this are two different GPUs.
# do_bench's back-to-back calls can hold a TF32 GEMM at the power limit (H100, 2026-12-06:
# matmul_square's eager TF32 at 1770 MHz against 1980 for the candidate): a direct ratio of two
# clocks cannot validate kbv's, which both contenders earn at one clock.
CLOCK_AGREEMENT = 0.02
# --duty below 1: do_bench in bursts of this many ms of repetitions (after its own warm-up and
# its 5-call estimate), 8 bursts a contender: about a quarter of an unpaced do_bench's GPU time, so
# at a duty of 0.25 a contender takes about as long as unpaced (≈ 1.2 s for a 1–5 ms forward; a
# 37 ms one, conv2d's candidate, ≈ 10 s). They keep both contenders at one SM clock (H100 r93:
# 1965–1980 MHz on all 24 against 1635–1815 for four GEMMs' eager unpaced), but a launch-bound
# eager forward pays its rests on the host (kb_l3_3: 0.675 ms paced against 0.426 unpaced).
PACED_BURST_MS = 25
PACED_WARMUP_MS = 5
PACED_BURSTS = 8
# --timer gated: samples per contender for this much wall time (do_bench's rep is 1 s), after
# GATED_WARMUP_CALLS untimed ones; at least GATED_MIN_SAMPLES (conv2d's 37 ms candidate).
GATED_SECONDS = 1.0
GATED_WARMUP_CALLS = 3
GATED_MIN_SAMPLES = 10


def judge(derived, direct, worst, mhz, tolerance):
    """One row's outcome and derived/direct − 1 (None without a derived figure): "yes" within the
    tolerance; "clocks apart" when do_bench ran the candidate and eager at SM clocks more than
    CLOCK_AGREEMENT apart (no validation either way: the direct figure is of two clocks); "NO"
    otherwise, a wrong-looking output included."""
    off = derived / direct - 1 if isinstance(derived, (int, float)) and direct else None
    if worst > AGREEMENT or off is None:
        return "NO", off
    candidate_mhz, eager_mhz = mhz.get("candidate"), mhz.get("eager")
    if candidate_mhz and eager_mhz and abs(candidate_mhz - eager_mhz) > CLOCK_AGREEMENT * max(candidate_mhz, eager_mhz):
        return "clocks apart", off
    return ("yes" if abs(off) <= tolerance else "NO"), off


def kbv_json(kbv, args, env=None):
    done = subprocess.run([kbv, *args], capture_output=True, text=True, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{") or line.startswith("[")]
    if not lines and done.returncode != 0:
        raise RuntimeError(f"kbv {' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout) if args[0] == "problems" else json.loads(lines[-1])


def paced(do_bench, duty, bursts=PACED_BURSTS, sleep=time.sleep, clock=time.perf_counter):
    """A median-milliseconds timer from do_bench in short bursts, each followed by a rest that holds
    the GPU's busy fraction at `duty`: the median of the bursts' medians. do_bench's one second of
    back-to-back calls held the TF32 GEMMs at the power limit (r92, H100: eager 1620–1890 MHz
    against 1980 for the candidate), where kbv's protocol, paced to kbv's duty, keeps both at one
    clock; --duty 0.25 times do_bench's way at kbv's duty, so their ratios can be compared."""
    def timed(fn):
        medians = []
        for _ in range(bursts):
            start = clock()
            medians.append(do_bench(fn, warmup=PACED_WARMUP_MS, rep=PACED_BURST_MS, return_mode="median"))
            sleep((clock() - start) * (1.0 / duty - 1.0))
        return statistics.median(medians)
    return timed


def gated(sample, duty, seconds=GATED_SECONDS, sleep=time.sleep, clock=time.perf_counter):
    """A median-milliseconds timer from `sample(fn, index)` (cold_timing.CudaBackend.sample: seconds
    of one gated cold call, or None when the gate ended before the host had enqueued it), each
    sample followed by the rest that holds the GPU's busy fraction at `duty`, as kbv paces
    (duty_pause_seconds). A sample the gate did not cover is dropped (the gate grows); raises
    RuntimeError after cold_timing's MAX_OVERRUNS_IN_A_ROW drops in a row, as kbv_torch's timer does."""
    def timed(fn):
        index = 0
        for _ in range(GATED_WARMUP_CALLS):
            sample(fn, index)
            index += 1
        kept, drops, start = [], 0, clock()
        while clock() - start < seconds or len(kept) < GATED_MIN_SAMPLES:
            begin = clock()
            taken = sample(fn, index)
            index += 1
            if taken is None:
                drops += 1
                if drops >= MAX_OVERRUNS_IN_A_ROW:
                    raise RuntimeError(f"the launch gate ended before the call was enqueued {drops} times in a row")
                continue
            drops = 0
            kept.append(taken * 1e3)
            pause = duty_pause_seconds(taken, clock() - begin, duty)
            if pause > 0:
                sleep(pause)
        return statistics.median(kept)
    return timed


def timer(torch, device, duty=1.0, kind="do_bench", clock=None):
    """A median-milliseconds timer: on CUDA triton's do_bench (paced below --duty 1) or, `kind`
    "gated", kbv's gated cold samples; perf_counter on the host."""
    if device == "cuda" and kind == "gated":
        return gated(CudaBackend(torch, torch.cuda.current_device(), clock).sample, duty)
    if device == "cuda":
        from triton.testing import do_bench
        if duty < 1.0:
            return paced(do_bench, duty)
        return lambda fn: do_bench(fn, warmup=200, rep=1000, return_mode="median")

    def host(fn, reps=50):
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)
    return host


class ClockSampler:
    """Reads `clock` (kbv_torch.gpu_clock.NvmlClock, or None) every CLOCK_PERIOD_S on a thread while
    the with-block runs; median_mhz is None without a clock or a reading."""

    def __init__(self, clock):
        self._clock, self._readings, self._stop = clock, [], threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True) if clock else None

    def _sample(self):
        while not self._stop.is_set():
            mhz = self._clock.current_mhz()
            if mhz > 0:
                self._readings.append(mhz)
            self._stop.wait(CLOCK_PERIOD_S)

    def __enter__(self):
        if self._thread:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread:
            self._thread.join()

    @property
    def median_mhz(self):
        return statistics.median(self._readings) if self._readings else None


def open_clock(torch, device):
    """The NVML clock of torch's current CUDA device, or None (the host, no NVML)."""
    if device != "cuda":
        return None
    properties = torch.cuda.get_device_properties(torch.cuda.current_device())
    bus = getattr(properties, "pci_bus_id", None)
    domain = getattr(properties, "pci_domain_id", 0)
    device_id = getattr(properties, "pci_device_id", None)
    if bus is None or device_id is None:
        return None
    return NvmlClock.open(f"{domain:08x}:{bus:02x}:{device_id:02x}.0")


def set_tf32(torch, allowed):
    torch.backends.cuda.matmul.allow_tf32 = allowed
    torch.backends.cudnn.allow_tf32 = allowed


def worst_difference(got_outputs, wanted_outputs):
    """The largest |got − want| over each output's RMS. Its own function, so that no loop variable
    keeps an output alive after measure_direct's `del`: a loop in its body left rmsnorm's two
    7.5 GB outputs held while kbv eval ran, most likely why it was not timed there (r92, H100)."""
    worst = 0.0
    for got, want in zip(got_outputs, wanted_outputs):
        rms = float(want.double().pow(2).mean().sqrt()) or 1.0
        worst = max(worst, float((got.double() - want.double()).abs().max()) / rms)
    return worst


def measure_direct(torch, plugin, described, shapes, device, rounds, clock=None, duty=1.0, kind="do_bench"):
    """(candidate ms, eager TF32 ms, direct speedup, worst output difference / RMS, {contender: SM MHz
    median while do_bench ran it, or None})."""
    description = description_from_kbv_problems(described, shapes)
    device = "cuda" if device == "cuda" else "cpu"  # kbv's host device is torch's cpu
    forward = graph_forward(torch, description, device)
    inputs = {spec["name"]: tensor.contiguous() for spec, tensor in zip(description["inputs"], forward.tensors)}
    outputs = {spec["name"]: torch.empty(tuple(spec["shape"]), device=device) for spec in description["outputs"]}  # () for a loss
    stream = torch.cuda.current_stream().cuda_stream if device == "cuda" else None
    candidate = plugin.call(inputs, outputs, described.get("attributes") or {}, stream)
    set_tf32(torch, True)
    with torch.no_grad():
        candidate()
        expected = forward.eager()
        if device == "cuda":
            torch.cuda.synchronize()
        worst = worst_difference(outputs.values(), expected)
        bench = timer(torch, device, duty, kind, clock)
        candidate_ms, eager_ms, ratios = [], [], []
        clocks = {"candidate": [], "eager": []}
        for r in range(rounds):
            pair = {}
            for who in (("candidate", "eager") if r % 2 == 0 else ("eager", "candidate")):
                with ClockSampler(clock) as sampler:
                    pair[who] = bench(candidate if who == "candidate" else forward.eager)
                if sampler.median_mhz:
                    clocks[who].append(sampler.median_mhz)
            candidate_ms.append(pair["candidate"])
            eager_ms.append(pair["eager"])
            ratios.append(pair["eager"] / pair["candidate"])
    del inputs, outputs, expected, forward, candidate
    if device == "cuda":
        torch.cuda.empty_cache()
    mhz = {who: statistics.median(values) if values else None for who, values in clocks.items()}
    return statistics.median(candidate_ms), statistics.median(eager_ms), statistics.median(ratios), worst, mhz


def fmt(value, spec=".4f"):
    return format(value, spec) if isinstance(value, (int, float)) else "-"


def parse_args(argv):
    parser = argparse.ArgumentParser(description="kbv's derived eager speedup against do_bench in one process (issue #13).")
    parser.add_argument("--kbv", required=True, help="the kbv binary")
    parser.add_argument("--candidates", required=True, help="folder of honest example candidates (build/candidates/cuda)")
    parser.add_argument("--problem", action="append", help="only this problem (repeatable)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--device", choices=("cuda", "host"), default="cuda")
    parser.add_argument("--shapes", help="shape set (default: default on cuda, small on host)")
    parser.add_argument("--duty", type=float, default=1.0,
                        help="the GPU's busy fraction do_bench is held to (default 1: unpaced, do_bench as it is; kbv's protocol: 0.25)")
    parser.add_argument("--timer", choices=("do_bench", "gated"), default="do_bench",
                        help="do_bench (the stream's time, host launches included) or gated (device time, as kbv times: see above)")
    args = parser.parse_args(argv)
    if not 0.0 < args.duty <= 1.0:
        parser.error(f"--duty {args.duty}: expected a fraction in (0, 1] (fix: 0.25 paces as kbv does, 1 leaves do_bench unpaced)")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import torch
    except ImportError:
        print("validate_speedups.py: torch is not installed (fix: run with the GPU machine's python3)", file=sys.stderr)
        return 2
    device = args.device
    if device == "cuda" and not torch.cuda.is_available():
        print("validate_speedups.py: torch sees no CUDA device (fix: run on the GPU machine, or --device host)", file=sys.stderr)
        return 2
    shapes = args.shapes or ("default" if device == "cuda" else "small")
    pattern = "libcuda_*.so" if device == "cuda" else "libhost_*.so"
    candidates = sorted(Path(args.candidates).glob(pattern))
    if not candidates:
        print(f"validate_speedups.py: no {pattern} in {args.candidates}", file=sys.stderr)
        return 2
    header = ["candidate", "problem", f"{args.timer} candidate ms", f"{args.timer} eager TF32 ms", "direct eager/candidate", "kbv candidate ms",
              "kbv eager TF32 ms (estimated)", "kbv vs_eager_tf32 (derived)", "derived/direct − 1", f"within {args.tolerance:.0%}",
              f"SM MHz under {args.timer}: candidate / eager", "SM MHz, calibration's eager TF32"]
    if args.timer == "gated":
        how = f"{args.rounds} rounds of gated cold samples (device time, kbv's way), {GATED_SECONDS:g} s a contender"
        how += f", paced to a GPU duty of {args.duty:g}" if args.duty < 1 else ", unpaced"
    else:
        how = f"{args.rounds} do_bench rounds per contender"
        how += (f", do_bench paced to a GPU duty of {args.duty:g} ({PACED_BURSTS} bursts of {PACED_BURST_MS} ms)" if args.duty < 1
                else ", do_bench unpaced")
    print(f"torch {torch.__version__}" + (f", {torch.cuda.get_device_name()}" if device == "cuda" else ", CPU") + f"; shapes {shapes}; {how}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    misses, apart, checked, notes = [], [], 0, []
    clock = open_clock(torch, device)
    for path in candidates:
        try:
            plugin = Plugin.load(path)
        except (OSError, PluginError) as error:
            print(f"| {path.name} | - | load failed: {error} |" + " |" * (len(header) - 3), flush=True)
            misses.append(path.name)
            continue
        if args.problem and plugin.problem not in args.problem:
            plugin.close()
            continue
        checked += 1
        described = kbv_json(args.kbv, ["problems", plugin.problem, "--json"])
        try:
            cand_ms, eager_ms, direct, worst, mhz = measure_direct(torch, plugin, described, shapes, device, args.rounds, clock, args.duty, args.timer)
        except (PluginError, RuntimeError, ValueError) as error:
            print(f"| {path.name} | {plugin.problem} | direct measurement failed: {error} |" + " |" * (len(header) - 3), flush=True)
            misses.append(path.name)
            plugin.close()
            continue
        plugin.close()
        if worst > AGREEMENT:
            notes.append(f"{path.name}: its outputs differ from PyTorch's by {worst:.3g} of their RMS: the ctypes call is wired wrong")
        report = kbv_json(args.kbv, ["eval", str(path), "--device", device, "--shapes", shapes, "--json"])
        derived = (report.get("speedup") or {}).get("vs_eager_tf32")
        eager = (report.get("baselines") or {}).get("eager_tf32") or {}
        kbv_candidate = ((report.get("timing") or {}).get("candidate") or {}).get("median_s")
        outcome, off = judge(derived, direct, worst, mhz, args.tolerance)
        if outcome == "NO":
            misses.append(path.name)
        elif outcome == "clocks apart":
            apart.append(path.name)
            notes.append(f"{path.name}: do_bench ran the candidate at {mhz['candidate']:.0f} MHz and eager at {mhz['eager']:.0f}: "
                         "the direct ratio is of two clocks (fix: --duty 0.25, the runner's parity:validation,duty=0.25, paces do_bench "
                         "as kbv paces its timers; unpaced, a GEMM held at the power limit stays so)")
        if derived is None:
            # The verdict's words too: "the candidate was not timed" alone hid why (r92 on an H100:
            # rmsnorm, whose kbvd evaluations all passed, was not timed here).
            verdict = report.get("verdict")
            why = f" (verdict {verdict}: {report.get('detail')})" if verdict != "pass" else ""
            notes.append(f"{path.name}: no derived speedup: {eager.get('reason') or report.get('detail')}{why}")
        print("| " + " | ".join([path.name, plugin.problem, fmt(cand_ms), fmt(eager_ms), fmt(direct, ".3f"),
                                 fmt(kbv_candidate * 1e3 if kbv_candidate else None),
                                 fmt(eager["estimated_median_s"] * 1e3 if eager.get("estimated_median_s") else None),
                                 fmt(derived, ".3f"), fmt(off * 100 if off is not None else None, "+.1f") + (" %" if off is not None else ""),
                                 outcome, f"{fmt(mhz['candidate'], '.0f')} / {fmt(mhz['eager'], '.0f')}",
                                 fmt((eager.get("clocks_mhz") or {}).get("torch"), ".0f")]) + " |", flush=True)
    print()
    for note in notes:
        print(f"- {note}")
    print(f"\n{checked - len(misses) - len(apart)} of {checked} candidate(s) within {args.tolerance:.0%} of the direct measurement"
          + (f"; not: {', '.join(misses)}" if misses else "")
          + (f"; not comparable (do_bench's clocks apart): {', '.join(apart)}" if apart else ""))
    return 0 if checked and not misses and not apart else 1


if __name__ == "__main__":
    sys.exit(main())
