"""kbimport/capture.py — a KernelBench model's forward as an aten graph, by torch.export.

The model is built as KernelBench builds it, `Model(*get_init_inputs())`, left in training mode,
and called with `get_inputs()`. Only shapes matter here, so both are made on the meta device
(a 16 GiB input costs nothing); a model whose constructor needs real values (`.item()` at
init) is built on the CPU and moved to meta. The exported program then runs PyTorch's default
decomposition table minus every op kbv keeps whole (`KEEP`), so a convolution, a linear layer, a
softmax or a batch norm stays one node while composite code around them is lowered to aten
primitives.
"""
import warnings

import torch

aten = torch.ops.aten

# Ops kbv has (or OPS.md specifies) as one primitive: never decomposed.
KEEP = [
    aten.linear.default, aten.matmul.default, aten.mm.default, aten.bmm.default, aten.einsum.default,
    aten.conv1d.default, aten.conv2d.default, aten.conv3d.default,
    aten.conv_transpose1d.default, aten.conv_transpose2d.input, aten.conv_transpose3d.input,
    aten.batch_norm.default, aten.group_norm.default, aten.instance_norm.default, aten.layer_norm.default,
    aten.max_pool1d.default, aten.max_pool2d.default, aten.max_pool3d.default,
    aten.avg_pool1d.default, aten.avg_pool2d.default, aten.avg_pool3d.default,
    aten.adaptive_avg_pool1d.default, aten.adaptive_avg_pool2d.default, aten.adaptive_avg_pool3d.default,
    aten.softmax.int, aten._softmax.default, aten.log_softmax.int, aten._log_softmax.default, aten.logsumexp.default,
    aten.sum.dim_IntList, aten.sum.default, aten.mean.dim, aten.mean.default, aten.amax.default, aten.amin.default,
    aten.max.dim, aten.min.dim, aten.max.default, aten.min.default, aten.argmax.default, aten.argmin.default,
    aten.cumsum.default, aten.cumprod.default, aten.tril.default, aten.triu.default,
    aten.linalg_vector_norm.default,
    aten.relu.default, aten.gelu.default, aten.leaky_relu.default, aten.sigmoid.default, aten.tanh.default,
    aten.hardtanh.default, aten.clamp.default, aten.clamp_min.default, aten.clamp_max.default,
    aten.elu.default, aten.selu.default, aten.softplus.default, aten.hardsigmoid.default, aten.hardswish.default,
    aten.mish.default, aten.silu.default, aten.relu6.default,
    aten.smooth_l1_loss.default, aten.huber_loss.default, aten.kl_div.default, aten.triplet_margin_loss.default,
    aten.mse_loss.default, aten.cross_entropy_loss.default,
    aten.flatten.using_ints, aten.unflatten.int, aten.dropout.default,
    aten.scaled_dot_product_attention.default, aten._scaled_dot_product_flash_attention_for_cpu.default,
    # recurrent layers kbv has no op for: kept whole so the refusal names them (decomposed, an
    # LSTM over 512 steps becomes thousands of nodes and a 512-way cat)
    aten.lstm.input, aten.gru.input, aten.rnn_tanh.input,
]


class CaptureError(Exception):
    """The model could not be built or exported; the message says where it failed."""


def _build(module):
    init_args = module.get_init_inputs()
    try:
        with torch.device("meta"):
            model = module.Model(*init_args)
    except Exception:  # a constructor that reads values (`.item()`), so build it for real
        torch.manual_seed(0)
        model = module.Model(*init_args).to("meta")
    with torch.device("meta"), _RecordedRandint() as recorded:
        inputs = list(module.get_inputs())
    ranges = [recorded.ranges.get(id(value)) if isinstance(value, torch.Tensor) else None for value in inputs]
    return model, inputs, ranges


class _RecordedRandint(torch.overrides.TorchFunctionMode):
    """The value range of each int64 tensor get_inputs() draws with torch.randint(low, high, size):
    a meta tensor keeps only its shape, and kbv's schema needs the range (an int64 input's
    `range`). `ranges[id(tensor)]` is (low, high); the tensors are kept alive so ids stay theirs.
    A function mode, not a patched torch.randint: torch.device("meta") recognises the
    constructors it places by identity."""

    def __init__(self):
        super().__init__()
        self.ranges, self.kept = {}, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        if func is torch.randint:
            numbers = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
            if "high" in kwargs:
                low, high = kwargs.get("low", numbers[0] if numbers else 0), kwargs["high"]
            elif len(numbers) >= 2:
                low, high = numbers[0], numbers[1]
            else:
                low, high = 0, numbers[0]
            self.ranges[id(result)] = (int(low), int(high))
            self.kept.append(result)
        return result


class _RealScalarTensors:
    """`torch.tensor(0.5, device=x.device)` in a forward makes a meta tensor when x is meta, and
    the value the graph needs is lost. While exporting, a tensor made from a Python number is
    made on the CPU instead: a rank-0 CPU tensor mixes with any device, and keeps its value."""

    def __enter__(self):
        self.original = torch.tensor

        def tensor(data, *args, **kwargs):
            if isinstance(data, (int, float)) and not isinstance(data, bool) and str(kwargs.get("device", "")) == "meta":
                kwargs["device"] = "cpu"
            return self.original(data, *args, **kwargs)
        torch.tensor = tensor
        return self

    def __exit__(self, *exc):
        torch.tensor = self.original


def real_buffers(module):
    """{target: value} of the model's buffers, built for real on the CPU as KernelBench builds it
    (seed 0): what the meta-device capture cannot say about a buffer's contents."""
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = module.Model(*module.get_init_inputs())
    return {name: value.detach() for name, value in model.named_buffers()}


def capture(module):
    """(ExportedProgram after kbv's decomposition table, the model, get_inputs() on meta, and per
    input the (low, high) of the torch.randint that drew it, else None)."""
    try:
        model, inputs, ranges = _build(module)
    except Exception as error:
        raise CaptureError(f"building Model(*get_init_inputs()) or get_inputs() failed: {type(error).__name__}: {error}") from error
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with _RealScalarTensors():
                program = torch.export.export(model, tuple(inputs))
            table = torch.export.default_decompositions()
            for op in KEEP:
                table.pop(op, None)
            program = program.run_decompositions(table)
    except Exception as error:
        raise CaptureError(f"torch.export failed: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}") from error
    return program, model, inputs, ranges
