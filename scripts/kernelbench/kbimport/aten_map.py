"""kbimport/aten_map.py — an exported aten graph as a kbv graph: inputs, nodes, outputs.

Each live aten node (one that reaches a user output) maps to zero or more kbv nodes (table
`HANDLERS`); view-like no-ops (clone, contiguous, detach, an identity reshape, an expand that
only broadcasting elementwise ops read) map to none. An aten op with no handler, or a use of it
kbv cannot express (a constant tensor, an expand a consumer does not broadcast, an int64 input
not drawn by torch.randint), raises `Unmappable` naming the op. Inputs may be float32, int64
(with the range torch.randint drew them from) or bool. A few multi-op idioms are recognised as
one kbv op: cumsum over a flipped axis (reverse), KernelBench's exclusive cumsum, RMSNorm written
out, instance norm decomposed into a batch norm of x viewed as [1, N·C, *], and a transpose
feeding a matmul.
"""
import math
import operator
import re

import torch
from torch.export.graph_signature import InputKind, OutputKind

from . import kbv_ops

aten = torch.ops.aten

# BatchNorm in training mode updates these buffers; the output never reads them.
RUNNING_STAT_BUFFERS = ("running_mean", "running_var", "num_batches_tracked")
# DenseNet-201's last dense block concatenates 49 tensors; an RNN unrolled over 256 steps is not a cat kbv should take.
MAX_CAT_INPUTS = 64
COPIES = (aten.clone.default, aten.detach.default, aten.lift_fresh_copy.default, aten.alias.default)
RANDOM_OPS = {"aten.randn.default", "aten.rand.default", "aten.randint.default", "aten.randn_like.default",
              "aten.rand_like.default", "aten.bernoulli.p", "aten.bernoulli.default",
              "aten.normal.Tensor_float", "aten.multinomial.default"}


class Unmappable(Exception):
    """A node kbv cannot express: `op` is the aten op (or `input`), `detail` says why."""

    def __init__(self, op, detail):
        super().__init__(f"{op}: {detail}")
        self.op = op
        self.detail = detail
        self.nondeterministic = []


class KbvNode:
    def __init__(self, name, op, inputs, output, attrs, extensions=(), alt_attrs=None):
        self.name, self.op, self.inputs, self.output = name, op, list(inputs), output
        self.attrs = dict(attrs)
        self.extensions = set(extensions)
        # attribute -> value relative to a dim's size, used when the plain value differs between shape sets
        self.alt_attrs = dict(alt_attrs or {})


# The input dtypes kbv's schema has (docs/problem-spec.md, inputs[].dtype), by torch dtype.
KBV_DTYPES = {torch.float32: "float32", torch.int64: "int64", torch.bool: "bool"}


class InputDecl:
    def __init__(self, name, torch_name, role, fx_node, dtype="float32", value_range=None):
        self.name, self.torch_name, self.role, self.fx_node = name, torch_name, role, fx_node
        self.dtype = dtype              # float32 | int64 | bool
        self.value_range = value_range  # int64: (low, high) of the torch.randint that drew it


class KbvGraph:
    """The mapped problem: inputs in candidate order, nodes, outputs (name, fx node)."""

    def __init__(self):
        self.inputs = []
        self.nodes = []
        self.outputs = []
        self.tensor_fx = {}  # kbv tensor name -> fx node holding its shape
        self.nondeterministic = []  # reasons
        self.stateful = []

    def missing(self):
        """Planned ops and extensions this graph needs that kbv lacks today (sorted)."""
        needed = set()
        for node in self.nodes:
            if node.op not in kbv_ops.EXISTING:
                needed.add(node.op)
            needed |= node.extensions & set(kbv_ops.EXTENSIONS)  # one that left EXTENSIONS has landed
        return sorted(needed)


def _sanitize(name):
    name = re.sub(r"[^0-9A-Za-z_]+", "_", name).strip("_")
    return name or "t"


def shape_of(fx_node):
    value = fx_node.meta.get("val")
    if isinstance(value, torch.Tensor):
        return [int(d) for d in value.shape]
    return None


def dtype_of(fx_node):
    value = fx_node.meta.get("val")
    return value.dtype if isinstance(value, torch.Tensor) else None


class _Mapper:
    def __init__(self, program, forward_names, value_ranges=None, buffer_values=None):
        self.program = program
        # target -> the buffer's real value (the capture's model lives on the meta device); only
        # asked for where an idiom depends on a buffer's contents (a causal mask)
        self.buffer_values = buffer_values or (lambda target: None)
        self.value_ranges = dict(value_ranges or {})  # forward() argument -> (low, high) of its torch.randint
        self.graph = KbvGraph()
        self.env = {}  # fx node -> kbv tensor name, or a Python scalar, or a list
        self.counter = 0
        self.node_names = set()
        signature = program.graph_signature
        self.input_kind = {}
        for spec in signature.input_specs:
            self.input_kind[spec.arg.name] = (spec.kind, spec.target)
        self.user_input_order = [spec.arg.name for spec in signature.input_specs if spec.kind == InputKind.USER_INPUT]
        # export lower-cases placeholder names (A -> a); candidates and the validator know forward's own names
        self.forward_name = dict(zip(self.user_input_order, forward_names)) if len(forward_names or ()) == len(self.user_input_order) else {}
        self.placeholder_inputs = {}

    # ---- helpers used by handlers ----
    def fresh_tensor(self):
        name = f"t{self.counter}"
        self.counter += 1
        return name

    def node_name(self, base):
        base = _sanitize(base)
        name, k = base, 1
        while name in self.node_names:
            name = f"{base}_{k}"
            k += 1
        self.node_names.add(name)
        return name

    def scalar_constant(self, arg):
        """The value of a rank-0 constant tensor input (`torch.tensor(c)` in the forward), else None."""
        while isinstance(arg, torch.fx.Node) and arg.op == "call_function" and arg.target in COPIES:
            arg = arg.args[0]
        if not (isinstance(arg, torch.fx.Node) and arg.op == "placeholder"):
            return None
        kind, target = self.input_kind[arg.name]
        if kind != InputKind.CONSTANT_TENSOR:
            return None
        value = self.program.constants.get(target)
        if isinstance(value, torch.Tensor) and value.dim() == 0 and value.device.type != "meta" and value.dtype.is_floating_point:
            return float(value)
        return None

    def tensor(self, arg, op):
        """The kbv tensor name of fx argument `arg` (registering a placeholder as an input)."""
        if not isinstance(arg, torch.fx.Node):
            raise Unmappable(op, f"expected a tensor argument, got {arg!r}")
        if arg.op == "placeholder":
            return self._input(arg, op)
        value = self.env.get(arg)
        if isinstance(value, str):
            return value
        raise Unmappable(op, f"argument {arg.name} is not a tensor kbv computes")

    def _input(self, fx_node, op):
        if fx_node in self.placeholder_inputs:
            return self.placeholder_inputs[fx_node].name
        kind, target = self.input_kind[fx_node.name]
        dtype = dtype_of(fx_node)
        if kind == InputKind.USER_INPUT:
            torch_name = self.forward_name.get(fx_node.name, fx_node.name)
            value_range = self.value_ranges.get(torch_name)
            if dtype == torch.int64 and value_range is None:
                raise Unmappable("input", f"int64 input '{torch_name}' is not drawn by torch.randint(low, high, size) in get_inputs(): "
                                          "its range of values is unknown")
            decl = InputDecl(_sanitize(torch_name), torch_name, "activation", fx_node, KBV_DTYPES[dtype],
                             value_range if dtype == torch.int64 else None)
            self.placeholder_inputs[fx_node] = decl
            self.graph.tensor_fx[decl.name] = fx_node
            return decl.name
        if kind == InputKind.PARAMETER:
            decl = InputDecl(_sanitize(target), target, "parameter", fx_node)
        elif kind == InputKind.BUFFER:
            if target.split(".")[-1] in RUNNING_STAT_BUFFERS:
                raise Unmappable(op, f"reads the running statistic buffer '{target}' (kbv models BatchNorm in training mode only)")
            raise Unmappable("buffer", f"the forward reads buffer '{target}', a tensor the model fixes at init: kbv cannot "
                                       "express constant tensors")
        else:
            raise Unmappable("constant", f"the forward reads {kind.name.lower()} '{target}': kbv cannot express constant tensors")
        if dtype != torch.float32:
            raise Unmappable("input", f"'{target}' is {dtype}: kbv's parameters are float32")
        self.placeholder_inputs[fx_node] = decl
        self.graph.tensor_fx[decl.name] = fx_node
        return decl.name

    def emit(self, fx_node, op, inputs, attrs=None, extensions=(), alt_attrs=None, name=None, shape_node=None):
        output = self.fresh_tensor()
        node = KbvNode(self.node_name(name or fx_node.name), op, inputs, output, attrs or {}, extensions, alt_attrs)
        self.graph.nodes.append(node)
        self.graph.tensor_fx[output] = shape_node if shape_node is not None else fx_node
        return output

    # ---- the walk ----
    def live_nodes(self):
        output_node = next(n for n in self.program.graph.nodes if n.op == "output")
        results = output_node.args[0]
        specs = self.program.graph_signature.output_specs
        user = []
        for spec, value in zip(specs, results):
            if spec.kind == OutputKind.USER_OUTPUT:
                user.append(value)
            elif spec.kind == OutputKind.BUFFER_MUTATION:
                if spec.target.split(".")[-1] not in RUNNING_STAT_BUFFERS:
                    self.graph.stateful.append(f"the forward updates buffer '{spec.target}', so a call depends on the calls before it")
            elif spec.kind in (OutputKind.USER_INPUT_MUTATION,):
                self.graph.stateful.append(f"the forward writes its input '{spec.target}'")
        live, stack = set(), [u for u in user if isinstance(u, torch.fx.Node)]
        while stack:
            node = stack.pop()
            if node in live:
                continue
            live.add(node)
            stack.extend(node.all_input_nodes)
        return user, live

    def run(self):
        for spec in self.program.graph_signature.input_specs:
            if spec.kind != InputKind.USER_INPUT:
                continue
            node = next(n for n in self.program.graph.nodes if n.op == "placeholder" and n.name == spec.arg.name)
            dtype = dtype_of(node)
            if dtype is not None and dtype not in KBV_DTYPES:
                raise Unmappable("input", f"input '{node.name}' is {dtype}: kbv's inputs are float32, int64 or bool")
        user_outputs, live = self.live_nodes()
        for node in self.program.graph.nodes:
            reason = f"{node.target} draws random numbers in the forward"
            if node.op == "call_function" and str(node.target) in RANDOM_OPS and node in live and reason not in self.graph.nondeterministic:
                self.graph.nondeterministic.append(reason)
        self.folded, self.patterns = set(), {}
        for node in self.program.graph.nodes:
            if node in live and node.op == "call_function":
                for recognise in PATTERNS:
                    recognise(self, node)
        for node in self.program.graph.nodes:
            if node not in live or node.op != "call_function" or node in self.folded:
                continue
            if node in self.patterns:
                emit, data = self.patterns[node]
                self.env[node] = emit(self, node, data)
                continue
            target = str(node.target) if node.target is not operator.getitem else "getitem"
            handler = HANDLERS.get(target)
            if handler is None:
                raise Unmappable(target, "no kbv op for it (not in the importer's table)")
            result = handler(self, node)
            if result is not None:
                self.env[node] = result
        for index, value in enumerate(user_outputs):
            if not isinstance(value, torch.fx.Node) or value.op == "placeholder" or not isinstance(self.env.get(value), str):
                raise Unmappable("output", f"output {index} is not a tensor the graph computes")
            self.graph.outputs.append((self.env[value], value))
        names = [name for name, _ in self.graph.outputs]
        if len(set(names)) != len(names):
            raise Unmappable("output", "the same tensor is returned twice")
        # Rename outputs y / y0, y1, ... and order inputs: activations (forward order), then parameters (first use).
        # An input may already be called y (KernelBench L2 #28's forward(x, y)): then the outputs take
        # the first base no input or intermediate tensor uses, since each tensor is written once.
        taken = {decl.name for decl in self.placeholder_inputs.values()} | {n.output for n in self.graph.nodes if n.output not in names}
        base = next(b for b in ("y", "out", "result", "kbv_out") if not taken & {b if len(names) == 1 else f"{b}{i}" for i in range(len(names))})
        renames = {name: (base if len(names) == 1 else f"{base}{i}") for i, name in enumerate(names)}
        for node in self.graph.nodes:
            node.inputs = [renames.get(n, n) for n in node.inputs]
            node.output = renames.get(node.output, node.output)
        for old, new in renames.items():
            self.graph.tensor_fx[new] = self.graph.tensor_fx.pop(old)
        self.graph.outputs = [(renames[name], fx) for name, fx in self.graph.outputs]
        decls = list(self.placeholder_inputs.values())
        order = {name: i for i, name in enumerate(self.user_input_order)}
        activations = sorted([d for d in decls if d.role == "activation"], key=lambda d: order[d.fx_node.name])
        parameters = [d for d in decls if d.role == "parameter"]  # in order of first use, as a candidate reads them
        self.graph.inputs = activations + parameters
        return self.graph


def map_program(program, forward_names=None, value_ranges=None, buffer_values=None):
    """The kbv graph of an ExportedProgram (raises Unmappable, whose `nondeterministic` lists
    what is random in the forward); `forward_names` are forward()'s parameter names, in order;
    `value_ranges` maps a forward() argument to the (low, high) of the torch.randint that drew it;
    `buffer_values(target)` gives a buffer's real value (None when unknown)."""
    mapper = _Mapper(program, forward_names, value_ranges, buffer_values)
    try:
        return mapper.run()
    except Unmappable as error:
        error.nondeterministic = list(mapper.graph.nondeterministic)
        raise


# ---------------------------------------------------------------- handlers

def _arg(node, index, name, default=None):
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


def _is_scalar(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _rank(fx_node):
    return len(shape_of(fx_node))


def _unary(op, attrs_of=None):
    def handle(m, node):
        attrs = attrs_of(node) if attrs_of else {}
        return m.emit(node, op, [m.tensor(node.args[0], str(node.target))], attrs)
    return handle


def _elide(m, node):
    source = node.args[0]
    if isinstance(source, torch.fx.Node) and source.op == "placeholder":
        return m.tensor(source, str(node.target))
    return m.env[source]


def _leaky(node):
    return {"negative_slope": float(_arg(node, 1, "negative_slope", 0.01))}


def _gelu(m, node):
    approximate = _arg(node, 1, "approximate", "none")
    x = m.tensor(node.args[0], "aten.gelu")
    if approximate == "none":
        return m.emit(node, "gelu", [x])
    return m.emit(node, "gelu", [x], {"approximate": 1}, extensions={"gelu:approximate"})


def _elu(m, node):
    alpha, scale, input_scale = (float(_arg(node, i, n, 1.0)) for i, n in ((1, "alpha"), (2, "scale"), (3, "input_scale")))
    if scale != 1.0 or input_scale != 1.0:
        raise Unmappable("aten.elu", "scale/input_scale other than 1")
    return m.emit(node, "elu", [m.tensor(node.args[0], "aten.elu")], {"alpha": alpha})


def _softplus(node):
    return {"beta": float(_arg(node, 1, "beta", 1.0)), "threshold": float(_arg(node, 2, "threshold", 20.0))}


def _clamp_like(op_name, lo_index, hi_index, lo_default=None, hi_default=None):
    def handle(m, node):
        lo = _arg(node, lo_index, "min", lo_default) if lo_index is not None else lo_default
        hi = _arg(node, hi_index, "max", hi_default) if hi_index is not None else hi_default
        for value in (lo, hi):
            if value is not None and not _is_scalar(value):
                raise Unmappable(op_name, "a tensor bound")
        attrs = {}
        if lo is not None:
            attrs["min"] = float(lo)
        if hi is not None:
            attrs["max"] = float(hi)
        if set(attrs) == {"min"} and attrs["min"] == 0.0:
            return m.emit(node, "relu", [m.tensor(node.args[0], op_name)])
        return m.emit(node, "clamp", [m.tensor(node.args[0], op_name)], attrs)
    return handle


def _binary(m, node, tensor_op, scalar_emit, scalar_first=None):
    op_name = str(node.target)
    a, b = node.args[0], node.args[1]
    a = a if m.scalar_constant(a) is None else m.scalar_constant(a)
    b = b if m.scalar_constant(b) is None else m.scalar_constant(b)
    alpha = node.kwargs.get("alpha", 1)
    if _is_scalar(a) and isinstance(b, torch.fx.Node) and scalar_first is not None:
        return scalar_first(m, node, m.tensor(b, op_name), float(a), float(alpha))
    if isinstance(a, torch.fx.Node) and isinstance(b, torch.fx.Node):
        if alpha != 1:
            raise Unmappable(op_name, f"alpha={alpha}")
        for operand in (a, b):
            if dtype_of(operand) not in (torch.float32, None) and operand.op != "placeholder":
                raise Unmappable(op_name, f"operand {operand.name} is {dtype_of(operand)}")
        return m.emit(node, tensor_op, [m.tensor(a, op_name), m.tensor(b, op_name)])
    if isinstance(a, torch.fx.Node) and _is_scalar(b):
        return scalar_emit(m, node, m.tensor(a, op_name), float(b) * float(alpha))
    raise Unmappable(op_name, "operands other than tensor (op) tensor or tensor (op) number")


def _add(m, node):
    def scalar_first(m, n, x, c, alpha):  # c + alpha * x
        if alpha != 1:
            raise Unmappable(str(n.target), f"alpha={alpha}")
        return m.emit(n, "add_scalar", [x], {"value": c})
    return _binary(m, node, "add", lambda m, n, x, c: m.emit(n, "add_scalar", [x], {"value": c}), scalar_first)


def _sub(m, node):
    def rsub(m, n, x, c, alpha):
        if alpha != 1:
            raise Unmappable(str(n.target), f"alpha={alpha}")
        return m.emit(n, "rsub_scalar", [x], {"value": c})
    return _binary(m, node, "sub", lambda m, n, x, c: m.emit(n, "add_scalar", [x], {"value": -c}), rsub)


def _mul(m, node):
    return _binary(m, node, "mul", lambda m, n, x, c: m.emit(n, "scale", [x], {"value": c}),
                   lambda m, n, x, c, alpha: m.emit(n, "scale", [x], {"value": c}))


def _div(m, node):
    return _binary(m, node, "div", lambda m, n, x, c: m.emit(n, "scale", [x], {"value": 1.0 / c}))


def _rsub(m, node):
    x, value = node.args[0], _arg(node, 1, "other")
    if not _is_scalar(value):
        raise Unmappable("aten.rsub.Scalar", "a tensor operand")
    return m.emit(node, "rsub_scalar", [m.tensor(x, "aten.rsub")], {"value": float(value)})


def _pow(m, node):
    exponent = node.args[1]
    if not _is_scalar(exponent):
        raise Unmappable("aten.pow", "a tensor exponent")
    return m.emit(node, "pow", [m.tensor(node.args[0], "aten.pow")], {"exponent": float(exponent)})


def _minmax_elementwise(op):
    def handle(m, node):
        a, b = node.args[0], node.args[1]
        for x, c in ((a, m.scalar_constant(b)), (b, m.scalar_constant(a))):
            if c is not None:  # torch.min(x, torch.tensor(c)) is a clamp from above
                bound = {"max": c} if op == "minimum" else {"min": c}
                return m.emit(node, "clamp", [m.tensor(x, str(node.target))], bound)
        if not isinstance(b, torch.fx.Node):
            raise Unmappable(str(node.target), "a number operand")
        return m.emit(node, op, [m.tensor(a, str(node.target)), m.tensor(b, str(node.target))])
    return handle


def _reduce_attrs(op_name, dims, rank, keepdim):
    """kbv's {axis, count, keepdim} for a reduction over `dims` (None or [] = every axis):
    `count` adjacent axes from `axis`, keeping PyTorch's sign convention for the axis."""
    if rank == 0:
        raise Unmappable(op_name, "a reduction of a rank-0 tensor")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        dims = list(range(rank))
    if isinstance(dims, int):
        dims = [dims]
    axes = sorted(d % rank for d in dims)
    if axes != list(range(axes[0], axes[-1] + 1)):
        raise Unmappable(op_name, f"a reduction over non-adjacent axes {axes}")
    axis = axes[0] - rank if all(d < 0 for d in dims) else axes[0]
    attrs = {"axis": axis, "keepdim": int(bool(keepdim))}
    if len(axes) > 1:
        attrs["count"] = len(axes)
    return attrs, set()


def _reduction(op, dims_index=1, keep_index=2, full=False):
    def handle(m, node):
        op_name = str(node.target)
        x = node.args[0]
        if node.kwargs.get("dtype") is not None:
            raise Unmappable(op_name, "a dtype argument")
        dims = None if full else _arg(node, dims_index, "dim")
        keepdim = False if full else _arg(node, keep_index, "keepdim", False)
        attrs, extensions = _reduce_attrs(op_name, dims, _rank(x), keepdim)
        return m.emit(node, op, [m.tensor(x, op_name)], attrs, extensions)
    return handle


def _max_min_dim(op_values, op_indices):
    def handle(m, node):
        return ("dim_reduction", node, op_values, op_indices)
    return handle


def _arg_reduction(op):
    def handle(m, node):
        dim = _arg(node, 1, "dim")
        if dim is None:
            raise Unmappable(str(node.target), "an argmax/argmin over every axis (dim=None)")
        return m.emit(node, op, [m.tensor(node.args[0], str(node.target))],
                      {"axis": dim, "keepdim": int(bool(_arg(node, 2, "keepdim", False)))})
    return handle


def _getitem(m, node):
    source, index = node.args
    value = m.env.get(source)
    if isinstance(value, tuple) and value and value[0] == "dim_reduction":
        _, reduction, op_values, op_indices = value
        op = op_values if index == 0 else op_indices
        dim = _arg(reduction, 1, "dim")
        attrs = {"axis": dim, "keepdim": int(bool(_arg(reduction, 2, "keepdim", False)))}
        return m.emit(node, op, [m.tensor(reduction.args[0], str(reduction.target))], attrs, name=reduction.name)
    if isinstance(value, tuple) and value and value[0] == "batchnorm":
        if index != 0:
            raise Unmappable("aten._native_batch_norm_legit_functional", "uses the batch statistics it returns")
        return value[1]
    if isinstance(value, list):
        item = value[index]
        if isinstance(item, str):
            return item
        if callable(item):
            return item(node)
    raise Unmappable("getitem", f"item {index} of {source.target}")


def _softmax(op):
    def handle(m, node):
        return m.emit(node, op, [m.tensor(node.args[0], str(node.target))], {"axis": node.args[1]})
    return handle


def _logsumexp(m, node):
    attrs, extensions = _reduce_attrs("aten.logsumexp", node.args[1], _rank(node.args[0]), _arg(node, 2, "keepdim", False))
    return m.emit(node, "logsumexp", [m.tensor(node.args[0], "aten.logsumexp")], attrs)


def _norm(m, node):
    x = node.args[0]
    ord_ = _arg(node, 1, "ord", 2)
    if not _is_scalar(ord_) or math.isinf(ord_):
        raise Unmappable("aten.linalg_vector_norm", f"ord={ord_}")
    if node.kwargs.get("dtype") is not None:
        raise Unmappable("aten.linalg_vector_norm", "a dtype argument")
    attrs, _ = _reduce_attrs("aten.linalg_vector_norm", _arg(node, 2, "dim"), _rank(x), _arg(node, 3, "keepdim", False))
    attrs["p"] = float(ord_)
    return m.emit(node, "norm", [m.tensor(x, "aten.linalg_vector_norm")], attrs)


def _triangle(op):
    def handle(m, node):
        return m.emit(node, op, [m.tensor(node.args[0], str(node.target))], {"diagonal": int(_arg(node, 1, "diagonal", 0))})
    return handle


def _einsum(m, node):
    equation, operands = node.args[0], node.args[1]
    match = re.fullmatch(r"\s*([a-z]*)([a-z])([a-z])\s*,\s*([a-z])([a-z])\s*->\s*([a-z]*)([a-z])([a-z])\s*", equation)
    if (match and len(operands) == 2 and match.group(3) == match.group(4) and match.group(1) == match.group(6)
            and match.group(2) == match.group(7) and match.group(5) == match.group(8)):
        a, b = (m.tensor(o, "aten.einsum") for o in operands)
        return m.emit(node, "matmul", [a, b])  # leading letters of a only: b broadcasts
    raise Unmappable("aten.einsum", f"equation '{equation}' is not a (batched) matrix product")


def _linear(m, node):
    inputs = [m.tensor(node.args[0], "aten.linear"), m.tensor(node.args[1], "aten.linear")]
    bias = _arg(node, 2, "bias")
    if bias is not None:
        inputs.append(m.tensor(bias, "aten.linear"))
    return m.emit(node, "linear", inputs)


def _spatial(values, n):
    if isinstance(values, int):
        return [values] * n
    values = list(values)
    return values * n if len(values) == 1 else values


def _spatial_attrs(op, names_values, n, square_only_existing):
    """Scalar attributes when every spatial axis agrees, else per-axis ones (`<name>_d/_h/_w`)."""
    axes = {1: [""], 2: ["_h", "_w"], 3: ["_d", "_h", "_w"]}[n]
    attrs, extensions = {}, set()
    for name, values in names_values:
        values = _spatial(values, n)
        if len(set(values)) == 1:
            attrs[name] = values[0]
        else:
            attrs[name] = values[0]
            for suffix, value in zip(axes, values):
                attrs[name + suffix] = value
            extensions.add(f"{op}:per_axis" if square_only_existing else f"{op}:per_axis")
    return attrs, extensions


def _conv(n, transposed=False):
    op = f"conv_transpose{n}d" if transposed else f"conv{n}d"

    def handle(m, node):
        op_name = str(node.target)
        x, weight = node.args[0], node.args[1]
        bias = _arg(node, 2, "bias")
        if transposed:
            stride, padding, output_padding, groups, dilation = (_arg(node, 3, "stride", 1), _arg(node, 4, "padding", 0),
                                                                 _arg(node, 5, "output_padding", 0), _arg(node, 6, "groups", 1),
                                                                 _arg(node, 7, "dilation", 1))
            pairs = [("stride", stride), ("padding", padding), ("output_padding", output_padding), ("dilation", dilation)]
        else:
            stride, padding, dilation, groups = (_arg(node, 3, "stride", 1), _arg(node, 4, "padding", 0),
                                                 _arg(node, 5, "dilation", 1), _arg(node, 6, "groups", 1))
            if isinstance(padding, str):
                raise Unmappable(op_name, f"padding='{padding}'")
            pairs = [("stride", stride), ("padding", padding), ("dilation", dilation)]
        attrs, extensions = _spatial_attrs(op, pairs, n, op in kbv_ops.EXISTING)
        # every convolution takes per-axis attributes (OPS.md); an extension is needed only while it is listed
        extensions &= set(kbv_ops.EXTENSIONS)
        attrs["groups"] = groups
        inputs = [m.tensor(x, op_name), m.tensor(weight, op_name)]
        if bias is not None:
            inputs.append(m.tensor(bias, op_name))
        return m.emit(node, op, inputs, attrs, extensions)
    return handle


def _batch_norm(m, node):
    # aten.batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps, cudnn),
    # native_batch_norm, _native_batch_norm_legit and its functional form (x, weight, bias,
    # running_mean, running_var, training, momentum, eps), _native_batch_norm_legit.no_stats (x,
    # weight, bias, training, momentum, eps).
    training_index, eps_index = (3, 5) if node.target == aten._native_batch_norm_legit.no_stats else (5, 7)
    if not node.args[training_index]:
        raise Unmappable(str(node.target), "BatchNorm in eval mode (running statistics)")
    inputs = [m.tensor(node.args[0], str(node.target))]
    weight, bias = node.args[1], node.args[2]
    if (weight is None) != (bias is None):
        raise Unmappable(str(node.target), "a weight without a bias")
    if weight is not None:
        inputs += [m.tensor(weight, str(node.target)), m.tensor(bias, str(node.target))]
    out = m.emit(node, "batchnorm", inputs, {"eps": float(node.args[eps_index])})
    if node.target == aten.batch_norm.default:
        return out
    m.graph.tensor_fx[out] = _first_getitem(node)
    return ("batchnorm", out)


def _batch_norm_eval(m, node):
    raise Unmappable(str(node.target), "BatchNorm in eval mode (running statistics)")


def _first_getitem(node):
    for user in node.users:
        if user.target is operator.getitem and user.args[1] == 0:
            return user
    return node


def _group_norm(m, node):
    inputs = [m.tensor(node.args[0], "aten.group_norm")]
    weight, bias = _arg(node, 2, "weight"), _arg(node, 3, "bias")
    if (weight is None) != (bias is None):
        raise Unmappable("aten.group_norm", "a weight without a bias")
    if weight is not None:
        inputs += [m.tensor(weight, "aten.group_norm"), m.tensor(bias, "aten.group_norm")]
    return m.emit(node, "groupnorm", inputs, {"groups": int(node.args[1]), "eps": float(_arg(node, 4, "eps", 1e-5))})


def _native_group_norm(m, node):
    # (x, weight, bias, N, C, HxW, groups, eps) -> (out, mean, rstd)
    inputs = [m.tensor(node.args[0], "aten.native_group_norm")]
    weight, bias = node.args[1], node.args[2]
    if (weight is None) != (bias is None):
        raise Unmappable("aten.native_group_norm", "a weight without a bias")
    if weight is not None:
        inputs += [m.tensor(weight, "aten.native_group_norm"), m.tensor(bias, "aten.native_group_norm")]
    out = m.emit(node, "groupnorm", inputs, {"groups": int(node.args[6]), "eps": float(node.args[7])},
                 shape_node=_first_getitem(node))
    return [out] + [_uses_statistics("aten.native_group_norm")] * 2


def _uses_statistics(op_name):
    def refuse(getitem):
        raise Unmappable(op_name, "uses the statistics it returns")
    return refuse


def _instance_norm(m, node):
    # (x, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn)
    if not node.args[5]:
        raise Unmappable("aten.instance_norm", "running statistics (use_input_stats=False)")
    inputs = [m.tensor(node.args[0], "aten.instance_norm")]
    weight, bias = node.args[1], node.args[2]
    if (weight is None) != (bias is None):
        raise Unmappable("aten.instance_norm", "a weight without a bias")
    if weight is not None:
        inputs += [m.tensor(weight, "aten.instance_norm"), m.tensor(bias, "aten.instance_norm")]
    return m.emit(node, "instancenorm", inputs, {"eps": float(node.args[7])})


def _layer_norm(m, node):
    x, shape = node.args[0], node.args[1]
    inputs = [m.tensor(x, "aten.layer_norm")]
    weight, bias = _arg(node, 2, "weight"), _arg(node, 3, "bias")
    if weight is not None:
        inputs.append(m.tensor(weight, "aten.layer_norm"))
    if bias is not None:
        if weight is None:
            raise Unmappable("aten.layer_norm", "a bias without a weight")
        inputs.append(m.tensor(bias, "aten.layer_norm"))
    return m.emit(node, "layernorm", inputs, {"normalized_rank": len(shape), "eps": float(_arg(node, 4, "eps", 1e-5))})


def _max_pool(n):
    op = f"maxpool{n}d"

    def handle(m, node, shape_node=None):
        op_name = str(node.target)
        kernel = _arg(node, 1, "kernel_size")
        stride = _arg(node, 2, "stride", []) or kernel
        padding, dilation, ceil_mode = _arg(node, 3, "padding", 0), _arg(node, 4, "dilation", 1), _arg(node, 5, "ceil_mode", False)
        attrs, _ = _spatial_attrs(op, [("kernel", kernel), ("stride", stride), ("padding", padding), ("dilation", dilation)], n, False)
        if ceil_mode:
            attrs["ceil_mode"] = 1
        return m.emit(node, op, [m.tensor(node.args[0], op_name)], attrs, shape_node=shape_node)
    return handle


def _max_pool_with_indices(n):
    """max_pool{n}d_with_indices (return_indices=True, or a decomposed max_pool): the values are
    kbv's max pool; a use of the indices is refused."""
    values = _max_pool(n)

    def handle(m, node):
        def indices(getitem):
            raise Unmappable(str(node.target), "uses the indices of the maxima (kbv's max pools give the values)")
        return [values(m, node, shape_node=_first_getitem(node)), indices]
    return handle


def _avg_pool(n):
    op = f"avgpool{n}d"

    def handle(m, node):
        op_name = str(node.target)
        kernel = _arg(node, 1, "kernel_size")
        stride = _arg(node, 2, "stride", []) or kernel
        padding, ceil_mode = _arg(node, 3, "padding", 0), _arg(node, 4, "ceil_mode", False)
        count_include_pad, divisor = _arg(node, 5, "count_include_pad", True), _arg(node, 6, "divisor_override")
        if divisor is not None:
            raise Unmappable(op_name, "divisor_override")
        attrs, _ = _spatial_attrs(op, [("kernel", kernel), ("stride", stride), ("padding", padding)], n, False)
        attrs["ceil_mode"] = int(bool(ceil_mode))
        attrs["count_include_pad"] = int(bool(count_include_pad))
        return m.emit(node, op, [m.tensor(node.args[0], op_name)], attrs)
    return handle


def _adaptive_avg_pool(n):
    op = f"adaptive_avgpool{n}d"

    def handle(m, node):
        size = _spatial(node.args[1], n)
        if len(set(size)) != 1:
            raise Unmappable(str(node.target), f"a non-square output size {size}")
        return m.emit(node, op, [m.tensor(node.args[0], str(node.target))], {"output_size": size[0]})
    return handle


def _native_dropout(m, node):
    p, train = float(node.args[1]), node.args[2]
    if p == 0.0 or train is False:
        return [_elide(m, node)]
    m.graph.nondeterministic.append(f"live dropout (p={p:g}, training mode) zeroes a random share of its input")
    return [m.emit(node, "dropout", [m.tensor(node.args[0], "aten.native_dropout")], {"p": p}, shape_node=_first_getitem(node))]


def _dropout(m, node):
    p, train = float(node.args[1]), bool(node.args[2])
    if p == 0.0 or not train:
        return _elide(m, node)
    m.graph.nondeterministic.append(f"live dropout (p={p:g}, training mode) zeroes a random share of its input")
    return m.emit(node, "dropout", [m.tensor(node.args[0], "aten.dropout")], {"p": p})


def _flatten(m, node):
    x = node.args[0]
    start, end = _arg(node, 1, "start_dim", 0), _arg(node, 2, "end_dim", -1)
    rank = _rank(x)
    if rank == 0 or start % rank == end % rank:
        return _elide(m, node)
    return m.emit(node, "flatten", [m.tensor(x, "aten.flatten")], {"start_axis": start, "end_axis": end})


def _reshape_steps(before, after):
    """kbv layout ops taking shape `before` to `after` (same element count): [(op, attrs)].

    The axes are aligned into groups of equal product (a 1 joins its neighbour's group); a group
    of several axes becoming one is a flatten, one axis becoming several an unflatten chain,
    several becoming several both. When the change only adds or drops size-1 axes and that takes
    fewer ops, unsqueeze/squeeze steps are used instead."""
    if before == after:
        return []
    groups, i, j = [], 0, 0
    while i < len(before) and j < len(after):
        group_before, group_after = [i], [j]
        product_before, product_after = before[i], after[j]
        i, j = i + 1, j + 1
        while product_before != product_after:
            if product_before < product_after:
                product_before *= before[i]
                group_before.append(i)
                i += 1
            else:
                product_after *= after[j]
                group_after.append(j)
                j += 1
        groups.append((group_before, group_after))
    if not groups:  # a rank-0 side: only size-1 axes come or go
        return _shortest_unit_steps(before, after)
    groups[-1][0].extend(range(i, len(before)))  # trailing 1s join the last group
    groups[-1][1].extend(range(j, len(after)))
    steps = []
    for group_before, group_after in reversed(groups):  # right to left: earlier axes keep their index
        start = group_before[0]
        if len(group_before) > 1:
            steps.append(("flatten", {"start_axis": start, "end_axis": group_before[-1]}))
        sizes = [after[k] for k in group_after]
        # size > 0 is the leading factor; -size the trailing one, for when only that is fixed (Swin's 7x7 windows)
        steps += [("unflatten", {"axis": start + k, "size": sizes[k]}, {"size": -math.prod(sizes[k + 1:])})
                  for k in range(len(sizes) - 1)]
    units = _shortest_unit_steps(before, after)
    if units is not None and len(units) <= len(steps):
        return units
    return steps


def _shortest_unit_steps(before, after):
    """Only unsqueezes (or only squeezes) when `after` is `before` with size-1 axes added (removed)."""
    for small, large, op in ((before, after, "unsqueeze"), (after, before, "squeeze")):
        if len(large) <= len(small):
            continue
        steps, i = [], 0
        for axis, size in enumerate(large):
            if i < len(small) and size == small[i]:
                i += 1
            elif size == 1:
                steps.append(axis)
            else:
                break
        else:
            if i == len(small):
                if op == "unsqueeze":
                    return [(op, {"axis": axis}) for axis in steps]
                return [(op, {"axis": axis}) for axis in reversed(steps)]
    return None


def _reshape(m, node):
    """view/reshape as kbv layout ops (see _reshape_steps)."""
    op_name = str(node.target)
    x = node.args[0]
    before, after = shape_of(x), shape_of(node)
    steps = _reshape_steps(before, after)
    if steps is None:
        raise Unmappable(op_name, f"a reshape of {before} to {after} that no flatten, unflatten, squeeze or unsqueeze gives")
    tensor = m.tensor(x, op_name)
    for index, (op, attrs, *alt) in enumerate(steps):
        # only a problem's inputs and outputs need shapes; an intermediate step points at the node too
        tensor = m.emit(node, op, [tensor], attrs, alt_attrs=alt[0] if alt else None,
                        name=node.name if len(steps) == 1 else f"{node.name}_{index}")
    return tensor


def _unsqueeze(m, node):
    return m.emit(node, "unsqueeze", [m.tensor(node.args[0], "aten.unsqueeze")], {"axis": node.args[1]})


def _squeeze(m, node):
    x = node.args[0]
    dims = node.args[1] if len(node.args) > 1 else [i for i, d in enumerate(shape_of(x)) if d == 1]
    dims = [dims] if isinstance(dims, int) else list(dims)
    rank = _rank(x)
    dims = sorted({d % rank for d in dims if shape_of(x)[d] == 1}, reverse=True)  # highest first: the others keep their index
    if not dims:
        return _elide(m, node)
    tensor = m.tensor(x, str(node.target))
    for k, axis in enumerate(dims):
        tensor = m.emit(node, "squeeze", [tensor], {"axis": axis}, name=node.name if len(dims) == 1 else f"{node.name}_{k}")
    return tensor


def _transpose(m, node):
    x, a, b = node.args[0], node.args[1], node.args[2]
    return m.emit(node, "transpose", [m.tensor(x, "aten.transpose")], {"axis0": a, "axis1": b})


def _t(m, node):
    x = node.args[0]
    if _rank(x) < 2:
        return _elide(m, node)
    return m.emit(node, "transpose", [m.tensor(x, str(node.target))], {"axis0": 0, "axis1": 1})


def _permute(m, node):
    x = node.args[0]
    rank = _rank(x)
    perm = [p % rank for p in node.args[1]]
    current, tensor, k = list(range(rank)), m.tensor(x, "aten.permute"), 0
    for position in range(rank):
        if current[position] != perm[position]:
            other = current.index(perm[position])
            current[position], current[other] = current[other], current[position]
            tensor = m.emit(node, "transpose", [tensor], {"axis0": position, "axis1": other}, name=f"{node.name}_{k}")
            k += 1
    return tensor


def _select(m, node):
    x, dim, index = node.args
    return m.emit(node, "select", [m.tensor(x, "aten.select")], {"axis": dim, "index": index},
                  alt_attrs={"index": index - shape_of(x)[dim]} if index >= 0 else None)


def _slice(m, node):
    x = node.args[0]
    dim = _arg(node, 1, "dim", 0)
    start, end, step = _arg(node, 2, "start", None), _arg(node, 3, "end", None), _arg(node, 4, "step", 1)
    size = shape_of(x)[dim]
    start = 0 if start is None else start
    if end is None or end >= size:
        end = None
    if start == 0 and end is None and step == 1:
        return _elide(m, node)
    attrs, alt = {"axis": dim, "start": start, "step": step}, {}
    if end is not None:
        attrs["end"] = end
        if end > 0:
            alt["end"] = end - size
    if start > 0:
        alt["start"] = start - size
    return m.emit(node, "slice", [m.tensor(x, "aten.slice")], attrs, alt_attrs=alt)


def _narrow(m, node):
    x, dim, start, length = node.args
    size = shape_of(x)[dim]
    attrs = {"axis": dim, "start": start, "step": 1}
    alt = {}
    if start + length < size:
        attrs["end"] = start + length
        alt["end"] = start + length - size
    return m.emit(node, "slice", [m.tensor(x, "aten.narrow")], attrs, alt_attrs=alt)


def _sdpa_attrs(m, node, mask, dropout_p, is_causal):
    """kbv's sdpa attributes for an attention node, or Unmappable for what kbv's sdpa lacks."""
    op_name = str(node.target)
    scale = node.kwargs.get("scale")
    if mask is not None:
        raise Unmappable(op_name, "an attention mask tensor")
    if node.kwargs.get("enable_gqa", False):
        raise Unmappable(op_name, "grouped-query attention (enable_gqa=True: k and v have fewer heads than q)")
    if dropout_p:
        m.graph.nondeterministic.append(f"attention dropout p={dropout_p}")
        raise Unmappable(op_name, f"dropout_p={dropout_p}")
    if scale == 0.0:
        raise Unmappable(op_name, "scale=0.0 (kbv's sdpa reads scale 0 as the default 1/sqrt(E))")
    return {"is_causal": int(bool(is_causal)), "scale": float(scale) if scale is not None else 0.0}


def _sdpa(m, node):
    # (q, k, v, attn_mask=None, dropout_p=0, is_causal=False, *, scale=None, enable_gqa=False)
    attrs = _sdpa_attrs(m, node, _arg(node, 3, "attn_mask"), _arg(node, 4, "dropout_p", 0.0), _arg(node, 5, "is_causal", False))
    return m.emit(node, "sdpa", [m.tensor(t, str(node.target)) for t in node.args[:3]], attrs)


def _sdpa_flash_for_cpu(m, node):
    """aten._scaled_dot_product_flash_attention_for_cpu (q, k, v, dropout_p=0, is_causal=False, *, attn_mask=None,
    scale=None) -> (output, logsumexp), what SDPA becomes when exported for CPU tensors: item 0 is kbv's sdpa."""
    attrs = _sdpa_attrs(m, node, node.kwargs.get("attn_mask"), _arg(node, 3, "dropout_p", 0.0), _arg(node, 4, "is_causal", False))
    inputs = [m.tensor(t, str(node.target)) for t in node.args[:3]]
    return [lambda getitem_node: m.emit(getitem_node, "sdpa", inputs, attrs, name=node.name), None]  # no logsumexp


def _smooth_l1(m, node, huber=False):
    op_name = str(node.target)
    reduction = _arg(node, 2, "reduction", 1)
    if reduction != 1:
        raise Unmappable(op_name, f"reduction {reduction} (kbv's losses take the mean)")
    beta = float(_arg(node, 3, "delta" if huber else "beta", 1.0))
    if huber and beta != 1.0:
        raise Unmappable(op_name, f"delta={beta} (huber with delta 1 is smooth_l1 with beta 1)")
    return m.emit(node, "smooth_l1_loss", [m.tensor(node.args[0], op_name), m.tensor(node.args[1], op_name)], {"beta": beta})


def _cross_entropy(m, node):
    """F.cross_entropy with PyTorch's defaults only: no class weights, the mean, label_smoothing 0 and
    ignore_index −100 (which no class index takes), on [N, C] logits and int64 class indices."""
    op_name = "aten.cross_entropy_loss"
    logits, targets = node.args[0], node.args[1]
    weight, reduction = _arg(node, 2, "weight"), _arg(node, 3, "reduction", 1)
    ignore_index, smoothing = _arg(node, 4, "ignore_index", -100), _arg(node, 5, "label_smoothing", 0.0)
    if weight is not None:
        raise Unmappable(op_name, "class weights (kbv's cross_entropy has none)")
    if reduction != 1:
        raise Unmappable(op_name, f"reduction {reduction} (kbv's cross_entropy takes the mean)")
    if ignore_index != -100:
        raise Unmappable(op_name, f"ignore_index={ignore_index} (kbv supports the default -100 only, which no class index takes)")
    if smoothing:
        raise Unmappable(op_name, f"label_smoothing={smoothing}")
    if dtype_of(targets) != torch.int64:
        raise Unmappable(op_name, f"targets of {dtype_of(targets)} (kbv's cross_entropy takes int64 class indices; float targets "
                                  "are class probabilities)")
    if len(shape_of(logits) or []) != 2:
        raise Unmappable(op_name, f"logits of shape {shape_of(logits)} (kbv's cross_entropy takes [N, C]; the K-dimensional form is "
                                  "not supported)")
    if targets.op != "placeholder":
        raise Unmappable(op_name, "targets computed in the forward (kbv's come from an int64 input)")
    target_name = m.tensor(targets, op_name)
    low, high = m.placeholder_inputs[targets].value_range
    classes = shape_of(logits)[1]
    if low < 0 or high > classes:
        raise Unmappable(op_name, f"targets drawn from [{low}, {high}), not class indices of the {classes} classes")
    return m.emit(node, "cross_entropy", [m.tensor(logits, op_name), target_name])


def _kl_div(m, node):
    raise Unmappable("aten.kl_div", f"reduction {_arg(node, 2, 'reduction', 1)} (kbv's kl_div is reduction='batchmean')")


def _triplet(m, node):
    # (anchor, positive, negative, margin, p, eps, swap, reduction)
    reduction = _arg(node, 7, "reduction", 1)
    if reduction != 1:
        raise Unmappable("aten.triplet_margin_loss", f"reduction {reduction}")
    attrs = {"margin": float(_arg(node, 3, "margin", 1.0)), "p": float(_arg(node, 4, "p", 2)), "eps": float(_arg(node, 5, "eps", 1e-6)),
             "swap": int(bool(_arg(node, 6, "swap", False)))}
    return m.emit(node, "triplet_margin_loss", [m.tensor(t, "aten.triplet_margin_loss") for t in node.args[:3]], attrs)


def _split(m, node):
    x, size, dim = node.args[0], node.args[1], _arg(node, 2, "dim", 0)
    total = shape_of(x)[dim]
    sizes = [size] * (total // size) + ([total % size] if total % size else []) if isinstance(size, int) else list(size)
    items, start = [], 0
    for index, length in enumerate(sizes):
        def make(getitem_node, start=start, length=length):
            attrs = {"axis": dim, "start": start, "end": start + length, "step": 1}
            return m.emit(getitem_node, "slice", [m.tensor(x, str(node.target))], attrs)
        items.append(make)
        start += length
    return items


def _scan(op):
    def handle(m, node):
        op_name = str(node.target)
        if node.kwargs.get("dtype") is not None:
            raise Unmappable(op_name, "a dtype argument")
        return m.emit(node, op, [m.tensor(node.args[0], op_name)], {"axis": node.args[1]})
    return handle


def _flip(m, node):
    dims = list(node.args[1])
    if not dims:
        return _elide(m, node)
    tensor = m.tensor(node.args[0], "aten.flip")
    for k, axis in enumerate(dims):  # flips of distinct axes commute: one node per axis
        tensor = m.emit(node, "flip", [tensor], {"axis": axis}, name=node.name if len(dims) == 1 else f"{node.name}_{k}")
    return tensor


def _matmul(m, node):
    op_name = str(node.target)
    a, b = node.args[0], node.args[1]
    ra, rb = _rank(a), _rank(b)
    if ra < 2 or rb < 2:
        raise Unmappable(op_name, f"a rank-{ra} by rank-{rb} product (vector operands)")
    if ra == 2 and rb == 2:
        return m.emit(node, "matmul", [m.tensor(a, op_name), m.tensor(b, op_name)])
    if ra == 3 and rb == 3 and shape_of(a)[0] == shape_of(b)[0]:
        return m.emit(node, "bmm", [m.tensor(a, op_name), m.tensor(b, op_name)])
    return m.emit(node, "matmul", [m.tensor(a, op_name), m.tensor(b, op_name)])  # leading axes broadcast


def _cat(m, node, op="cat"):
    tensors, dim = node.args[0], _arg(node, 1, "dim", 0)
    if op == "cat" and len(tensors) == 1:
        return m.tensor(tensors[0], str(node.target))
    if len(tensors) > MAX_CAT_INPUTS:
        raise Unmappable(str(node.target), f"{len(tensors)} tensors (kbv's {op} takes at most {MAX_CAT_INPUTS}; OPS.md)")
    return m.emit(node, op, [m.tensor(t, str(node.target)) for t in tensors], {"axis": dim})


# Elementwise ops that broadcast their two operands numpy-style in kbv (add, mul, and OPS.md's sub, div, minimum, maximum).
BROADCASTING = {aten.add.Tensor, aten.sub.Tensor, aten.mul.Tensor, aten.div.Tensor, aten.maximum.default, aten.minimum.default}


def _broadcast_shape(a, b):
    """numpy's broadcast of shapes a and b (right-aligned), or None when they do not broadcast."""
    out = []
    for k in range(max(len(a), len(b))):
        x = a[len(a) - 1 - k] if k < len(a) else 1
        y = b[len(b) - 1 - k] if k < len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return out[::-1]


def _expand(m, node):
    """x.expand(shape) read only by broadcasting elementwise ops that broadcast x to the same result: each reads x."""
    source = node.args[0]
    for user in _users(node):
        others = [a for a in user.args[:2] if a is not node] if user.target in BROADCASTING else []
        if len(others) != 1:
            raise Unmappable("aten.expand", f"feeds {user.target}, which does not broadcast it (kbv has no expand op)")
        other = others[0]
        other_shape = shape_of(other) if isinstance(other, torch.fx.Node) else []
        if other_shape is None or _broadcast_shape(shape_of(source), other_shape) != shape_of(user):
            raise Unmappable("aten.expand", f"feeds {user.target}, whose other operand does not broadcast it to {shape_of(node)} "
                                            "(kbv has no expand op)")
    return _elide(m, node)


def _constant(m, node):
    raise Unmappable(str(node.target), "a constant tensor made in the forward")


# ---------------------------------------------------------------- patterns
# Each recogniser looks at one live node; when it is the root of an idiom kbv has as one op, it
# folds the idiom's other nodes (they are skipped) and registers an emitter for the root.

def _users(node):
    return list(node.users)


def _only_user(node, user):
    return _users(node) == [user]


def _pattern_rmsnorm(m, node):
    """x / sqrt(mean(x ** 2, [d], keepdim=True) + eps), KernelBench's RMSNorm written out: kbv's rmsnorm."""
    if node.target != aten.div.Tensor or not isinstance(node.args[1], torch.fx.Node):
        return
    x, sqrt = node.args
    if sqrt.target != aten.sqrt.default or not _only_user(sqrt, node):
        return
    add = sqrt.args[0]
    if add.target != aten.add.Tensor or not _is_scalar(add.args[1]) or not _only_user(add, sqrt):
        return
    mean = add.args[0]
    if mean.target != aten.mean.dim or len(mean.args[1]) != 1 or not _arg(mean, 2, "keepdim", False) or not _only_user(mean, add):
        return
    square = mean.args[0]
    if square.target != aten.pow.Tensor_Scalar or square.args[1] != 2 or square.args[0] is not x or not _only_user(square, mean):
        return
    m.folded.update((sqrt, add, mean, square))
    attrs = {"axis": mean.args[1][0], "eps": float(add.args[1])}
    m.patterns[node] = (lambda m, n, d: m.emit(n, "rmsnorm", [m.tensor(d[0], "aten.div")], d[1], name="rmsnorm"), (x, attrs))


def _pattern_reverse_scan(m, node):
    """scan(x.flip(d), d).flip(d): the scan from the end of the axis, kbv's `reverse: 1`."""
    if node.target != aten.flip.default:
        return
    scan = node.args[0]
    if not isinstance(scan, torch.fx.Node) or scan.target not in (aten.cumsum.default, aten.cumprod.default) or not _only_user(scan, node):
        return
    inner = scan.args[0]
    rank = _rank(node)
    dims = [d % rank for d in node.args[1]]
    if (not isinstance(inner, torch.fx.Node) or inner.target != aten.flip.default or not _only_user(inner, scan)
            or [d % rank for d in inner.args[1]] != dims or len(dims) != 1 or scan.args[1] % rank != dims[0]):
        return
    m.folded.update((scan, inner))
    op = "cumsum" if scan.target == aten.cumsum.default else "cumprod"
    m.patterns[node] = (lambda m, n, d: m.emit(n, d[0], [m.tensor(d[1], str(d[2].target))], {"axis": d[2].args[1], "reverse": 1},
                                               name=d[2].name), (op, inner.args[0], scan))


def _pattern_exclusive_scan(m, node):
    """cat((zeros_like(x.select(d, 0).unsqueeze(d)), cumsum(x.narrow(d, 0, n - 1), d)), d) (L1 #92): kbv's `exclusive: 1`."""
    if node.target != aten.cat.default or len(node.args[0]) != 2:
        return
    zeros, scan = node.args[0]
    rank = _rank(node)
    dim = _arg(node, 1, "dim", 0) % rank
    if not (isinstance(zeros, torch.fx.Node) and (zeros.target == aten.zeros_like.default
                                                  or (zeros.target == aten.full_like.default and zeros.args[1] == 0))):
        return
    if not (isinstance(scan, torch.fx.Node) and scan.target == aten.cumsum.default and scan.args[1] % rank == dim and _only_user(scan, node)):
        return
    narrowed = scan.args[0]
    if not (isinstance(narrowed, torch.fx.Node) and narrowed.target in (aten.slice.Tensor, aten.narrow.default) and _only_user(narrowed, scan)):
        return
    source = narrowed.args[0]
    start = narrowed.args[2] if len(narrowed.args) > 2 else 0
    if narrowed.args[1] % rank != dim or (start or 0) != 0 or shape_of(narrowed)[dim] != shape_of(source)[dim] - 1:
        return
    # the zeros' shape is one slice of `source` along dim; whatever made it only fixes its shape
    parts, stack = {zeros}, list(zeros.all_input_nodes)
    while stack:
        part = stack.pop()
        if part is source or part.op == "placeholder":
            continue
        if any(user not in parts for user in part.users):
            return
        parts.add(part)
        stack.extend(part.all_input_nodes)
    m.folded.update(parts | {scan, narrowed})
    m.patterns[node] = (lambda m, n, d: m.emit(n, "cumsum", [m.tensor(d[0], "aten.cumsum")], {"axis": d[1], "exclusive": 1}, name=d[2].name),
                        (source, scan.args[1], scan))


def _pattern_transposed_matmul(m, node):
    """A transpose of the last two axes feeding only a matmul: the matmul reads it transposed."""
    if node.target not in (aten.matmul.default, aten.mm.default, aten.bmm.default):
        return
    flags, operands = [], []
    for operand in node.args[:2]:
        folded = False
        if isinstance(operand, torch.fx.Node) and _only_user(operand, node) and operand.op == "call_function":
            rank = _rank(operand)
            if operand.target in (aten.t.default, aten.numpy_T.default) and rank == 2:
                folded = True
            elif operand.target == aten.transpose.int:
                folded = {operand.args[1] % rank, operand.args[2] % rank} == {rank - 2, rank - 1}
            elif operand.target == aten.permute.default:
                folded = [p % rank for p in operand.args[1]] == list(range(rank - 2)) + [rank - 1, rank - 2]
        flags.append(folded)
        operands.append(operand.args[0] if folded else operand)
    if not any(flags):
        return
    for operand, folded in zip(node.args[:2], flags):
        if folded:
            m.folded.add(operand)

    def emit(m, n, d):
        (a, b), (ta, tb) = d
        return m.emit(n, "matmul", [m.tensor(a, str(n.target)), m.tensor(b, str(n.target))],
                      {"transpose_a": int(ta), "transpose_b": int(tb)})
    m.patterns[node] = (emit, (operands, flags))


def _pattern_scalar_constant(m, node):
    """A copy of a rank-0 constant (`torch.tensor(0.5)` in the forward): its users read it as a number."""
    if node.target in COPIES and m.scalar_constant(node) is not None:
        m.folded.add(node)


def _pattern_causal_mask(m, node):
    """x.masked_fill(mask[..., :T, :T] == 0, v) where `mask` is a buffer the model fills with
    tril(ones) at init (MinGPT's causal mask, KernelBench L3 #43, #44, #50): kbv's tril with
    fill v. The buffer is a constant kbv cannot carry, but its test `== 0` over any leading
    [:T, :T] block of a lower triangle of ones is exactly "column > row", which tril expresses.
    Exported as where(eq(slice(slice(mask)), 0), scalar_tensor(v), x), or alias(mask) for the whole."""
    if node.target == aten.where.self:
        cond, fill, x = node.args[:3]
    elif node.target == aten.masked_fill.Scalar:
        x, cond, fill = node.args[:3]
    else:
        return
    if not (isinstance(cond, torch.fx.Node) and cond.target == aten.eq.Scalar and cond.args[1] == 0 and _only_user(cond, node)):
        return
    folded = [cond]
    if _is_scalar(fill):
        value = fill
    elif isinstance(fill, torch.fx.Node) and fill.target == aten.scalar_tensor.default and _only_user(fill, node):
        value = fill.args[0]
        folded.append(fill)
    else:
        return
    source = cond.args[0]
    while isinstance(source, torch.fx.Node) and source.target in (aten.slice.Tensor, aten.alias.default):
        if source.target == aten.alias.default:  # the whole mask ([:T, :T] with T its size)
            if len(_users(source)) != 1:
                return
            folded.append(source)
            source = source.args[0]
            continue
        rank = _rank(source.args[0])
        dim, start, step = source.args[1] % rank, _arg(source, 2, "start", 0), _arg(source, 4, "step", 1)
        if dim < rank - 2 or (start or 0) != 0 or step != 1 or len(_users(source)) != 1:
            return
        folded.append(source)
        source = source.args[0]
    if not (isinstance(source, torch.fx.Node) and source.op == "placeholder" and isinstance(x, torch.fx.Node)):
        return
    kind, target = m.input_kind[source.name]
    mask_shape, x_shape = shape_of(cond.args[0]), shape_of(x)
    if (kind != InputKind.BUFFER or len(mask_shape) > len(x_shape) or any(d != 1 for d in mask_shape[:-2])
            or list(mask_shape[-2:]) != list(x_shape[-2:]) or list(shape_of(node)) != list(x_shape)):
        return
    buffer = m.buffer_values(target)
    if buffer is None or buffer.dim() < 2 or any(d != 1 for d in buffer.shape[:-2]):
        return
    rows, columns = buffer.shape[-2:]
    if not torch.equal(buffer.reshape(rows, columns).double(), torch.ones(rows, columns, dtype=torch.float64).tril()):
        return
    m.folded.update(folded)
    m.patterns[node] = (lambda m, n, d: m.emit(n, "tril", [m.tensor(d[0], str(n.target))], {"diagonal": 0, "fill": float(d[1])},
                                               name="causal_mask"), (x, value))


def _pattern_kl_div_batchmean(m, node):
    """kl_div(input, target, reduction=sum) / input.shape[0]: F.kl_div's reduction='batchmean', kbv's kl_div."""
    if node.target != aten.div.Tensor or not _is_scalar(node.args[1]):
        return
    kl = node.args[0]
    if not (isinstance(kl, torch.fx.Node) and kl.target == aten.kl_div.default and _only_user(kl, node)):
        return
    if _arg(kl, 2, "reduction", 1) != 2 or node.args[1] != shape_of(kl.args[0])[0]:
        return
    m.folded.add(kl)
    m.patterns[node] = (lambda m, n, k: m.emit(n, "kl_div", [m.tensor(k.args[0], "aten.kl_div"), m.tensor(k.args[1], "aten.kl_div")],
                                               {"log_target": int(bool(_arg(k, 3, "log_target", False)))}, name=k.name), kl)


def _pattern_instance_norm(m, node):
    """view(_native_batch_norm_legit.no_stats(view(x, [1, N·C, *]), w.repeat(N), b.repeat(N), True)[0], x.shape):
    at::instance_norm decomposed (batch norm of x seen as one sample of N·C channels): kbv's instancenorm."""
    views = (aten.view.default, aten.reshape.default, aten._unsafe_view.default)
    if node.target not in views:
        return
    item = node.args[0]
    if not (isinstance(item, torch.fx.Node) and item.target is operator.getitem and item.args[1] == 0 and _only_user(item, node)):
        return
    norm = item.args[0]
    if norm.target != aten._native_batch_norm_legit.no_stats or _users(norm) != [item] or not norm.args[3]:
        return
    flat = norm.args[0]
    if not (isinstance(flat, torch.fx.Node) and flat.target in views and _only_user(flat, norm)):
        return
    x = flat.args[0]
    shape = shape_of(x)
    if shape is None or len(shape) < 3 or shape_of(flat) != [1, shape[0] * shape[1]] + shape[2:] or shape_of(node) != shape:
        return
    affine = []
    for parameter in norm.args[1:3]:
        if parameter is None:
            continue
        if not (isinstance(parameter, torch.fx.Node) and parameter.target == aten.repeat.default and _only_user(parameter, norm)
                and list(parameter.args[1]) == [shape[0]] and shape_of(parameter.args[0]) == [shape[1]]):
            return
        affine.append(parameter)
    if len(affine) == 1:
        return
    m.folded.update([item, norm, flat] + affine)
    eps = float(norm.args[5])

    def emit(m, n, d):
        x, parameters, eps = d
        inputs = [m.tensor(x, "aten.instance_norm")] + [m.tensor(p.args[0], "aten.instance_norm") for p in parameters]
        return m.emit(n, "instancenorm", inputs, {"eps": eps}, name="instance_norm")
    m.patterns[node] = (emit, (x, affine, eps))


PATTERNS = [_pattern_scalar_constant, _pattern_causal_mask, _pattern_kl_div_batchmean, _pattern_rmsnorm, _pattern_instance_norm, _pattern_reverse_scan, _pattern_exclusive_scan, _pattern_transposed_matmul]


HANDLERS = {
    "aten.relu.default": _unary("relu"), "aten.sigmoid.default": _unary("sigmoid"), "aten.tanh.default": _unary("tanh"),
    "aten.gelu.default": _gelu, "aten.leaky_relu.default": _unary("leaky_relu", _leaky), "aten.elu.default": _elu,
    "aten.selu.default": _unary("selu"), "aten.softplus.default": _unary("softplus", _softplus),
    "aten.hardsigmoid.default": _unary("hardsigmoid"), "aten.hardswish.default": _unary("hardswish"),
    "aten.mish.default": _unary("mish"), "aten.silu.default": _unary("silu"),
    "aten.exp.default": _unary("exp"), "aten.log.default": _unary("log"), "aten.abs.default": _unary("abs"),
    "aten.sqrt.default": _unary("sqrt"),
    "aten.neg.default": _unary("scale", lambda n: {"value": -1.0}),
    "aten.hardtanh.default": _clamp_like("aten.hardtanh", 1, 2, -1.0, 1.0),
    "aten.relu6.default": _clamp_like("aten.relu6", None, None, 0.0, 6.0),
    "aten.clamp.default": _clamp_like("aten.clamp", 1, 2), "aten.clamp_min.default": _clamp_like("aten.clamp_min", 1, None),
    "aten.clamp_max.default": _clamp_like("aten.clamp_max", None, 1),
    "aten.add.Tensor": _add, "aten.sub.Tensor": _sub, "aten.mul.Tensor": _mul, "aten.div.Tensor": _div,
    "aten.rsub.Scalar": _rsub, "aten.pow.Tensor_Scalar": _pow,
    "aten.maximum.default": _minmax_elementwise("maximum"), "aten.minimum.default": _minmax_elementwise("minimum"),
    "aten.max.other": _minmax_elementwise("maximum"), "aten.min.other": _minmax_elementwise("minimum"),
    "aten.sum.dim_IntList": _reduction("sum"), "aten.sum.default": _reduction("sum", full=True),
    "aten.mean.dim": _reduction("mean"), "aten.mean.default": _reduction("mean", full=True),
    "aten.amax.default": _reduction("amax"), "aten.amin.default": _reduction("amin"),
    "aten.max.default": _reduction("amax", full=True), "aten.min.default": _reduction("amin", full=True),
    "aten.max.dim": _max_min_dim("amax", "argmax"), "aten.min.dim": _max_min_dim("amin", "argmin"),
    "aten.argmax.default": _arg_reduction("argmax"), "aten.argmin.default": _arg_reduction("argmin"),
    "aten.logsumexp.default": _logsumexp, "aten.linalg_vector_norm.default": _norm,
    "aten.softmax.int": _softmax("softmax"), "aten._softmax.default": _softmax("softmax"),
    "aten.log_softmax.int": _softmax("log_softmax"), "aten._log_softmax.default": _softmax("log_softmax"),
    "aten.cumsum.default": _scan("cumsum"), "aten.cumprod.default": _scan("cumprod"),
    "aten.flip.default": _flip, "aten.tril.default": _triangle("tril"), "aten.triu.default": _triangle("triu"),
    "aten.matmul.default": _matmul, "aten.mm.default": _matmul, "aten.bmm.default": _matmul, "aten.einsum.default": _einsum,
    "aten.linear.default": _linear,
    "aten.conv1d.default": _conv(1), "aten.conv2d.default": _conv(2), "aten.conv3d.default": _conv(3),
    "aten.conv_transpose1d.default": _conv(1, True), "aten.conv_transpose2d.input": _conv(2, True),
    "aten.conv_transpose3d.input": _conv(3, True),
    "aten.batch_norm.default": _batch_norm, "aten._native_batch_norm_legit_functional.default": _batch_norm,
    "aten.native_batch_norm.default": _batch_norm, "aten._native_batch_norm_legit.default": _batch_norm,
    "aten._native_batch_norm_legit.no_stats": _batch_norm, "aten._native_batch_norm_legit_no_training.default": _batch_norm_eval,
    "aten.group_norm.default": _group_norm, "aten.native_group_norm.default": _native_group_norm,
    "aten.instance_norm.default": _instance_norm, "aten.layer_norm.default": _layer_norm,
    "aten.max_pool1d.default": _max_pool(1), "aten.max_pool2d.default": _max_pool(2), "aten.max_pool3d.default": _max_pool(3),
    "aten.max_pool1d_with_indices.default": _max_pool_with_indices(1),
    "aten.max_pool2d_with_indices.default": _max_pool_with_indices(2),
    "aten.max_pool3d_with_indices.default": _max_pool_with_indices(3),
    "aten.avg_pool1d.default": _avg_pool(1), "aten.avg_pool2d.default": _avg_pool(2), "aten.avg_pool3d.default": _avg_pool(3),
    "aten.adaptive_avg_pool2d.default": _adaptive_avg_pool(2), "aten.adaptive_avg_pool3d.default": _adaptive_avg_pool(3),
    "aten._adaptive_avg_pool2d.default": _adaptive_avg_pool(2), "aten._adaptive_avg_pool3d.default": _adaptive_avg_pool(3),
    "aten.dropout.default": _dropout, "aten.native_dropout.default": _native_dropout,
    "aten.flatten.using_ints": _flatten, "aten.unflatten.int": _reshape,
    "aten.view.default": _reshape, "aten.reshape.default": _reshape, "aten._unsafe_view.default": _reshape,
    "aten.unsqueeze.default": _unsqueeze, "aten.squeeze.dim": _squeeze, "aten.squeeze.dims": _squeeze, "aten.squeeze.default": _squeeze,
    "aten.transpose.int": _transpose, "aten.t.default": _t, "aten.numpy_T.default": _t, "aten.permute.default": _permute,
    "aten.select.int": _select, "aten.slice.Tensor": _slice, "aten.narrow.default": _narrow,
    "aten.cat.default": _cat, "aten.stack.default": lambda m, n: _cat(m, n, "stack"),
    "aten.split.Tensor": _split, "aten.split_with_sizes.default": _split,
    "aten.full_like.default": _constant, "aten.zeros_like.default": _constant,
    "aten.scaled_dot_product_attention.default": _sdpa,
    "aten._scaled_dot_product_flash_attention_for_cpu.default": _sdpa_flash_for_cpu,
    "aten.smooth_l1_loss.default": _smooth_l1, "aten.huber_loss.default": lambda m, n: _smooth_l1(m, n, huber=True),
    "aten.kl_div.default": _kl_div, "aten.triplet_margin_loss.default": _triplet,
    "aten.cross_entropy_loss.default": _cross_entropy,
    "aten.clone.default": _elide, "aten.contiguous.default": _elide, "aten.alias.default": _elide,
    "aten.detach.default": _elide, "aten.expand.default": _expand, "getitem": _getitem,
}
HANDLERS = {k: v for k, v in HANDLERS.items() if v is not None}
