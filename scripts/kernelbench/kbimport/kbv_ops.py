"""kbimport/kbv_ops.py — the kbv ops the importer maps onto: name, attributes with defaults,
precision class, and whether kbv has the op today or it is specified in OPS.md for later.

`EXISTING` mirrors kbv's registry (docs/problem-spec.md, "Primitive ops"); the importer checks
every YAML it writes with kbv's own loader, so a drift between this table and kbv is caught.
`PLANNED` ops and `EXTENSIONS` of existing ops are specified in scripts/kernelbench/OPS.md;
when one lands in kbv, move it to `EXISTING` and re-run the importer.
"""
import math

INF = math.inf

_CONV = {"stride": 1, "padding": 0, "dilation": 1, "groups": 1}
_CONV_T = {"stride": 1, "padding": 0, "output_padding": 0, "dilation": 1, "groups": 1}


def _per_axis(scalars, axes):
    """Each spatial scalar with its per-axis overrides `<name>_<axis>`, default -1: the scalar's value (OPS.md)."""
    attrs = dict(scalars)
    attrs.update({f"{name}_{axis}": -1 for name in scalars if name != "groups" for axis in axes})
    return attrs


EXISTING = {
    "relu": {}, "gelu": {}, "leaky_relu": {"negative_slope": 0.01}, "sigmoid": {}, "tanh": {},
    "scale": {"value": 1.0}, "add": {}, "mul": {},
    "softmax": {"axis": -1}, "sum": {"axis": -1, "count": 1, "keepdim": 1}, "mean": {"axis": -1, "count": 1, "keepdim": 1},
    "layernorm": {"normalized_rank": 1, "eps": 1e-5}, "rmsnorm": {"axis": 1, "eps": 1e-5},
    "matmul": {"transpose_a": 0, "transpose_b": 0}, "bmm": {}, "linear": {},
    # convolutions (per-axis overrides default to -1: the scalar's value)
    "conv1d": dict(_CONV), "conv2d": _per_axis(_CONV, "hw"), "conv3d": _per_axis(_CONV, "dhw"),
    "conv_transpose1d": dict(_CONV_T), "conv_transpose2d": _per_axis(_CONV_T, "hw"),
    "conv_transpose3d": _per_axis(_CONV_T, "dhw"),
    # elementwise, one input
    "clamp": {"min": -INF, "max": INF}, "elu": {"alpha": 1.0}, "selu": {}, "softplus": {"beta": 1.0, "threshold": 20.0},
    "hardsigmoid": {}, "hardtanh": {"min_val": -1.0, "max_val": 1.0}, "hardswish": {}, "mish": {}, "silu": {},
    "exp": {}, "log": {}, "abs": {}, "sqrt": {},
    "pow": {"exponent": 2.0}, "add_scalar": {"value": 0.0}, "rsub_scalar": {"value": 0.0},
    # elementwise, two inputs (numpy broadcasting, as add/mul)
    "sub": {}, "div": {}, "minimum": {}, "maximum": {},
    # reductions and scans
    "amax": {"axis": -1, "count": 1, "keepdim": 1}, "amin": {"axis": -1, "count": 1, "keepdim": 1},
    "argmax": {"axis": -1, "keepdim": 0}, "argmin": {"axis": -1, "keepdim": 0},
    "logsumexp": {"axis": -1, "count": 1, "keepdim": 1}, "norm": {"p": 2.0, "axis": -1, "count": 1, "keepdim": 1},
    "log_softmax": {"axis": -1},
    "cumsum": {"axis": -1, "reverse": 0, "exclusive": 0}, "cumprod": {"axis": -1, "reverse": 0, "exclusive": 0},
    "tril": {"diagonal": 0}, "triu": {"diagonal": 0},
    # losses
    "cross_entropy": {},
    # layout
    "flatten": {"start_axis": 0, "end_axis": -1}, "unflatten": {"axis": 0, "size": 1},
    "unsqueeze": {"axis": 0}, "squeeze": {"axis": 0}, "transpose": {"axis0": 0, "axis1": 1},
    "select": {"axis": 0, "index": 0}, "slice": {"axis": 0, "start": 0, "end": 0, "step": 1},
    "cat": {"axis": 0}, "stack": {"axis": 0}, "flip": {"axis": 0},
    # normalisation and pooling (per-axis overrides default to -1: the scalar's value)
    "batchnorm": {"eps": 1e-5}, "groupnorm": {"groups": 1, "eps": 1e-5}, "instancenorm": {"eps": 1e-5},
    "maxpool1d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 0},
    "maxpool2d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 0,
                  **{f"{a}_{x}": -1 for a in ("kernel", "stride", "padding", "dilation") for x in "hw"}},
    "maxpool3d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 0,
                  **{f"{a}_{x}": -1 for a in ("kernel", "stride", "padding", "dilation") for x in "dhw"}},
    "avgpool1d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1},
    "avgpool2d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1,
                  **{f"{a}_{x}": -1 for a in ("kernel", "stride", "padding") for x in "hw"}},
    "avgpool3d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1,
                  **{f"{a}_{x}": -1 for a in ("kernel", "stride", "padding") for x in "dhw"}},
    "adaptive_avgpool2d": {"output_size": 1}, "adaptive_avgpool3d": {"output_size": 1},
    "sdpa": {"is_causal": 0, "scale": 0.0},
    # losses (mean reduction as KernelBench's defaults; output rank 0)
    "smooth_l1_loss": {"beta": 1.0}, "kl_div": {"log_target": 0},
    "triplet_margin_loss": {"margin": 1.0, "p": 2.0, "eps": 1e-6, "swap": 0},
}

TENSOR_CORE = {"matmul", "bmm", "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d", "sdpa"}
INDEX = {"argmax", "argmin"}

PLANNED = {
    # randomness
    "dropout": {"p": 0.5},
}

# Extensions of existing ops: key -> one line (OPS.md specifies each).
EXTENSIONS = {
    "gelu:approximate": "gelu with the tanh approximation",
}
EXTENSION_ATTRS = {"gelu:approximate": ["approximate"]}


def precision_class(op):
    if op in TENSOR_CORE:
        return "tensor_core"
    if op in INDEX:
        return "index"
    return "exact"


def known(op):
    return op in EXISTING or op in PLANNED
