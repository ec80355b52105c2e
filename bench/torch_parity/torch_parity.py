#!/usr/bin/env python3
"""torch_parity.py — PyTorch parity for every kbv problem at its default shapes, two parts:

Timing: PyTorch eager fp32 and TF32 times next to kbv's own baseline medians (parsed from
kbv_bench_cuda_timing's log). Target (issue #3): kbv's TF32 baseline within 3 % of PyTorch
TF32, or faster, on every problem. PyTorch is timed with triton.testing.do_bench (median, its
own L2 flush between runs).

Output agreement: PyTorch's outputs against kbv's fp64 reference on the same inputs. For every
problem, `kbv export --device cuda --shapes default` writes one draw of the public family
(inputs as float32 .npy, kbv's fp64 reference, manifest.json with the tolerance) into a
temporary directory (default /dev/shm/kbv-parity, removed after each problem); the inputs are
loaded with numpy (mmap) onto the GPU, the problem's graph runs in PyTorch in TF32 mode
(torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True) and in strict
FP32 mode, each output is saved as .npy and `kbv compare-outputs EXPORT OUTPUTS --json` judges
it with kbv's own comparison rule and the problem's tolerance. Target (issue #3): PyTorch's
outputs within the problem's tolerance in both modes. Memory: a default-shape export holds up
to ~20 GB (relu: 6.4 GB of input, 12.8 GB of fp64 reference), plus one mode's outputs.

Usage (where PyTorch, Triton, numpy, PyYAML and a GPU are; kbv built with the CUDA device):
  torch_parity.py PROBLEMS_DIR [KBV_BENCH_LOG] [--only timing|agreement] [--kbv PATH]
                  [--tmp DIR] [--problem NAME ...] > table.md
--kbv defaults to $KBV_BIN, else `kbv` on PATH. Exit status: 0 when every target checked is
met, 1 otherwise.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibrate" / "python"))
from kbv_torch import forward as kbv_forward  # noqa: E402

try:  # the helpers below (npy writing, kbv calls, table cells) work without torch
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - reported when a part needing torch runs
    torch = F = None

TARGET = 1.03  # kbv TF32 baseline / PyTorch TF32 must be at most this
SLAB_BYTES = 256 << 20  # host staging per copy when saving a GPU tensor as .npy
MODES = (("tf32", True), ("fp32", False))  # (name, TF32 allowed)


def resolve(dims, symbols):
    return [int(d) if str(d).lstrip("-").isdigit() else symbols[d] for d in dims]


def run_node(op, args, attrs):
    """One kbv op in PyTorch: kbv_torch's translation (bench/calibrate/python/kbv_torch/forward.py),
    the one kbv calibrate --torch times."""
    return kbv_forward.run_node(torch, op, args, attrs)


def graph_runner(spec, inputs):
    """A callable running the problem's graph on `inputs` (name -> tensor); returns its outputs in order."""
    missing = [d["name"] for d in spec["inputs"] if d["name"] not in inputs]
    if missing:
        raise ValueError(f"{spec['name']}: no tensor for input(s) {', '.join(missing)}")
    outputs = [o["name"] for o in spec["outputs"]]

    def run():
        env = dict(inputs)
        for node in spec["graph"]:
            env[node["output"]] = run_node(node["op"], [env[n] for n in node["inputs"]], node.get("attrs"))
        return [env[o] for o in outputs]
    return run


def random_inputs(spec, shape_set="default", device="cuda"):
    symbols = spec["shapes"][shape_set]
    return {d["name"]: torch.rand(*resolve(d["shape"], symbols), device=device) for d in spec["inputs"]}  # PyTorch's public U[0,1)


def problem_callable(spec):
    return graph_runner(spec, random_inputs(spec))


def set_math_mode(tf32):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32


def kbv_medians(log_path):
    """kbv's baseline medians by problem, from kbv_bench_cuda_timing's log or from the
    '[ figures  ]' lines kbv_redteam_cuda_tests prints for the honest CUDA examples (each a
    full kbv eval: cold L2, interleaved with the candidate)."""
    medians, problem = {}, None
    for line in Path(log_path).read_text().splitlines():
        if line.startswith("-- "):
            problem = line[3:].strip()
        m = re.match(r"\s+(tf32|fp32)\s+median\s+([0-9.]+) ms", line)
        if m and problem:
            medians.setdefault(problem, {})[m.group(1)] = float(m.group(2))
        f = re.match(r"\[ figures  \] libcuda_\S+ \((\w+)\): pass .* tf32 ([0-9.]+) ms, fp32 ([0-9.]+) ms", line)
        if f:
            medians[f.group(1)] = {"tf32": float(f.group(2)), "fp32": float(f.group(3))}
    return medians


# ---- output agreement: kbv export / compare-outputs and .npy files ----

class KbvError(RuntimeError):
    """A kbv command that failed; the message holds its command line and stderr."""


def run_kbv(kbv, args):
    """Runs `kbv args...`; returns (exit status, stdout, stderr). Raises KbvError when it cannot start."""
    try:
        done = subprocess.run([kbv, *args], capture_output=True, text=True)
    except OSError as error:
        raise KbvError(f"cannot run {kbv} (fix: pass --kbv PATH or set KBV_BIN): {error}") from error
    return done.returncode, done.stdout, done.stderr


def kbv_export(kbv, problem, out_dir, problems_dir=None, device="cuda", shapes="default", gpu=None):
    """`kbv export` of one problem into out_dir; returns the manifest (dict)."""
    args = ["export", "--device", device, "--shapes", shapes, "--problem", problem, "--out", str(out_dir)]
    if problems_dir is not None:
        args += ["--problems-dir", str(problems_dir)]
    if gpu is not None:
        args += ["--gpu", str(gpu)]
    status, _, err = run_kbv(kbv, args)
    if status != 0:
        raise KbvError(f"kbv export exited {status}: {err.strip()} (command: {kbv} {' '.join(args)})")
    return json.loads((Path(out_dir) / "manifest.json").read_text())


def kbv_compare(kbv, export_dir, outputs_dir):
    """`kbv compare-outputs --json`; returns its report (dict with 'passed' and 'outputs')."""
    args = ["compare-outputs", str(export_dir), str(outputs_dir), "--json"]
    status, out, err = run_kbv(kbv, args)
    if status not in (0, 1):
        raise KbvError(f"kbv compare-outputs exited {status}: {err.strip()} (command: {kbv} {' '.join(args)})")
    report = json.loads(out)
    if bool(report.get("passed")) != (status == 0):
        raise KbvError(f"kbv compare-outputs exit status {status} disagrees with its report {out.strip()}")
    return report


def load_input_arrays(export_dir, manifest):
    """The exported inputs as read-only numpy memmaps, by name, checked against the manifest."""
    arrays = {}
    for entry in manifest["inputs"]:
        path = Path(export_dir) / entry["file"]
        array = np.load(path, mmap_mode="r")
        if array.dtype != np.float32 or list(array.shape) != list(entry["shape"]):
            raise ValueError(f"{path}: {array.dtype} {list(array.shape)}, the manifest says float32 {entry['shape']}")
        arrays[entry["name"]] = array
    return arrays


def write_npy_slabs(path, shape, slabs):
    """Writes a float32 .npy of `shape` from (first-row index, numpy block) pairs, never holding it whole."""
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=tuple(shape))
    if len(shape) == 0:
        for _, block in slabs:
            out[()] = block
    else:
        for start, block in slabs:
            out[start:start + block.shape[0]] = block
    out.flush()
    del out


def tensor_slabs(tensor, slab_bytes=SLAB_BYTES):
    """(row, host numpy block) pairs covering a tensor along its first dimension, as float32."""
    t = tensor.detach().to(torch.float32).contiguous()
    if t.numel() == 0:
        return
    if t.dim() == 0:
        yield 0, t.cpu().numpy()
        return
    row_bytes = max(1, t[0].numel() * 4)
    rows = max(1, slab_bytes // row_bytes)
    for start in range(0, t.shape[0], rows):
        yield start, t[start:start + rows].cpu().numpy()


def to_device(arrays, device):
    with warnings.catch_warnings():  # the memmaps are read-only; torch only reads them
        warnings.simplefilter("ignore", UserWarning)
        return {name: torch.from_numpy(array).to(device) for name, array in arrays.items()}


def agreement_cell(report):
    """Markdown cell for one mode: yes/NO with the worst max abs and rel L2 error, or the error."""
    if report is None:
        return "-"
    if "error" in report:
        return "error: " + str(report["error"]).replace("|", "/").replace("\n", " ")[:160]
    verdict = "yes" if report["passed"] else "NO"
    fmt = lambda v: "inf" if v is None else f"{v:.2e}"  # kbv writes an infinite error as null
    return f"{verdict} (max abs {fmt(report.get('max_abs_error'))}, rel L2 {fmt(report.get('rel_l2_error'))})"


def output_agreement(spec, problems_dir, args):
    """Reports by mode ("tf32", "fp32") for one problem: kbv compare-outputs' JSON, or {"error": ...}."""
    name = spec["name"]
    work = Path(args.tmp) / name
    shutil.rmtree(work, ignore_errors=True)
    export_dir, outputs_dir = work / "export", work / "outputs"
    device = "cuda" if args.device == "cuda" else "cpu"
    reports = {}
    try:
        if torch.cuda.is_available():
            torch.cuda.empty_cache()  # leave kbv export the device memory the timing part held
        manifest = kbv_export(args.kbv, name, export_dir, problems_dir, args.device, args.shapes, args.gpu)
        inputs = to_device(load_input_arrays(export_dir, manifest), device)
        names = [o["name"] for o in spec["outputs"]]
        if names != [r["name"] for r in manifest["reference"]]:
            raise ValueError(f"{name}: the YAML's outputs {names} differ from kbv's {[r['name'] for r in manifest['reference']]}")
        run = graph_runner(spec, inputs)
        for mode, tf32 in MODES:
            set_math_mode(tf32)
            with torch.no_grad():
                outputs = run()
            outputs_dir.mkdir(parents=True, exist_ok=True)
            for output_name, tensor in zip(names, outputs):
                write_npy_slabs(outputs_dir / f"{output_name}.npy", tuple(tensor.shape), tensor_slabs(tensor))
            del outputs
            reports[mode] = kbv_compare(args.kbv, export_dir, outputs_dir)
            shutil.rmtree(outputs_dir)
        del inputs, run
    except (KbvError, ValueError, OSError, RuntimeError) as error:
        print(f"torch_parity.py: {name}: {error}", file=sys.stderr, flush=True)  # the table cell is cut short
        for mode, _ in MODES:
            reports.setdefault(mode, {"error": str(error)})
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    return reports


def time_problem(spec):
    from triton.testing import do_bench
    run = problem_callable(spec)
    times = {}
    for mode, tf32 in (("fp32", False), ("tf32", True)):
        set_math_mode(tf32)
        with torch.no_grad():
            times[mode] = do_bench(run, warmup=200, rep=1000, return_mode="median")
    del run
    torch.cuda.empty_cache()
    return times


def parse_args(argv):
    parser = argparse.ArgumentParser(description="PyTorch parity for every kbv problem: timing and output agreement (issue #3).")
    parser.add_argument("problems_dir", help="kbv's problems/ directory (one YAML per problem)")
    parser.add_argument("bench_log", nargs="?", help="kbv_bench_cuda_timing's log, for kbv's baseline medians (timing part)")
    parser.add_argument("--only", choices=("timing", "agreement"), help="run one part only (default: both)")
    parser.add_argument("--kbv", default=os.environ.get("KBV_BIN", "kbv"), help="the kbv binary (default: $KBV_BIN, else kbv on PATH)")
    parser.add_argument("--tmp", default="/dev/shm/kbv-parity", help="where exports and outputs go, one problem at a time (default: %(default)s)")
    parser.add_argument("--problem", action="append", help="only this problem (repeatable; default: every problem)")
    parser.add_argument("--device", default="cuda", choices=("cuda", "host"), help="agreement part: kbv's device; host runs PyTorch on the CPU")
    parser.add_argument("--shapes", default="default", help="agreement part: the shape set to export (default: %(default)s)")
    parser.add_argument("--gpu", type=int, help="agreement part: kbv export --gpu N")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if torch is None:
        sys.exit("torch_parity.py: PyTorch is not installed (fix: run where torch, triton and a GPU are)")
    timing = args.only in (None, "timing")
    agreement = args.only in (None, "agreement")
    if agreement and shutil.which(args.kbv) is None and not Path(args.kbv).is_file():
        sys.exit(f"torch_parity.py: kbv binary '{args.kbv}' not found (fix: pass --kbv PATH or set KBV_BIN)")
    problems_dir = Path(args.problems_dir)
    kbv = kbv_medians(args.bench_log) if timing and args.bench_log else {}
    if torch.cuda.is_available():
        print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}\n")
    columns = ["problem"]
    if timing:
        columns += ["torch fp32 ms", "torch tf32 ms", "kbv fp32 ms", "kbv tf32 ms", "kbv/torch tf32", "within 3 % or faster"]
    if agreement:
        columns += ["torch tf32 output within tolerance", "torch fp32 output within tolerance"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    misses, checked, disagreements = 0, 0, {mode: [] for mode, _ in MODES}
    fmt = lambda v: f"{v:.4f}" if v is not None else "-"
    for path in sorted(problems_dir.glob("*.yaml")):
        spec = yaml.safe_load(path.read_text())
        if args.problem and spec["name"] not in args.problem:
            continue
        cells = [spec["name"]]
        if timing:
            times = time_problem(spec)
            k = kbv.get(spec["name"], {})
            ratio = k["tf32"] / times["tf32"] if "tf32" in k else None
            ok = "-" if ratio is None else ("yes" if ratio <= TARGET else "NO")
            misses += ok == "NO"
            cells += [f"{times['fp32']:.4f}", f"{times['tf32']:.4f}", fmt(k.get("fp32")), fmt(k.get("tf32")), fmt(ratio), ok]
        if agreement:
            reports = output_agreement(spec, problems_dir, args)
            checked += 1
            for mode, _ in MODES:
                report = reports.get(mode)
                if report is None or "error" in report or not report["passed"]:
                    disagreements[mode].append(spec["name"])
            cells += [agreement_cell(reports.get("tf32")), agreement_cell(reports.get("fp32"))]
        print("| " + " | ".join(cells) + " |", flush=True)
    print()
    if timing:
        print(f"{misses} problem(s) where kbv's TF32 baseline is more than 3 % slower than PyTorch TF32")
    if agreement:
        for mode, _ in MODES:
            bad = disagreements[mode]
            print(f"PyTorch {mode} outputs within kbv's tolerance of its fp64 reference: {checked - len(bad)} of {checked} problem(s)"
                  + (f"; not: {', '.join(bad)}" if bad else ""))
    if agreement:
        try:
            Path(args.tmp).rmdir()  # the per-problem directories are gone; drop the parent if empty
        except OSError:
            pass
    failed = misses or any(disagreements.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
