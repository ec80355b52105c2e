"""kbimport/shapes.py — a problem's `small` shape set, derived by shrinking KernelBench's own
size globals and capturing again, and the symbols that name its dims.

kbv's attributes are fixed per problem while its shape sets vary, so a small set is only valid
when the graph captured at the small sizes is the graph captured at KernelBench's sizes: same
ops, same wiring, same attributes. Each size global (`batch_size`, `in_channels`, an entry of
`input_shape`, ...) is shrunk on its own to the first candidate that keeps the graph; globals
that only work together (a broadcast that needs `batch_size == input_shape[0]`) are then
shrunk as a group; a global that decides an attribute (a kernel size, a group count) keeps
its value because every candidate changes the graph.
"""
import inspect
import math

import torch
from torch.utils.flop_counter import FlopCounterMode

from .aten_map import Unmappable, map_program, shape_of
from .capture import CaptureError, capture, real_buffers
from .source import is_literal_knob

# Values a size global tries, tier by tier: the first tier whose sizes fit the budget wins, so
# a cheap elementwise problem keeps thousands of elements per row while a 3-D convolution
# shrinks to a few. Within a tier the values differ so that distinct globals get distinct
# sizes and the symbols that name the dims stay unambiguous. A global at or below a tier's
# floor keeps its value (kernel sizes, strides and group counts stay as KernelBench has them
# unless the last tier needs them smaller).
TIERS = (
    ((64, 48, 96, 80, 56, 72, 40, 88, 36, 44), 8),
    ((16, 12, 24, 20, 32, 10, 14, 28, 18, 22), 8),
    ((8, 6, 10, 12, 5, 7, 9, 4, 11, 13), 8),
    ((4, 3, 5, 6, 2, 7), 2),
)
# The host test evaluates the small set's fp64 reference and fp32 baseline with kbv's plain C++
# loops (about 1 GFLOP/s); 3e7 FLOPs keeps a problem's host evaluation near 0.1 s, well under
# the 2 s a new op's honest host evaluation at small shapes may take.
SMALL_FLOP_BUDGET = 3e7
# Elements of every tensor the graph makes (inputs, intermediates, outputs): 2e6 doubles are
# 16 MB per copy, so a small set also stays cheap in memory and data movement.
SMALL_ELEMENT_BUDGET = 2_000_000


class NoSmallSet(ValueError):
    """No sizes keep the graph within the host's budget: the problem is imported GPU-only
    (`gpu_only:` in its YAML, KernelBench's sizes alone), with this as the reason."""


class Capture:
    """One capture of a problem at some sizes: its kbv graph and program."""

    def __init__(self, source, overrides):
        self.overrides = dict(overrides)
        module = source.load(self.overrides)
        self.program, self.model, self.inputs, self.value_ranges = capture(module)
        forward_names = list(inspect.signature(self.model.forward).parameters)
        buffers = {}

        def buffer_value(target):  # built once, and only for a model whose idiom asks
            if not buffers:
                buffers.update(real_buffers(module) or {"": None})
            return buffers.get(target)
        self.graph = map_program(self.program, forward_names, dict(zip(forward_names, self.value_ranges)), buffer_value)
        self.module = module

    def tensor_shapes(self):
        return {name: shape_of(fx) for name, fx in self.graph.tensor_fx.items()}

    def io_shapes(self):
        shapes = self.tensor_shapes()
        names = [d.name for d in self.graph.inputs] + [name for name, _ in self.graph.outputs]
        return {name: shapes[name] for name in names}


def graph_signature(graph):
    return ([(d.name, d.torch_name, d.role, d.dtype) for d in graph.inputs],
            [(n.op, tuple(n.inputs), n.output) for n in graph.nodes],
            [name for name, _ in graph.outputs])


def same_graph(reference, other):
    """None when `other` is `reference`'s graph with equal attributes, else what differs. An
    attribute that differs but agrees in its size-relative form (a slice end counted from the
    end of the axis) is accepted and recorded in `relative` for the emitter."""
    if graph_signature(reference) != graph_signature(other):
        return "different graph"
    relative = {}
    for a, b in zip(reference.nodes, other.nodes):
        if set(a.attrs) != set(b.attrs):
            return f"{a.name}: different attributes"
        for key in a.attrs:
            if a.attrs[key] != b.attrs[key]:
                if key in a.alt_attrs and key in b.alt_attrs and a.alt_attrs[key] == b.alt_attrs[key]:
                    relative[(a.name, key)] = a.alt_attrs[key]
                else:
                    return f"{a.name}.{key}: {a.attrs[key]} at KernelBench's sizes, {b.attrs[key]} here"
    return relative


def ranges_follow_dims(reference, other):
    """None when every int64 input's range bound in `other` stands where it stands in `reference`:
    the size of a dim it equals at KernelBench's sizes (torch.randint(0, num_classes) beside
    logits of num_classes columns), or the same number where it equals none; else what differs.
    Knobs shrink one by one, so a bound and the dim it counts can otherwise part."""
    ref_shapes, other_shapes = reference.io_shapes(), other.io_shapes()
    other_ranges = {d.name: d.value_range for d in other.graph.inputs}
    for decl in reference.graph.inputs:
        if decl.value_range is None:
            continue
        for which, value, shrunk in zip(("low", "high"), decl.value_range, other_ranges[decl.name]):
            dims = [(t, a) for t, shape in ref_shapes.items() for a, d in enumerate(shape) if d == value]
            if (dims and not any(other_shapes[t][a] == shrunk for t, a in dims)) or (not dims and shrunk != value):
                return f"{decl.name}: range {which} {shrunk} no longer matches the dim it counts"
    return None


# Elements in one statistics set of a normalisation over x (x's shape, the node's attributes):
# at sizes where a set holds a single element the output no longer depends on x (groupnorm with
# as many groups as channels on a [N, C] input gives its bias), so such sizes are refused.
NORM_SET_SIZE = {
    "batchnorm": lambda shape, attrs: math.prod(shape) // shape[1],
    "groupnorm": lambda shape, attrs: math.prod(shape) // (shape[0] * int(attrs.get("groups", 1))),
    "instancenorm": lambda shape, attrs: math.prod(shape[2:]),
}


def single_element_statistics(graph):
    """A normalisation node whose statistics sets hold one element at this graph's sizes, or None."""
    for node in graph.nodes:
        set_size = NORM_SET_SIZE.get(node.op)
        if set_size and set_size(shape_of(graph.tensor_fx[node.inputs[0]]), node.attrs) < 2:
            return f"{node.name}: {node.op} statistics over single elements"
    return None


def cost(capture_):
    """(FLOPs counted by PyTorch's flop counter, elements of every tensor the graph makes)."""
    model, module = capture_.model, capture_.module
    with torch.device("meta"):
        inputs = module.get_inputs()
    counter = FlopCounterMode(display=False)
    try:
        with counter:
            model(*inputs)
        flops = counter.get_total_flops()
    except Exception:
        flops = math.inf
    elements = 0
    for fx in capture_.program.graph.nodes:
        shape = shape_of(fx)
        if shape is not None and fx.op != "output":
            elements += math.prod(shape)
    return flops, elements


def _knob_items(knobs):
    """[(key, default)] with key = name for ints, (name, index) for entries of tuple/list globals."""
    items = []
    for name, value in knobs.items():
        if isinstance(value, tuple):
            items += [((name, i), v) for i, v in enumerate(value)]
        else:
            items.append((name, value))
    return items


def _overrides(knobs, values):
    """Overrides for ProblemSource.load from per-key values."""
    result = {}
    for key, value in values.items():
        if isinstance(key, tuple):
            name, index = key
            current = list(result.get(name, knobs[name]))
            current[index] = value
            result[name] = tuple(current)
        else:
            result[key] = value
    return result


def derive_small(source, default_capture, log=lambda message: None):
    """(small Capture, {knob key: value}, relative attrs) or raises ValueError saying why none exists."""
    items = _knob_items(source.knobs)
    order = sorted(items, key=lambda item: -item[1])
    default_shapes = default_capture.io_shapes()

    def attempt(trial):
        try:
            candidate = Capture(source, _overrides(source.knobs, trial))
        except Exception as error:  # noqa: BLE001 - a size PyTorch or the mapping rejects
            return None, str(error)
        verdict = same_graph(default_capture.graph, candidate.graph)
        if isinstance(verdict, str):
            return None, verdict
        if why := ranges_follow_dims(default_capture, candidate):
            return None, why
        degenerate = single_element_statistics(candidate.graph)
        if degenerate:
            return None, degenerate
        shrunk = candidate.io_shapes()
        for name, shape in default_shapes.items():
            if any(d > 1 and s == 1 for d, s in zip(shape, shrunk[name])):
                return None, f"{name} loses an axis to size 1 ({shape} -> {shrunk[name]})"
        return (candidate, verdict), None

    last = None
    for candidates, floor in TIERS:
        values, best, used = {}, None, set()
        for key, default in order:
            if default <= floor:
                continue
            options = [c for c in candidates if c < default and c not in used] + [c for c in candidates if c < default and c in used]
            for option in options:
                trial = dict(values)
                trial[key] = option
                result, _ = attempt(trial)
                if result is None:
                    continue
                if result[0].io_shapes() == (best[0].io_shapes() if best else default_shapes):
                    break  # this global changes no shape kbv sees: leave it alone
                values, best = trial, result
                used.add(option)
                break
        # globals that only work together (equal defaults, e.g. a broadcast): shrink as a group
        groups = {}
        for key, default in items:
            if key not in values and default > floor:
                groups.setdefault(default, []).append(key)
        for default, keys in groups.items():
            if len(keys) < 2:
                continue
            for option in (c for c in candidates if c < default):
                trial = dict(values)
                trial.update({k: option for k in keys})
                result, _ = attempt(trial)
                if result is not None:
                    if result[0].io_shapes() != (best[0].io_shapes() if best else default_shapes):
                        values, best = trial, result
                    break
        if best is None:
            continue
        flops, elements = cost(best[0])
        log(f"small, tier {candidates[:3]}...: {values} -> {flops:.3g} FLOPs, {elements} elements")
        last = (values, flops, elements)
        if flops <= SMALL_FLOP_BUDGET and elements <= SMALL_ELEMENT_BUDGET:
            return best[0], values, best[1]
    if last is None:
        raise NoSmallSet("no size global could shrink without changing the graph")
    values, flops, elements = last
    raise NoSmallSet(f"no small sizes within budget: the smallest graph-preserving sizes {values} still need "
                     f"{flops:.3g} FLOPs and {elements} elements (budget {SMALL_FLOP_BUDGET:.0e} FLOPs, {SMALL_ELEMENT_BUDGET} elements)")


def _key_name(key):
    return key if isinstance(key, str) else f"{key[0]}_{key[1]}"


def name_symbols(default_shapes, small_shapes, source, small_values):
    """{tensor: [dim spec]} with each dim an int literal or a symbol, and {set: {symbol: size}}.

    A dim whose (default, small) sizes are those of exactly one size global is named after it;
    any other varying dim gets `<tensor>_d<axis>`; a dim equal in both sets is a literal."""
    knob_pairs = {}
    for key, default in _knob_items(source.knobs):
        name = key if isinstance(key, str) else f"{key[0]}_{key[1]}"
        if is_literal_knob(name):
            name = None  # a literal has no name worth showing: the dim gets <tensor>_d<axis>
        knob_pairs.setdefault((default, small_values.get(key, default)), []).append(name)
    symbol_of_pair, sets = {}, {"default": {}, "small": {}}
    specs = {}
    for tensor, default in default_shapes.items():
        small = small_shapes[tensor]
        dims = []
        for axis, (d, s) in enumerate(zip(default, small)):
            pair = (d, s)
            if pair in symbol_of_pair:
                dims.append(symbol_of_pair[pair])
                continue
            names = [n for n in knob_pairs.get(pair, []) if n is not None]
            anonymous = None in knob_pairs.get(pair, [])
            if len(names) == 1 and not anonymous and (d != s or d > 1):
                symbol = names[0]
            elif d == s:
                dims.append(str(d))
                continue
            else:
                symbol = names[0] if names else f"{tensor}_d{axis}"
            while symbol in sets["default"] and (sets["default"][symbol], sets["small"][symbol]) != pair:
                symbol += "_"
            symbol_of_pair[pair] = symbol
            sets["default"][symbol], sets["small"][symbol] = d, s
            dims.append(symbol)
        specs[tensor] = dims
    return specs, sets
