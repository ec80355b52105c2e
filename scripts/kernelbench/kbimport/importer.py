"""kbimport/importer.py — import KernelBench problems into kbv problem YAMLs (see
kbv-import-kernelbench --help); one `Record` per problem says what became of it."""
import argparse
import inspect
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import torch

from . import coverage, curated, emit, kbv_ops, measured
from .aten_map import Unmappable
from .capture import CaptureError
from .shapes import Capture, NoSmallSet, derive_small, name_symbols
from .source import FILE_NAME, ProblemSource, problem_id, snake_name

REPO = Path(__file__).resolve().parents[3]


class Record:
    """What the importer did with one KernelBench problem."""

    def __init__(self, level, path):
        self.level, self.path = level, Path(path)
        self.id = problem_id(path)
        self.file = self.path.name
        self.name = f"kb_l{level}_{self.id}_{snake_name(path)}"
        self.status = None  # imported | curated | refused
        self.reason = ""
        self.missing = []  # kbv ops/extensions it needs that kbv lacks
        self.ops = []
        self.nondeterministic = ""
        self.curated = None  # path of the curated problem standing for it
        self.gpu_only = False  # imported with KernelBench's sizes alone (no small set: GPU only)
        self.yaml = None

    def as_json(self):
        result = {k: v for k, v in self.__dict__.items() if k not in ("yaml", "path")}
        result["curated"] = self.curated.name if self.curated else None
        return result

    @classmethod
    def from_json(cls, entry):
        record = cls.__new__(cls)
        record.__dict__.update(entry)
        record.path, record.yaml = None, None
        record.gpu_only = entry.get("gpu_only", False)
        record.curated = Path(entry["curated"]) if entry.get("curated") else None
        return record


COVERAGE_JSON = "coverage.json"  # every problem's record, merged across runs: COVERAGE.md is made from it


def merged_records(out, records):
    """The records of this run, plus those of earlier runs for problems this run did not cover."""
    path = Path(out) / COVERAGE_JSON
    earlier = [Record.from_json(e) for e in json.loads(path.read_text())] if path.is_file() else []
    covered = {(r.level, r.id) for r in records}
    merged = [r for r in earlier if (r.level, r.id) not in covered] + list(records)
    return sorted(merged, key=lambda r: (r.level, r.id))


def problem_files(root, levels, only_id):
    for level in levels:
        folder = Path(root) / f"level{level}"
        if not folder.is_dir():
            raise SystemExit(f"kbv-import-kernelbench: {folder} is not a directory (fix: pass the KernelBench/ folder that holds level1/ ... level3/)")
        files = sorted((p for p in folder.iterdir() if FILE_NAME.match(p.name)), key=problem_id)
        for path in files:
            if only_id is None or problem_id(path) == only_id:
                yield level, path


def parameter_scales(source, overrides, graph):
    """{torch_name: scale} from the real initial values of a CPU model at the small sizes.

    kbv's `inv_sqrt_fan_in` (1/sqrt(numel/shape[0])) is PyTorch's default bound for
    nn.Linear/nn.ConvNd/nn.ConvTransposeNd weights; a rank-2+ parameter whose values fill that
    bound gets it. Everything else (biases, norm affine parameters initialised to ones/zeros,
    torch.randn parameters) is drawn at scale 1, the bundled problems' convention; a parameter
    whose RMS is far from 1 (torch.randn(...) * 0.02) gets its RMS, rounded."""
    module = source.load(overrides)
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = module.Model(*module.get_init_inputs())
    state = dict(model.named_parameters())
    state.update(dict(model.named_buffers()))
    scales = {}
    for decl in graph.inputs:
        if decl.role != "parameter":
            continue
        value = state[decl.torch_name].detach().double()
        peak = float(value.abs().max()) if value.numel() else 0.0
        scale = 1
        if value.dim() >= 2 and value.shape[0] > 0:
            bound = 1.0 / math.sqrt(value.numel() / value.shape[0])
            if 0.5 * bound <= peak <= bound * (1 + 1e-6):
                scale = "inv_sqrt_fan_in"
        if scale == 1 and value.numel() > 1 and float(value.std()) > 0:
            rms = float(value.pow(2).mean().sqrt())
            if not 0.2 <= rms <= 5 and not _looks_like_bias_of(decl, graph, peak):
                scale = float(f"{rms:.2g}")
        scales[decl.torch_name] = scale
    return scales


def _looks_like_bias_of(decl, graph, peak):
    # a Linear/Conv bias is U(-b, b) with b = 1/sqrt(fan_in of its weight): drawn at scale 1 by convention
    return decl.torch_name.endswith("bias")


def build_problem(record, default, small, small_values, relative, source):
    graph = default.graph
    for node in graph.nodes:
        for (name, key), value in relative.items():
            if node.name == name:
                node.attrs[key] = value
    default_shapes, small_shapes = default.io_shapes(), small.io_shapes()
    specs, sets = name_symbols(default_shapes, small_shapes, source, small_values)
    scales = parameter_scales(source, small.overrides, graph)
    inputs = [{"name": d.name, "shape": specs[d.name], "role": d.role, "torch_name": d.torch_name,
               "scale": scales.get(d.torch_name, 1), "dtype": d.dtype} for d in graph.inputs]
    small_ranges = {d.name: d.value_range for d in small.graph.inputs}
    for entry, decl in zip(inputs, graph.inputs):
        if decl.dtype == "int64":
            entry["range"] = range_bounds(decl.name, decl.value_range, small_ranges[decl.name], sets)
    outputs = [{"name": name, "shape": specs[name]} for name, _ in graph.outputs]
    nodes = [{"name": n.name, "op": n.op, "inputs": n.inputs, "output": n.output, "attrs": n.attrs} for n in graph.nodes]
    ops = " -> ".join(n.op for n in graph.nodes)
    shapes_text = ", ".join(f"{d.name}{default_shapes[d.name]}" for d in graph.inputs if d.role == "activation")
    description = f"KernelBench L{record.level} #{record.id} {FILE_NAME.match(record.file).group(2)}: {ops} on {shapes_text}"
    globals_small = {}
    for key, value in small_values.items():
        name = key if isinstance(key, str) else key[0]
        globals_small[name] = small.overrides[name]
    reasons = graph.nondeterministic
    return {"name": record.name, "level": record.level, "id": record.id, "file": record.file, "globals": {"small": globals_small},
            "deterministic": not reasons, "nondeterministic_reason": "; ".join(reasons), "description": description,
            "inputs": inputs, "outputs": outputs, "graph": nodes, "precision": emit.problem_precision(graph),
            "shapes": sets, "tolerance": measured.TOLERANCE.get((record.level, record.id))}


def range_bounds(name, default, small, sets):
    """An int64 input's range as the schema writes it: each bound a literal where both shape sets
    have it, else the symbol with the same (default, small) sizes (torch.randint(0, num_classes)
    gives high: num_classes); ValueError when no symbol has them."""
    bounds = []
    for which, d, s in (("low", default[0], small[0]), ("high", default[1], small[1])):
        if d == s:
            bounds.append(d)
            continue
        symbols = [k for k in sets["default"] if (sets["default"][k], sets["small"][k]) == (d, s)]
        if not symbols:
            raise ValueError(f"input {name}: range {which} is {d} at KernelBench's sizes and {s} at the small ones, the size of no dim")
        bounds.append(symbols[0])
    return bounds


def import_one(record, curated_specs, log):
    if (record.level, record.id) in measured.ILL_CONDITIONED:
        record.status, record.reason = "refused", measured.ILL_CONDITIONED[(record.level, record.id)]
        return
    source = ProblemSource(record.path)
    try:
        default = Capture(source, {})
    except ModuleNotFoundError as error:
        record.status = "refused"
        record.reason = f"capture: the file imports {error.name}, which is not installed here (fix: pip install {error.name} and re-run)"
        return
    except CaptureError as error:
        record.status, record.reason = "refused", f"capture: {error}"
        return
    except Unmappable as error:
        record.status, record.reason = "refused", str(error)
        record.nondeterministic = "; ".join(error.nondeterministic)
        if record.nondeterministic:
            record.reason += f" (and the forward is random: {record.nondeterministic})"
        if error.op not in ("input", "buffer", "constant", "output"):
            record.missing = [f"unmapped {error.op}"]
        return
    graph = default.graph
    record.ops = [n.op for n in graph.nodes]
    record.missing = graph.missing()
    record.nondeterministic = "; ".join(graph.nondeterministic)
    if graph.stateful:
        record.status, record.reason = "refused", "stateful: " + "; ".join(graph.stateful)
        return
    # the curated problem standing for it, if any
    differences = []
    for path, spec in curated_specs.get((record.level, record.id), []):
        shell = _comparable(default)
        why = curated.compare(spec, shell)
        if why is None:
            record.status, record.curated = "curated", path
            record.reason = _check_curated_fields(path, spec, record, source, default)
            return
        differences.append(f"{path.name} differs: {why}")
    if record.missing:
        record.status = "refused"
        record.reason = "needs " + ", ".join(record.missing)
        if differences:
            record.reason += " (" + "; ".join(differences) + ")"
        return
    gpu_only = ""
    try:
        small, small_values, relative = derive_small(source, default, log)
    except NoSmallSet as error:
        # The host cannot evaluate it at any size that keeps the graph (a whole model's weights
        # alone): imported at KernelBench's sizes only, evaluated and validated on the GPU.
        small, small_values, relative, gpu_only = default, {}, {}, f"no small shape set: {error}"
    except ValueError as error:
        record.status, record.reason = "refused", f"small shapes: {error}"
        return
    try:
        problem = build_problem(record, default, small, small_values, relative, source)
    except ValueError as error:
        record.status, record.reason = "refused", f"value range: {error}"
        return
    if gpu_only:
        problem["gpu_only"] = gpu_only
        del problem["shapes"]["small"]
        problem["globals"].pop("small", None)
        record.gpu_only = True
    problem["notes"] = _scalar_argument_notes(default)
    if differences:
        problem["notes"].append("Not the curated problem with this id: " + "; ".join(differences) + ".")
        record.reason = "; ".join(differences)
    record.status, record.yaml = "imported", emit.render(problem)


def _scalar_argument_notes(capture_):
    """A Python number passed to forward() is specialised by torch.export into the graph: say so."""
    names = list(inspect.signature(capture_.model.forward).parameters)
    return [f"forward()'s argument {name} is the number {value!r} in get_inputs(): torch.export bakes it into the graph as a "
            "constant, which kbv carries as a node attribute, not an input." for name, value in zip(names, capture_.inputs)
            if not isinstance(value, torch.Tensor)]


def _comparable(capture_):
    """The imported graph in the form curated.compare reads (raw default shapes as literals)."""
    shapes = capture_.io_shapes()
    graph = capture_.graph
    return {"inputs": [{"name": d.name, "shape": shapes[d.name], "role": d.role, "dtype": d.dtype,
                        **({"range": {"low": d.value_range[0], "high": d.value_range[1]}} if d.value_range else {})}
                       for d in graph.inputs],
            "outputs": [{"name": name, "shape": shapes[name]} for name, _ in graph.outputs],
            "graph": [{"op": n.op, "inputs": n.inputs, "output": n.output, "attrs": n.attrs} for n in graph.nodes],
            "shapes": {"default": {}}}


def _check_curated_fields(path, spec, record, source, default):
    """'' when the curated YAML names this KernelBench problem and its small set is what the
    KernelBench file gives at `kernelbench.globals.small`; else what to fix."""
    kb = spec.get("kernelbench")
    if not kb:
        return f"{path.name} lacks the kernelbench: {{level, id, file, globals}} fields"
    if (kb.get("level"), kb.get("id"), kb.get("file")) != (record.level, record.id, record.file):
        return f"{path.name}: kernelbench: fields say L{kb.get('level')} #{kb.get('id')} {kb.get('file')}"
    overrides = ((kb.get("globals") or {}).get("small")) or {}
    try:
        small = Capture(source, {k: tuple(v) if isinstance(v, list) else v for k, v in overrides.items()})
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"{path.name}: kernelbench.globals.small does not capture: {error}"
    symbols = spec["shapes"]["small"]
    declared = [curated.resolve(d["shape"], symbols) for d in spec["inputs"]]
    shapes = small.io_shapes()
    actual = [shapes[d.name] for d in small.graph.inputs]
    if declared != actual:
        return f"{path.name}: small input shapes {declared}, but KernelBench at kernelbench.globals.small gives {actual}"
    return ""


# kbv's input family classes (sign, shape, magnitude, small, rare, structure: inputs::kFamilyClassCount).
FAMILY_CLASS_COUNT = 6


def check_with_kbv(kbv, directory, names):
    """Loads `directory` with kbv's own loader and probes each problem's input classes on the host
    (`kbv problems --classes`). Returns (error, degenerate): error is '' or the loader's (file,
    field, fix); degenerate the names whose every input class the probe finds degenerate (a GPU-only
    problem has no small set to probe on the host: its classes are null, and the evaluator's own
    check on the device decides)."""
    if not names:
        return "", set()
    done = subprocess.run([kbv, "problems", "--json", "--classes", "--problems-dir", str(directory)], capture_output=True, text=True)
    if done.returncode != 0:
        return done.stderr.strip() or f"kbv problems exited {done.returncode}", set()
    entries = json.loads(done.stdout)
    absent = sorted(set(names) - {entry["name"] for entry in entries})
    if absent:
        return f"kbv did not load {', '.join(absent)}", set()
    return "", {entry["name"] for entry in entries if len(entry["degenerate_classes"] or []) >= FAMILY_CLASS_COUNT}


def default_kbv():
    for candidate in (os.environ.get("KBV_BIN"), REPO / "build/bin/kbv", REPO / "build-host/bin/kbv", shutil.which("kbv")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="kbv-import-kernelbench",
        description="Import KernelBench problems as kbv problem YAMLs (docs/problem-spec.md). Each problem's forward is "
                    "captured with torch.export at KernelBench's sizes (on the meta device) and mapped op by op onto kbv's "
                    "ops; a problem needing an op kbv lacks is refused, naming it (scripts/kernelbench/OPS.md specifies them).")
    parser.add_argument("kernelbench_dir", help="KernelBench's KernelBench/ folder (holding level1/, level2/, level3/)")
    parser.add_argument("--level", type=int, action="append", choices=(1, 2, 3), help="import this level (repeatable; default 1, 2 and 3)")
    parser.add_argument("--problem", type=int, help="import only the problem with this id (with --level)")
    parser.add_argument("--out", required=True, help="folder for the YAMLs, coverage.json and COVERAGE.md (problems/kernelbench); "
                        "COVERAGE.md covers every problem imported into it so far, this run's replacing earlier records")
    parser.add_argument("--problems-dir", default=str(REPO / "problems"), help="kbv's curated problems (default: the repository's problems/)")
    parser.add_argument("--kbv", default=default_kbv(), help="kbv binary whose loader must accept every YAML (default: $KBV_BIN, build/bin/kbv, build-host/bin/kbv)")
    parser.add_argument("--verbose", action="store_true", help="log the small-shape search")
    args = parser.parse_args(argv)
    # A size PyTorch rejects while searching for the small set is expected; its fake-tensor log is noise.
    logging.getLogger("torch").setLevel(logging.CRITICAL)
    if args.problem is not None and not args.level:
        parser.error("--problem needs --level")
    if not args.kbv:
        parser.error("no kbv binary found (fix: build kbv, or pass --kbv PATH / set KBV_BIN)")
    levels = sorted(set(args.level or (1, 2, 3)))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    curated_specs = curated.load_curated(args.problems_dir)
    log = (lambda message: print("    " + message, file=sys.stderr)) if args.verbose else (lambda message: None)

    records = []
    for level, path in problem_files(args.kernelbench_dir, levels, args.problem):
        record = Record(level, path)
        print(f"L{level} #{record.id:<3} {record.file} ...", end="", file=sys.stderr, flush=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                import_one(record, curated_specs, log)
            except Exception as error:  # noqa: BLE001 - an importer bug must not hide the other problems
                record.status, record.reason = "refused", f"importer error: {type(error).__name__}: {error}"
        print(f" {record.status}" + (f": {record.reason}" if record.reason else ""), file=sys.stderr, flush=True)
        records.append(record)

    # Check every imported YAML with kbv's own loader before anything in `out` changes. A YAML the
    # loader rejects is an importer bug: its problem is refused, naming the loader's error, and the
    # run exits 1 after writing the rest, so that one bad problem never loses the others.
    loader_rejected = []
    with tempfile.TemporaryDirectory() as staging:
        for record in records:
            if record.status == "imported":
                (Path(staging) / f"{record.name}.yaml").write_text(record.yaml)
        while True:
            pending = [r for r in records if r.status == "imported"]
            problem, degenerate = check_with_kbv(args.kbv, staging, [r.name for r in pending])
            if not problem:
                break
            culprits = [r for r in pending if f"{r.name}.yaml" in problem]
            if not culprits:  # the loader's error names no file of this run: nothing can be attributed
                print(f"kbv-import-kernelbench: kbv's loader rejects the imported YAMLs: {problem}", file=sys.stderr)
                return 1
            for record in culprits:
                record.status, record.reason = "refused", f"importer bug: kbv's loader rejects the YAML: {problem}"
                (Path(staging) / f"{record.name}.yaml").unlink()
                loader_rejected.append(record)
    # A problem whose output no input family of kbv's can tell from a trivial one (zeros, a
    # constant) is degenerate: kbv would judge every candidate bad_input (docs/problem-spec.md),
    # and the field filters such tasks out (KernelBench L2 #80: x - max over a size-1 axis is 0).
    for record in records:
        if record.status == "imported" and record.name in degenerate:
            record.status, record.reason = "refused", ("degenerate: a trivial output (zeros or the reference's mean) passes "
                                                       "every family of every input class at the small set")
    # Write: replace every earlier YAML of the problems this run covered.
    for record in records:
        for stale in out.glob(f"kb_l{record.level}_{record.id}_*.yaml"):
            stale.unlink()
    written = []
    for record in records:
        if record.status == "imported":
            (out / f"{record.name}.yaml").write_text(record.yaml)
            written.append(record.name)

    print(coverage.table(records))
    everything = merged_records(out, records)
    (out / COVERAGE_JSON).write_text(json.dumps([r.as_json() for r in everything], indent=1) + "\n")
    (out / "COVERAGE.md").write_text(coverage.document(everything, sorted({r.level for r in everything})))
    print(f"kbv-import-kernelbench: {len(written)} imported, {sum(r.status == 'curated' for r in records)} curated, "
          f"{sum(r.status == 'refused' for r in records)} refused -> {out}", file=sys.stderr)
    for record in loader_rejected:
        print(f"kbv-import-kernelbench: {record.file}: {record.reason}", file=sys.stderr)
    return 1 if loader_rejected else 0
