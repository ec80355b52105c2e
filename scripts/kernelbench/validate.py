#!/usr/bin/env python3
"""validate.py — kbv's fp64 reference against the original KernelBench model, for every kbv
problem that reproduces a KernelBench problem (a `kernelbench:` field: imported or curated).

For each problem: `kbv export` writes one draw of the public family (inputs as .npy of their
dtype: float32, int64 class indices, bool masks; kbv's fp64 reference) at a shape set; the KernelBench file is loaded with that set's size
globals (`kernelbench.globals`), `Model(*get_init_inputs())` is built and left in training
mode as KernelBench leaves it, converted to float64, its parameters and buffers replaced by
kbv's values through each input's `torch_name`, and run on kbv's inputs (floating point ones in
float64, int64 and bool ones as they are). Two checks:
  * `kbv compare-outputs` judges the model's outputs (saved as float32) with the problem's own
    tolerance, as it would judge a candidate;
  * fp64 against fp64: the relative L2 distance between the model's float64 outputs and kbv's
    reference must stay below FP64_AGREEMENT. Both are float64 computations of one function on
    the same inputs, so only summation order separates them (≈1e-16·√n); a wrong attribute,
    eps or convention shows up orders of magnitude above it, even where the fp32 tolerance would
    let it pass.
Problems with `deterministic: false` are listed as not judged (their forward draws random
numbers), never as passing.

Usage (PyTorch, numpy, PyYAML; kbv built):
  validate.py --kernelbench KERNELBENCH_DIR [--shapes small|default] [--device cpu|cuda]
              [--kbv PATH] [--problems-dir DIR] [--problem NAME ...] [--tmp DIR]
Defaults: small shapes on the CPU with kbv's host device; `--shapes default --device cuda`
exports with kbv's CUDA device (the H200 run). Prints a markdown table; exit status 0 when every
judged problem agrees, 1 otherwise, 2 on bad usage.
"""
import argparse
import concurrent.futures
import inspect
import multiprocessing
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kbimport.source import ProblemSource  # noqa: E402
from kbvalidate import schedule  # noqa: E402
from kbvalidate.npy_stream import Staging  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
# fp64 against fp64 on the same inputs: summation order alone gives ~1e-16·sqrt(n) relative
# error (n ≤ 1e10 terms here: ≤ 1e-11); 1e-9 leaves room while a semantic slip (an eps of 1e-5
# against 1e-6, a biased against an unbiased variance) is ≥ 1e-6.
FP64_AGREEMENT = 1e-9
SLAB_ELEMENTS = 1 << 25  # reference elements compared per step (256 MiB of float64 on the device)
# Verdicts that end a problem: a --resume run skips them (an error is tried again).
FINAL_VERDICTS = ("agrees", "DISAGREES", "not judged")
# Problems validated at once on a GPU when --jobs is not given: the H200 machine's 16 cores and
# 128 GB leave room for four small problems beside one large one (the memory budget decides).
DEFAULT_CUDA_JOBS = 4


def torch_module():
    import torch  # imported late: --help works without PyTorch
    return torch


def run(command):
    return subprocess.run(command, capture_output=True, text=True)


def catalog(kbv, problems_dir):
    args = [kbv, "problems", "--json"] + (["--problems-dir", str(problems_dir)] if problems_dir else [])
    done = run(args)
    if done.returncode != 0:
        raise SystemExit(f"validate.py: {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def kernelbench_problems(kbv, problems_dir, names):
    found = []
    for entry in catalog(kbv, problems_dir):
        spec = yaml.safe_load(Path(entry["file"]).read_text())
        if spec.get("kernelbench") and (not names or spec["name"] in names):
            found.append(spec)
    missing = set(names or ()) - {s["name"] for s in found}
    if missing:
        raise SystemExit(f"validate.py: no KernelBench problem named {', '.join(sorted(missing))} (fix: kbv problems lists them; "
                         "only problems with kernelbench: fields can be validated)")
    return sorted(found, key=lambda s: (s["kernelbench"]["level"], s["kernelbench"]["id"]))


def build_model(spec, kernelbench_dir, shape_set, device):
    """The KernelBench model at the shape set's sizes, float64, training mode; and its module."""
    torch = torch_module()
    kb = spec["kernelbench"]
    path = Path(kernelbench_dir) / f"level{kb['level']}" / kb["file"]
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (fix: pass --kernelbench pointing at KernelBench/ that holds level{kb['level']}/)")
    overrides = ((kb.get("globals") or {}).get(shape_set)) or {}
    module = ProblemSource(path).load({k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()})
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = module.Model(*module.get_init_inputs())
    return model.to(device=device, dtype=torch.float64), module


def as_model_tensor(tensor):
    """kbv's values as the model takes them: floating point in float64, int64 class indices and
    bool masks in their own dtype (as get_inputs() makes them). Converted on the device."""
    torch = torch_module()
    return tensor.to(torch.float64) if tensor.is_floating_point() else tensor


def load_parameters(model, spec, tensors):
    """Copies kbv's parameter values into the model by torch_name; returns the names it set."""
    torch = torch_module()
    state = dict(model.named_parameters())
    state.update(dict(model.named_buffers()))
    loaded = []
    for decl in spec["inputs"]:
        if decl.get("role", "activation") != "parameter":
            continue
        name = decl.get("torch_name")
        if name not in state:
            raise KeyError(f"input {decl['name']}: torch_name '{name}' is not a parameter or buffer of the model "
                           f"(it has: {', '.join(sorted(state))})")
        value = tensors[decl["name"]]
        if tuple(value.shape) != tuple(state[name].shape):
            raise ValueError(f"input {decl['name']}: kbv's shape {list(value.shape)}, the model's {name} is {list(state[name].shape)}")
        with torch.no_grad():
            state[name].copy_(value)
        loaded.append(name)
    return loaded


def forward_arguments(model, module, spec, tensors, device):
    """forward()'s arguments: kbv's activations by torch_name, get_inputs()' own value for a
    non-tensor argument (L1 #5's scalar, which the graph carries as an attribute)."""
    torch = torch_module()
    by_name = {d.get("torch_name", d["name"]): d["name"] for d in spec["inputs"] if d.get("role", "activation") == "activation"}
    with torch.device("meta"):
        template = module.get_inputs()
    args = []
    for index, name in enumerate(inspect.signature(model.forward).parameters):
        if name in by_name:
            args.append(as_model_tensor(tensors[by_name[name]]))
        elif index < len(template) and not isinstance(template[index], torch.Tensor):
            args.append(template[index])
        elif index < len(template):  # a tensor the graph never reads
            args.append(torch.zeros(template[index].shape, dtype=torch.float64, device=device))
    return args


def fp64_distance(output, reference_path, staging):
    """(relative L2 distance, max |difference| / rms(reference)) between the model's float64
    output on the device and kbv's fp64 reference file, streamed a slab at a time."""
    flat_out = output.reshape(-1)
    diff2 = ref2 = 0.0
    worst = 0.0
    for start, ref in staging.chunks(reference_path, SLAB_ELEMENTS):
        difference = flat_out[start:start + ref.numel()] - ref
        diff2 += float((difference * difference).sum())
        ref2 += float((ref * ref).sum())
        worst = max(worst, float(difference.abs().max()) if difference.numel() else 0.0)
    count = flat_out.numel()
    rms = math.sqrt(ref2 / max(count, 1))
    rel = math.sqrt(diff2) / math.sqrt(ref2) if ref2 > 0 else (0.0 if diff2 == 0 else math.inf)
    return rel, (worst / rms if rms > 0 else worst)


class Phases:
    """Wall seconds of each step of one validation, kept in its row (where the time goes)."""

    def __init__(self, row):
        self.row, self.mark = row, time.perf_counter()

    def done(self, phase):
        now = time.perf_counter()
        self.row[f"{phase}_s"] = round(now - self.mark, 3)
        self.mark = now


def validate(spec, args, workdir, staging):
    """One problem's row: dict with verdict and figures."""
    torch = torch_module()
    row = {"problem": spec["name"], "kb": f"L{spec['kernelbench']['level']} #{spec['kernelbench']['id']}"}
    if spec.get("deterministic", True) is False:
        row.update(verdict="not judged", note=f"deterministic: false ({spec.get('nondeterministic_reason', '')})")
        return row
    if args.shapes not in spec["shapes"]:  # a GPU-only problem (gpu_only:) has its default set alone
        row.update(verdict="not judged", note=f"no '{args.shapes}' shape set (gpu_only: validated at --shapes default on a GPU)")
        return row
    phases = Phases(row)
    export_dir, outputs_dir = workdir / "export", workdir / "outputs"
    for folder in (export_dir, outputs_dir):
        shutil.rmtree(folder, ignore_errors=True)
    outputs_dir.mkdir(parents=True)
    command = [args.kbv, "export", "--problem", spec["name"], "--out", str(export_dir), "--shapes", args.shapes,
               "--device", args.kbv_device]
    if args.problems_dir:
        command += ["--problems-dir", str(args.problems_dir)]
    done = run(command)
    if done.returncode != 0:
        row.update(verdict="error", note=f"kbv export: {done.stderr.strip()}")
        return row
    phases.done("export")
    manifest = json.loads((export_dir / "manifest.json").read_text())
    try:
        torch.set_default_dtype(torch.float64)
        tensors = {e["name"]: staging.read_npy(export_dir / e["file"]) for e in manifest["inputs"]}
        phases.done("load")
        model, module = build_model(spec, args.kernelbench, args.shapes, args.device)
        load_parameters(model, spec, tensors)
        call_args = forward_arguments(model, module, spec, tensors, args.device)
        del tensors
        with torch.no_grad():
            result = model(*call_args)
        del call_args, model
        if args.device == "cuda":
            torch.cuda.synchronize()
        phases.done("torch")
    except Exception as error:  # noqa: BLE001 - reported in the table
        row.update(verdict="error", note=f"PyTorch: {type(error).__name__}: {error}")
        return row
    finally:
        torch.set_default_dtype(torch.float32)
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    del result
    if len(outputs) != len(manifest["reference"]):
        row.update(verdict="error", note=f"the model returns {len(outputs)} outputs, kbv's problem {len(manifest['reference'])}")
        return row
    worst_rel, worst_peak = 0.0, 0.0
    for output, entry in zip(outputs, manifest["reference"]):
        if list(output.shape) != list(entry["shape"]):
            row.update(verdict="error", note=f"output {entry['name']}: model {list(output.shape)}, kbv {entry['shape']}")
            return row
        rel, peak = fp64_distance(output.to(torch.float64), export_dir / entry["file"], staging)
        worst_rel, worst_peak = max(worst_rel, rel), max(worst_peak, peak)
        staging.write_npy(outputs_dir / f"{entry['name']}.npy", output.to(torch.float32))
    del outputs
    phases.done("fp64_check")
    done = run([args.kbv, "compare-outputs", str(export_dir), str(outputs_dir), "--json"])
    if done.returncode not in (0, 1):
        row.update(verdict="error", note=f"kbv compare-outputs: {done.stderr.strip()}")
        return row
    phases.done("compare")
    report = json.loads(done.stdout)
    row["compare"] = "pass" if report.get("passed") else "FAIL"
    row["compare_rel_l2"] = max((o.get("rel_l2_error", 0.0) for o in report.get("outputs", [])), default=0.0)
    row["fp64_rel_l2"], row["fp64_peak"] = worst_rel, worst_peak
    agree = report.get("passed") and worst_rel <= FP64_AGREEMENT
    row["verdict"] = "agrees" if agree else "DISAGREES"
    if not agree and worst_rel > FP64_AGREEMENT:
        row["note"] = f"fp64 rel-L2 {worst_rel:.2e} > {FP64_AGREEMENT:.0e}"
    return row


# One staging buffer per worker process, made by the pool's initializer.
_WORKER_STAGING = None


def _start_worker(device):
    global _WORKER_STAGING
    warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
    _WORKER_STAGING = Staging(device)
    if device == "cuda":
        from kbvalidate import exact_forms  # imports torch: only in a worker
        exact_forms.install()  # PyTorch's CUDA hardsigmoid/hardswish are not exact in fp64


def validate_in_worker(spec, args, workdir):
    """validate() in a pool worker: its scratch folder is removed afterwards (a default-size
    export is tens of GB of tmpfs), and PyTorch's cached device memory is handed back."""
    started = time.perf_counter()
    try:
        row = validate(spec, args, workdir, _WORKER_STAGING)
    except Exception as error:  # noqa: BLE001 - one problem's failure is its row, not the run's
        row = {"problem": spec["name"], "kb": f"L{spec['kernelbench']['level']} #{spec['kernelbench']['id']}",
               "verdict": "error", "note": f"validate.py: {type(error).__name__}: {error}"}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        torch = torch_module()
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.empty_cache()
    row["wall_s"] = time.perf_counter() - started
    return row


def table(rows, shapes, device):
    lines = [f"Shape set `{shapes}`, PyTorch on `{device}`, fp64 agreement bound {FP64_AGREEMENT:.0e} (relative L2).", "",
             "| problem | KernelBench | verdict | compare-outputs (rel-L2, fp32 outputs) | fp64 rel-L2 | fp64 max err / rms | note |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        compare = f"{r['compare']} ({r['compare_rel_l2']:.1e})" if "compare" in r else ""
        fp64 = f"{r['fp64_rel_l2']:.1e}" if "fp64_rel_l2" in r else ""
        peak = f"{r['fp64_peak']:.1e}" if "fp64_peak" in r else ""
        note = str(r.get("note", "")).replace("|", "\\|").replace("\n", " ")[:300]
        lines.append(f"| {r['problem']} | {r['kb']} | {r['verdict']} | {compare} | {fp64} | {peak} | {note} |")
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("agrees", "DISAGREES", "error", "not judged")}
    lines += ["", ", ".join(f"{n} {v}" for v, n in counts.items())]
    return "\n".join(lines)


def default_kbv():
    for candidate in (os.environ.get("KBV_BIN"), REPO / "build/bin/kbv", REPO / "build-host/bin/kbv", shutil.which("kbv")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernelbench", required=True, help="KernelBench's KernelBench/ folder (level1/, level2/, level3/)")
    parser.add_argument("--shapes", default="small", help="shape set to validate at (default small)")
    parser.add_argument("--device", default=None, help="PyTorch device: cpu or cuda (default: cpu for small, cuda otherwise)")
    parser.add_argument("--kbv-device", default=None, choices=("host", "cuda"), help="kbv export's device (default: host on cpu, cuda on cuda)")
    parser.add_argument("--kbv", default=default_kbv(), help="kbv binary (default: $KBV_BIN, build/bin/kbv, build-host/bin/kbv)")
    parser.add_argument("--problems-dir", help="kbv problems directory (default: kbv's own)")
    parser.add_argument("--problem", action="append", help="validate only this problem (repeatable)")
    parser.add_argument("--tmp", help="scratch folder for exports (default: /dev/shm if present, else the system's)")
    parser.add_argument("--level", type=int, action="append", choices=(1, 2, 3), help="validate only this KernelBench level (repeatable)")
    parser.add_argument("--rows-jsonl", help="append each problem's row as one JSON line the moment it is known "
                                             "(a run stopped at a time limit keeps what it did)")
    parser.add_argument("--resume", metavar="ROWS_JSONL", action="append", default=[],
                        help="skip problems that already have a final verdict in this rows file (an earlier, stopped run's "
                             "--rows-jsonl; repeatable; errors are tried again)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="problems validated at once, within the memory budget (default: 4 on cuda, 1 on cpu)")
    args = parser.parse_args(argv)
    if not args.kbv:
        parser.error("no kbv binary found (fix: build kbv, or pass --kbv PATH / set KBV_BIN)")
    args.device = args.device or ("cpu" if args.shapes == "small" else "cuda")
    args.kbv_device = args.kbv_device or ("host" if args.device == "cpu" else "cuda")
    args.jobs = args.jobs or (DEFAULT_CUDA_JOBS if args.device == "cuda" else 1)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    done_before = finished_problems(args.resume)
    specs = [s for s in kernelbench_problems(args.kbv, args.problems_dir, args.problem)
             if (not args.level or s["kernelbench"]["level"] in args.level) and s["name"] not in done_before]
    if done_before:
        print(f"--resume: {len(done_before)} problems already have a verdict; {len(specs)} to validate", file=sys.stderr)
    scratch = args.tmp or ("/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir())
    with tempfile.TemporaryDirectory(prefix="kbv-validate-", dir=scratch) as work:
        rows = run_all(specs, args, Path(work))
    order = {s["name"]: (s["kernelbench"]["level"], s["kernelbench"]["id"]) for s in specs}
    rows.sort(key=lambda r: order[r["problem"]])
    print(table(rows, args.shapes, args.device))
    return 0 if all(r["verdict"] in ("agrees", "not judged") for r in rows) else 1


def finished_problems(rows_files):
    """Problems with a final verdict in earlier runs' rows files."""
    finished = set()
    for path in rows_files:
        if not Path(path).is_file():
            raise SystemExit(f"validate.py: --resume {path}: no such file (fix: pass the --rows-jsonl file of an earlier run)")
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                print(f"validate.py: --resume {path}:{number}: not a JSON row, ignored (a run killed mid-write)", file=sys.stderr)
                continue
            if row.get("verdict") in FINAL_VERDICTS:
                finished.add(row["problem"])
    return finished


def is_out_of_memory(row):
    note = str(row.get("note", "")).lower()
    return row["verdict"] == "error" and ("out of memory" in note or "cudaerrormemoryallocation" in note)


def run_all(specs, args, work):
    """Validates `specs` in a pool of args.jobs workers, admitting a problem only while the
    footprints in flight fit the host and device budgets. A problem that ran out of memory
    beside others is run again alone. Rows are printed and appended to --rows-jsonl as they
    finish."""
    by_name = {s["name"]: s for s in specs}
    sizes = {s["name"]: schedule.footprint(s, args.shapes) for s in specs}
    admission = schedule.Admission([(name, *sizes[name]) for name in by_name], schedule.host_budget(work),
                                   schedule.device_budget(args.device), args.jobs)
    rows, in_flight = [], {}
    context = multiprocessing.get_context("spawn")  # CUDA cannot be used in a forked child
    with concurrent.futures.ProcessPoolExecutor(args.jobs, mp_context=context, initializer=_start_worker,
                                                initargs=(args.device,)) as pool:
        while admission.waiting or in_flight:
            while (name := admission.next()) is not None:
                future = pool.submit(validate_in_worker, by_name[name], args, work / name)
                in_flight[future] = (name, len(admission.running) > 1)
            finished, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                name, shared = in_flight.pop(future)
                admission.finished(name)
                row = future.result()
                if shared and is_out_of_memory(row):
                    print(f"{name}: out of memory beside other problems; again alone", file=sys.stderr, flush=True)
                    admission.requeue_alone(name)
                    continue
                report_row(row, args.rows_jsonl)
                rows.append(row)
    return rows


def report_row(row, rows_jsonl):
    phases = " ".join(f"{k[:-2]} {row[k]:.1f}" for k in ("export_s", "load_s", "torch_s", "fp64_check_s", "compare_s") if k in row)
    print(f"{row['problem']}: {row['verdict']} ({row.get('wall_s', 0):.1f} s{'; ' + phases if phases else ''})"
          + (f": {row['note']}" if row.get("note") else ""), file=sys.stderr, flush=True)
    if rows_jsonl:
        with open(rows_jsonl, "a") as sink:
            sink.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    sys.exit(main())
