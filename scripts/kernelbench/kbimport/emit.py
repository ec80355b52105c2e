"""kbimport/emit.py — a problem YAML in kbv's schema (docs/problem-spec.md), written in the
bundled problems' style: one flow map per input, output and graph node."""
import math

from . import kbv_ops

# docs/problem-spec.md, "Tolerance rule": by the strictest precision class in the graph.
TOLERANCE = {
    "exact": ("{atol: 1.0e-4, rtol: 1.0e-4, rel_l2: 1.0e-5}",
              "# Exact ops only: fp32 against fp64 (unit roundoff 6.0e-8) leaves room for reduction order (docs/problem-spec.md)."),
    "tensor_core": ("{atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}",
                    "# TF32 tensor-core op: KernelBench's 1e-2 elementwise, rel_l2 2e-3 rejects bf16 (docs/problem-spec.md)."),
    "index": ("{atol: 0, rtol: 0, rel_l2: 0}", "# Index outputs (argmax/argmin) must match exactly (scripts/kernelbench/OPS.md)."),
}


def number(value):
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = repr(float(value))
    mantissa, _, exponent = text.partition("e")
    if exponent and "." not in mantissa:  # 1e-05 -> 1.0e-05: YAML 1.1 readers (PyYAML) need the dot to see a float
        text = f"{mantissa}.0e{exponent}"
    return text


def flow_map(items):
    return "{" + ", ".join(f"{key}: {value}" for key, value in items) + "}"


def flow_list(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def problem_precision(graph):
    classes = {kbv_ops.precision_class(node.op) for node in graph.nodes}
    if "index" in classes:  # an index output must match exactly, whatever computed the values it ranks
        return "index"
    return "tensor_core" if "tensor_core" in classes else "exact"


def render(problem):
    """YAML text for an imported problem (dict built by the importer)."""
    lines = [f"# {problem['name']} — KernelBench level {problem['level']} #{problem['id']} ({problem['file']}),",
             "# imported by scripts/kernelbench/kbv-import-kernelbench: shapes, op graph and ids only (no KernelBench code).",
             "# Regenerate it rather than editing it by hand."]
    for note in problem.get("notes", []):
        lines.append(f"# {note}")
    lines += [f"name: {problem['name']}", f"level: {problem['level']}", f"kernelbench_id: {problem['id']}", "source: kernelbench"]
    globals_items = []
    for set_name, values in problem["globals"].items():
        if values:
            globals_items.append((set_name, flow_map((k, flow_list(v) if isinstance(v, (tuple, list)) else v) for k, v in values.items())))
    kb = [("level", problem["level"]), ("id", problem["id"]), ("file", problem["file"])]
    if globals_items:
        kb.append(("globals", flow_map(globals_items)))
    lines.append(f"kernelbench: {flow_map(kb)}")
    if not problem["deterministic"]:
        lines.append("deterministic: false")
        lines.append(f"nondeterministic_reason: \"{problem['nondeterministic_reason']}\"")
    if problem.get("gpu_only"):
        lines.append(f"gpu_only: \"{problem['gpu_only']}\"")
    lines.append(f"description: \"{problem['description']}\"")
    lines.append("inputs:")
    for decl in problem["inputs"]:
        items = [("name", decl["name"]), ("shape", flow_list(decl["shape"]))]
        if decl.get("dtype", "float32") != "float32":
            items.append(("dtype", decl["dtype"]))
        if "range" in decl:  # int64: the torch.randint(low, high) it is drawn from, high excluded
            items.append(("range", flow_map([("low", decl["range"][0]), ("high", decl["range"][1])])))
        items.append(("role", decl["role"]))
        if decl["role"] == "parameter":
            items.append(("scale", decl["scale"]))
        items.append(("torch_name", decl["torch_name"]))
        lines.append(f"  - {flow_map(items)}")
    lines.append("outputs:")
    for out in problem["outputs"]:
        lines.append(f"  - {flow_map([('name', out['name']), ('shape', flow_list(out['shape']))])}")
    lines.append("graph:")
    for node in problem["graph"]:
        items = [("name", node["name"]), ("op", node["op"]), ("inputs", flow_list(node["inputs"])), ("output", node["output"])]
        if node["attrs"]:
            items.append(("attrs", flow_map((k, number(v)) for k, v in node["attrs"].items())))
        lines.append(f"  - {flow_map(items)}")
    tolerance, comment = problem.get("tolerance") or TOLERANCE[problem["precision"]]
    lines += [comment, f"tolerance: {tolerance}", "shapes:"]
    for set_name in ("default", "small"):
        if set_name in problem["shapes"]:  # a GPU-only problem has no small set
            lines.append(f"  {set_name}: {flow_map(problem['shapes'][set_name].items())}")
    return "\n".join(lines) + "\n"
