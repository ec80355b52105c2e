"""kbimport/curated.py — kbv's hand-written problems (problems/*.yaml) that are KernelBench
problems: the importer emits no duplicate of one whose graph and shapes match.

A curated problem matches when its op graph (ops, wiring, attributes with defaults filled and
axes counted from the front), its input and output shapes at the `default` set, and its inputs'
dtypes and int64 ranges equal the imported ones; its `small` set must also be what the KernelBench file gives at the sizes its
`kernelbench.globals.small` names. A curated problem with the same id that differs (a different
size, a prefix of the graph) does not stand for the KernelBench problem: the importer emits
the problem and the coverage table says how the curated one differs.
"""
from pathlib import Path

import yaml

from . import kbv_ops

# How each existing op changes rank, for normalising axis attributes (rank of the output).
def _output_rank(op, in_ranks, attrs):
    if op in ("sum", "mean"):
        return in_ranks[0] if attrs.get("keepdim", 1) else in_ranks[0] - 1
    if op in ("add", "mul"):
        return max(in_ranks)
    if op == "matmul":
        return 2
    if op == "bmm":
        return 3
    return in_ranks[0]


AXIS_ATTRS = {"softmax": ["axis"], "sum": ["axis"], "mean": ["axis"], "rmsnorm": ["axis"]}


def load_curated(problems_dir):
    """{(level, id): [(path, spec)]} for every problems/*.yaml with a KernelBench id."""
    found = {}
    for path in sorted(Path(problems_dir).glob("*.yaml")):
        spec = yaml.safe_load(path.read_text())
        kb = spec.get("kernelbench") or {}
        level, pid = kb.get("level", spec.get("level")), kb.get("id", spec.get("kernelbench_id", 0))
        if pid:
            found.setdefault((int(level), int(pid)), []).append((path, spec))
    return found


def resolve(dims, symbols):
    return [int(d) if str(d).lstrip("-").isdigit() else int(symbols[str(d)]) for d in dims]


def normalised_graph(spec_graph, input_ranks):
    """[(op, inputs by position, attrs)] with defaults filled and axes >= 0; tensors renamed by order."""
    ranks = dict(input_ranks)
    names = {name: f"in{i}" for i, name in enumerate(input_ranks)}
    result = []
    for index, node in enumerate(spec_graph):
        op = node["op"]
        attrs = dict(kbv_ops.EXISTING.get(op, kbv_ops.PLANNED.get(op, {})))
        attrs.update(node.get("attrs") or {})
        in_ranks = [ranks[name] for name in node["inputs"]]
        for key in AXIS_ATTRS.get(op, []):
            attrs[key] = int(attrs[key]) % in_ranks[0]
        attrs = {k: float(v) for k, v in attrs.items() if v is not None}
        result.append((op, tuple(names[n] for n in node["inputs"]), tuple(sorted(attrs.items()))))
        ranks[node["output"]] = _output_rank(op, in_ranks, attrs)
        names[node["output"]] = f"t{index}"
    return result


def compare(curated_spec, imported):
    """None when the curated spec is the imported problem, else a short reason."""
    symbols = curated_spec["shapes"]["default"]
    curated_inputs = [resolve(d["shape"], symbols) for d in curated_spec["inputs"]]
    imported_inputs = [resolve(d["shape"], imported["shapes"]["default"]) for d in imported["inputs"]]
    if curated_inputs != imported_inputs:
        return f"default input shapes {curated_inputs} vs KernelBench's {imported_inputs}"
    curated_outputs = [resolve(d["shape"], symbols) for d in curated_spec["outputs"]]
    imported_outputs = [resolve(d["shape"], imported["shapes"]["default"]) for d in imported["outputs"]]
    if curated_outputs != imported_outputs:
        return f"default output shapes {curated_outputs} vs KernelBench's {imported_outputs}"
    roles = [d.get("role", "activation") for d in curated_spec["inputs"]]
    if roles != [d["role"] for d in imported["inputs"]]:
        return f"input roles {roles} vs {[d['role'] for d in imported['inputs']]}"
    dtypes = [d.get("dtype", "float32") for d in curated_spec["inputs"]]
    if dtypes != [d.get("dtype", "float32") for d in imported["inputs"]]:
        return f"input dtypes {dtypes} vs KernelBench's {[d.get('dtype', 'float32') for d in imported['inputs']]}"
    ranges = [resolve([d["range"]["low"], d["range"]["high"]], symbols) if "range" in d else None for d in curated_spec["inputs"]]
    imported_ranges = [[d["range"]["low"], d["range"]["high"]] if "range" in d else None for d in imported["inputs"]]
    if ranges != imported_ranges:
        return f"int64 input ranges {ranges} vs KernelBench's {imported_ranges}"
    ranks = {d["name"]: len(d["shape"]) for d in curated_spec["inputs"]}
    imported_ranks = {d["name"]: len(d["shape"]) for d in imported["inputs"]}
    a = normalised_graph(curated_spec["graph"], ranks)
    b = normalised_graph(imported["graph"], imported_ranks)
    if a != b:
        return f"graph {[n[0] for n in a]} vs KernelBench's {[n[0] for n in b]}" + ("" if [n[0] for n in a] != [n[0] for n in b] else " (attributes or wiring)")
    return None
