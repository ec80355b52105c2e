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
import inspect
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

REPO = Path(__file__).resolve().parents[2]
# fp64 against fp64 on the same inputs: summation order alone gives ~1e-16·sqrt(n) relative
# error (n ≤ 1e10 terms here: ≤ 1e-11); 1e-9 leaves room while a semantic slip (an eps of 1e-5
# against 1e-6, a biased against an unbiased variance) is ≥ 1e-6.
FP64_AGREEMENT = 1e-9
SLAB_ELEMENTS = 1 << 26  # rows compared per step on the device when checking fp64 agreement


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


def as_model_tensor(array, device):
    """kbv's values as the model takes them: floating point in float64, int64 class indices and
    bool masks in their own dtype (as get_inputs() makes them)."""
    torch = torch_module()
    value = torch.from_numpy(np.ascontiguousarray(array))
    return value.to(device=device, dtype=torch.float64) if value.is_floating_point() else value.to(device=device)


def load_parameters(model, spec, arrays, device):
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
        value = torch.from_numpy(np.asarray(arrays[decl["name"]])).to(device=device, dtype=torch.float64)
        if tuple(value.shape) != tuple(state[name].shape):
            raise ValueError(f"input {decl['name']}: kbv's shape {list(value.shape)}, the model's {name} is {list(state[name].shape)}")
        with torch.no_grad():
            state[name].copy_(value)
        loaded.append(name)
    return loaded


def forward_arguments(model, module, spec, arrays, device):
    """forward()'s arguments: kbv's activations by torch_name, get_inputs()' own value for a
    non-tensor argument (L1 #5's scalar, which the graph carries as an attribute)."""
    torch = torch_module()
    by_name = {d.get("torch_name", d["name"]): d["name"] for d in spec["inputs"] if d.get("role", "activation") == "activation"}
    with torch.device("meta"):
        template = module.get_inputs()
    args = []
    for index, name in enumerate(inspect.signature(model.forward).parameters):
        if name in by_name:
            args.append(as_model_tensor(arrays[by_name[name]], device))
        elif index < len(template) and not isinstance(template[index], torch.Tensor):
            args.append(template[index])
        elif index < len(template):  # a tensor the graph never reads
            args.append(torch.zeros(template[index].shape, dtype=torch.float64, device=device))
    return args


def fp64_distance(output, reference):
    """(relative L2 distance, max |difference| / rms(reference)) between two float64 arrays."""
    torch = torch_module()
    flat_out = output.reshape(-1)
    flat_ref = np.asarray(reference).reshape(-1)
    diff2 = ref2 = 0.0
    worst = 0.0
    for start in range(0, flat_ref.size, SLAB_ELEMENTS):
        ref = torch.from_numpy(np.ascontiguousarray(flat_ref[start:start + SLAB_ELEMENTS])).to(flat_out.device)
        out = flat_out[start:start + SLAB_ELEMENTS]
        difference = out - ref
        diff2 += float((difference * difference).sum())
        ref2 += float((ref * ref).sum())
        worst = max(worst, float(difference.abs().max()) if difference.numel() else 0.0)
    rms = math.sqrt(ref2 / max(flat_ref.size, 1))
    rel = math.sqrt(diff2) / math.sqrt(ref2) if ref2 > 0 else (0.0 if diff2 == 0 else math.inf)
    return rel, (worst / rms if rms > 0 else worst)


def validate(spec, args, workdir):
    """One problem's row: dict with verdict and figures."""
    torch = torch_module()
    row = {"problem": spec["name"], "kb": f"L{spec['kernelbench']['level']} #{spec['kernelbench']['id']}"}
    if spec.get("deterministic", True) is False:
        row.update(verdict="not judged", note=f"deterministic: false ({spec.get('nondeterministic_reason', '')})")
        return row
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
    manifest = json.loads((export_dir / "manifest.json").read_text())
    arrays = {e["name"]: np.load(export_dir / e["file"], mmap_mode="r") for e in manifest["inputs"]}
    start = time.perf_counter()
    try:
        torch.set_default_dtype(torch.float64)
        model, module = build_model(spec, args.kernelbench, args.shapes, args.device)
        load_parameters(model, spec, arrays, args.device)
        call_args = forward_arguments(model, module, spec, arrays, args.device)
        with torch.no_grad():
            result = model(*call_args)
    except Exception as error:  # noqa: BLE001 - reported in the table
        row.update(verdict="error", note=f"PyTorch: {type(error).__name__}: {error}")
        return row
    finally:
        torch.set_default_dtype(torch.float32)
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(outputs) != len(manifest["reference"]):
        row.update(verdict="error", note=f"the model returns {len(outputs)} outputs, kbv's problem {len(manifest['reference'])}")
        return row
    worst_rel, worst_peak = 0.0, 0.0
    for output, entry in zip(outputs, manifest["reference"]):
        if list(output.shape) != list(entry["shape"]):
            row.update(verdict="error", note=f"output {entry['name']}: model {list(output.shape)}, kbv {entry['shape']}")
            return row
        reference = np.load(export_dir / entry["file"], mmap_mode="r")
        rel, peak = fp64_distance(output.to(torch.float64), reference)
        worst_rel, worst_peak = max(worst_rel, rel), max(worst_peak, peak)
        np.save(outputs_dir / f"{entry['name']}.npy", output.to(torch.float32).cpu().numpy())
    row["torch_s"] = time.perf_counter() - start
    done = run([args.kbv, "compare-outputs", str(export_dir), str(outputs_dir), "--json"])
    if done.returncode not in (0, 1):
        row.update(verdict="error", note=f"kbv compare-outputs: {done.stderr.strip()}")
        return row
    report = json.loads(done.stdout)
    row["compare"] = "pass" if report.get("passed") else "FAIL"
    row["compare_rel_l2"] = max((o.get("rel_l2_error", 0.0) for o in report.get("outputs", [])), default=0.0)
    row["fp64_rel_l2"], row["fp64_peak"] = worst_rel, worst_peak
    agree = report.get("passed") and worst_rel <= FP64_AGREEMENT
    row["verdict"] = "agrees" if agree else "DISAGREES"
    if not agree and worst_rel > FP64_AGREEMENT:
        row["note"] = f"fp64 rel-L2 {worst_rel:.2e} > {FP64_AGREEMENT:.0e}"
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
    args = parser.parse_args(argv)
    if not args.kbv:
        parser.error("no kbv binary found (fix: build kbv, or pass --kbv PATH / set KBV_BIN)")
    args.device = args.device or ("cpu" if args.shapes == "small" else "cuda")
    args.kbv_device = args.kbv_device or ("host" if args.device == "cpu" else "cuda")
    specs = [s for s in kernelbench_problems(args.kbv, args.problems_dir, args.problem)
             if not args.level or s["kernelbench"]["level"] in args.level]
    scratch = args.tmp or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    rows = []
    with tempfile.TemporaryDirectory(prefix="kbv-validate-", dir=scratch) as work:
        for spec in specs:
            print(f"{spec['name']} ...", end="", file=sys.stderr, flush=True)
            started = time.perf_counter()
            row = validate(spec, args, Path(work))
            row["wall_s"] = time.perf_counter() - started
            print(f" {row['verdict']} ({row['wall_s']:.1f} s)" + (f": {row['note']}" if row.get("note") else ""), file=sys.stderr, flush=True)
            rows.append(row)
            if args.rows_jsonl:
                with open(args.rows_jsonl, "a") as sink:
                    sink.write(json.dumps(row) + "\n")
    print(table(rows, args.shapes, args.device))
    return 0 if all(r["verdict"] in ("agrees", "not judged") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
