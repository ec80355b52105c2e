"""kbimport/kbv_ops.py — the kbv ops the importer maps onto: name, attributes with defaults,
precision class, and whether kbv has the op today or it is specified in OPS.md for later.

`EXISTING` mirrors kbv's registry (docs/problem-spec.md, "Primitive ops"); the importer checks
every YAML it writes with kbv's own loader, so a drift between this table and kbv is caught.
`PLANNED` ops and `EXTENSIONS` of existing ops are specified in scripts/kernelbench/OPS.md;
when one lands in kbv, move it to `EXISTING` and re-run the importer.
"""
import math

INF = math.inf

EXISTING = {
    "relu": {}, "gelu": {}, "leaky_relu": {"negative_slope": 0.01}, "sigmoid": {}, "tanh": {},
    "scale": {"value": 1.0}, "add": {}, "mul": {},
    "softmax": {"axis": -1}, "sum": {"axis": -1, "keepdim": 1}, "mean": {"axis": -1, "keepdim": 1},
    "layernorm": {"normalized_rank": 1, "eps": 1e-5}, "rmsnorm": {"axis": 1, "eps": 1e-5},
    "matmul": {"transpose_a": 0, "transpose_b": 0}, "bmm": {}, "linear": {},
    "conv2d": {"stride": 1, "padding": 0, "dilation": 1, "groups": 1},
    "maxpool2d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1},
    "sdpa": {"is_causal": 0, "scale": 0.0},
    # losses (mean reduction as KernelBench's defaults; output rank 0)
    "smooth_l1_loss": {"beta": 1.0}, "kl_div": {"log_target": 0},
    "triplet_margin_loss": {"margin": 1.0, "p": 2.0, "eps": 1e-6, "swap": 0},
}

TENSOR_CORE = {"matmul", "bmm", "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d", "sdpa"}
INDEX = {"argmax", "argmin"}

_REDUCE = {"axis": -1, "count": 1, "keepdim": 1}
_CONV = {"stride": 1, "padding": 0, "dilation": 1, "groups": 1}
_CONV_T = {"stride": 1, "padding": 0, "output_padding": 0, "dilation": 1, "groups": 1}

PLANNED = {
    # convolutions (per-axis forms of stride/padding/... are the `per_axis` extension)
    "conv1d": dict(_CONV), "conv3d": dict(_CONV),
    "conv_transpose1d": dict(_CONV_T), "conv_transpose2d": dict(_CONV_T), "conv_transpose3d": dict(_CONV_T),
    # normalisation
    "batchnorm": {"eps": 1e-5}, "groupnorm": {"groups": 1, "eps": 1e-5}, "instancenorm": {"eps": 1e-5},
    # pooling
    "maxpool1d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 0},
    "maxpool3d": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 0},
    "avgpool1d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1},
    "avgpool2d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1},
    "avgpool3d": {"kernel": 2, "stride": 0, "padding": 0, "ceil_mode": 0, "count_include_pad": 1},
    "adaptive_avgpool2d": {"output_size": 1}, "adaptive_avgpool3d": {"output_size": 1},
    # elementwise, one input
    "clamp": {"min": -INF, "max": INF}, "elu": {"alpha": 1.0}, "selu": {}, "softplus": {"beta": 1.0, "threshold": 20.0},
    "hardsigmoid": {}, "hardswish": {}, "mish": {}, "silu": {}, "exp": {}, "log": {}, "abs": {}, "sqrt": {},
    "pow": {"exponent": 2.0}, "add_scalar": {"value": 0.0}, "rsub_scalar": {"value": 0.0},
    # elementwise, two inputs (numpy broadcasting, as add/mul)
    "sub": {}, "div": {}, "minimum": {}, "maximum": {},
    # reductions and scans
    "amax": dict(_REDUCE), "amin": dict(_REDUCE), "argmax": {"axis": -1, "keepdim": 0}, "argmin": {"axis": -1, "keepdim": 0},
    "logsumexp": dict(_REDUCE), "norm": {"p": 2.0, "axis": -1, "count": 1, "keepdim": 1},
    "log_softmax": {"axis": -1},
    "cumsum": {"axis": -1, "reverse": 0, "exclusive": 0}, "cumprod": {"axis": -1, "reverse": 0, "exclusive": 0},
    "tril": {"diagonal": 0}, "triu": {"diagonal": 0},
    # layout
    "flatten": {"start_axis": 0, "end_axis": -1}, "unflatten": {"axis": 0, "size": 1},
    "unsqueeze": {"axis": 0}, "squeeze": {"axis": 0}, "transpose": {"axis0": 0, "axis1": 1},
    "select": {"axis": 0, "index": 0}, "slice": {"axis": 0, "start": 0, "end": 0, "step": 1},
    "cat": {"axis": 0}, "stack": {"axis": 0}, "flip": {"axis": 0},
    # randomness
    "dropout": {"p": 0.5},
}

# Extensions of existing ops: key -> one line (OPS.md specifies each).
EXTENSIONS = {
    "conv2d:per_axis": "conv2d with different stride/padding/dilation per spatial axis",
    "maxpool2d:per_axis": "maxpool2d with a non-square kernel/stride/padding",
    "maxpool2d:ceil_mode": "maxpool2d with ceil_mode",
    "reduce:count": "sum/mean over several adjacent axes (count), up to all of them",
    "gelu:approximate": "gelu with the tanh approximation",
}
EXTENSION_ATTRS = {"conv2d:per_axis": ["stride_h", "stride_w", "padding_h", "padding_w", "dilation_h", "dilation_w"],
                   "maxpool2d:ceil_mode": ["ceil_mode"],
                   "reduce:count": ["count"], "gelu:approximate": ["approximate"]}


def precision_class(op):
    if op in TENSOR_CORE:
        return "tensor_core"
    if op in INDEX:
        return "index"
    return "exact"


def known(op):
    return op in EXISTING or op in PLANNED
