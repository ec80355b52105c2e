"""kbv_torch/forward.py — the PyTorch forward of a kbv problem at one shape set, the one PyTorch
users would write:
  * a problem written for kbv (`source: kbv`, the default): its spec's graph, one PyTorch call
    per node (run_node), on inputs drawn as KernelBench draws them: torch.rand (U[0,1)) times each
    float32 input's scale, torch.randint(low, high) for an int64 input, torch.randint(0, 2).bool()
    for a bool one;
  * a problem imported from KernelBench (`source: kernelbench`): KernelBench's own Model, built
    from the file in a KernelBench checkout (`level<L>/<file>`) with its size globals set for the
    shape set (`kernelbench.globals`), on get_inputs() moved to the device, as KernelBench runs it.
The problem arrives as a description (problem_description() in kbv-calibrate, or
description_from_kbv_problems() from `kbv problems NAME --json`):
  {name, source, kernelbench: {level, id, file, globals} | null,
   inputs: [{name, shape: [ints], scale, dtype?: float32|int64|bool, range?: [low, high]}], outputs: [{name, shape}],
   graph: [{op, inputs, output, attrs}]}
Forwards run under torch.no_grad(): inference, as KernelBench times it."""
import ast
import copy
import hashlib
import itertools
import math
import sys
import types
from pathlib import Path


class NoForward(Exception):
    """This problem has no PyTorch forward here; the message says what is missing and the fix."""


def run_node(torch, op, args, attrs):
    """One kbv op in PyTorch; attrs are complete (kbv merges each op's defaults in)."""
    F = torch.nn.functional
    a = attrs or {}
    if op == "relu": return torch.relu(args[0])
    if op == "gelu": return F.gelu(args[0])
    if op == "leaky_relu": return F.leaky_relu(args[0], a.get("negative_slope", 0.01))
    if op == "sigmoid": return torch.sigmoid(args[0])
    if op == "tanh": return torch.tanh(args[0])
    if op == "softmax": return torch.softmax(args[0], dim=int(a.get("axis", -1)))
    if op == "layernorm":
        shape = args[0].shape[-int(a.get("normalized_rank", 1)):]
        return F.layer_norm(args[0], shape, args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else None, a.get("eps", 1e-5))
    if op == "rmsnorm":
        x = args[0]
        return x / torch.sqrt(torch.mean(x ** 2, dim=int(a.get("axis", 1)), keepdim=True) + a.get("eps", 1e-5))
    if op == "matmul":
        return torch.matmul(args[0].mT if a.get("transpose_a", 0) else args[0], args[1].mT if a.get("transpose_b", 0) else args[1])
    if op == "sdpa":
        return F.scaled_dot_product_attention(args[0], args[1], args[2], is_causal=bool(a.get("is_causal", 0)), scale=a.get("scale", 0) or None)
    if op == "smooth_l1_loss": return F.smooth_l1_loss(args[0], args[1], beta=a.get("beta", 1.0))
    if op == "kl_div": return F.kl_div(args[0], args[1], reduction="batchmean", log_target=bool(a.get("log_target", 0)))
    if op == "triplet_margin_loss":
        return F.triplet_margin_loss(args[0], args[1], args[2], margin=a.get("margin", 1.0), p=a.get("p", 2.0), eps=a.get("eps", 1e-6),
                                     swap=bool(a.get("swap", 0)))
    if op == "bmm": return torch.bmm(args[0], args[1])
    if op == "linear": return F.linear(args[0], args[1], args[2] if len(args) > 2 else None)
    if op in CONVOLUTIONS: return run_convolution(torch, op, args, a)
    if op == "maxpool2d":
        def per_axis(name, fallback):  # `<name>_h`, `<name>_w`; -1: the scalar's value
            scalar = int(a.get(name, fallback))
            return [scalar if int(a.get(name + axis, -1)) == -1 else int(a[name + axis]) for axis in ("_h", "_w")]
        k = per_axis("kernel", 2)
        s = [stride or kernel for stride, kernel in zip(per_axis("stride", 0), k)]
        return F.max_pool2d(args[0], k, s, per_axis("padding", 0), per_axis("dilation", 1), ceil_mode=bool(a.get("ceil_mode", 0)))
    if op == "sum": return torch.sum(args[0], dim=int(a.get("axis", -1)), keepdim=bool(a.get("keepdim", 1)))
    if op == "mean": return torch.mean(args[0], dim=int(a.get("axis", -1)), keepdim=bool(a.get("keepdim", 1)))
    if op == "add": return args[0] + args[1]
    if op == "mul": return args[0] * args[1]
    if op == "scale": return args[0] * a.get("value", 1.0)
    if op == "cross_entropy": return F.cross_entropy(args[0], args[1])
    raise NoForward(f"op '{op}' has no PyTorch translation in kbv_torch/forward.py's run_node (fix: add it there)")


# kbv's convolutions: op -> (spatial rank, transposed).
CONVOLUTIONS = {"conv1d": (1, False), "conv2d": (2, False), "conv3d": (3, False),
                "conv_transpose1d": (1, True), "conv_transpose2d": (2, True), "conv_transpose3d": (3, True)}


def run_convolution(torch, op, args, a):
    """A kbv convolution in PyTorch: each spatial attribute per axis, its `_d/_h/_w` override where
    one is given (not -1), else the scalar (docs/problem-spec.md)."""
    rank, transposed = CONVOLUTIONS[op]
    axes = ("d", "h", "w")[3 - rank:] if rank > 1 else ()

    def per_axis(name, default):
        scalar = int(a.get(name, default))
        if not axes:
            return scalar
        return tuple(scalar if int(a.get(f"{name}_{axis}", -1)) == -1 else int(a[f"{name}_{axis}"]) for axis in axes)

    F = torch.nn.functional
    bias = args[2] if len(args) > 2 else None
    stride, padding, dilation = per_axis("stride", 1), per_axis("padding", 0), per_axis("dilation", 1)
    groups = int(a.get("groups", 1))
    if transposed:
        function = getattr(F, f"conv_transpose{rank}d")
        return function(args[0], args[1], bias, stride, padding, per_axis("output_padding", 0), groups, dilation)
    return getattr(F, f"conv{rank}d")(args[0], args[1], bias, stride, padding, dilation, groups)


KNOWN_OPS = ("relu", "gelu", "leaky_relu", "sigmoid", "tanh", "softmax", "layernorm", "rmsnorm", "matmul", "bmm", "linear",
             *CONVOLUTIONS, "maxpool2d", "sum", "mean", "add", "mul", "scale", "cross_entropy",
             "sdpa", "smooth_l1_loss", "kl_div", "triplet_margin_loss")


class Forward:
    """`tensors` (the inputs, in order) and `run(*tensors)` (the forward); `module` is what
    torch.compile compiles (the Model, or run itself)."""

    def __init__(self, kind, run, tensors, module=None):
        self.kind, self.run, self.tensors, self.module = kind, run, list(tensors), module or run

    def eager(self):
        return self.run(*self.tensors)

    def compiled(self, torch, mode):
        """torch.compile of the forward under kbv's output contract: every output dense, as kbv's
        candidates and library must write it. `.contiguous()` inside the compiled function lets
        the compiler produce the dense result itself where its trace sees a strided one; it does
        not catch a layout inductor chooses after tracing (its padded GEMM returns an [M, N] view
        of an [M, N+pad] result, and the traced product was dense, so the call was a no-op:
        matmul_irregular, r88 on an H200, still strides [5924, 1]). So `.contiguous()` runs again
        on what the compiled function returned: nothing where that is dense, else the copy a dense
        output costs, in the time measured."""
        module = self.module

        def dense_forward(*tensors):
            return dense(torch, module(*tensors))
        compiled = torch.compile(dense_forward, mode=mode)
        return lambda: dense(torch, compiled(*self.tensors))


def dense(torch, value):
    """`value` with every tensor in it contiguous (the same tensor where it already is)."""
    if isinstance(value, torch.Tensor):
        return value.contiguous()
    if isinstance(value, (tuple, list)):
        return type(value)(dense(torch, v) for v in value)
    return value


def draw_input(torch, spec, device, generator):
    """One input as KernelBench draws it, in its dtype (kbv's public family has the same laws)."""
    dtype = spec.get("dtype", "float32")
    if dtype == "int64":
        low, high = spec["range"]
        return torch.randint(int(low), int(high), tuple(spec["shape"]), device=device, generator=generator)
    if dtype == "bool":
        return torch.randint(0, 2, tuple(spec["shape"]), device=device, generator=generator).bool()
    return torch.rand(*spec["shape"], device=device, generator=generator) * float(spec.get("scale", 1.0))


def graph_forward(torch, problem, device, seed=0):
    """The spec's graph in PyTorch (see the module's docstring)."""
    unknown = sorted({node["op"] for node in problem["graph"]} - set(KNOWN_OPS))
    if unknown:
        raise NoForward(f"problem {problem['name']}: op(s) {', '.join(unknown)} have no PyTorch translation in "
                        "kbv_torch/forward.py's run_node (fix: add them there)")
    generator = torch.Generator(device=device).manual_seed(seed)
    tensors = [draw_input(torch, spec, device, generator) for spec in problem["inputs"]]
    names = [spec["name"] for spec in problem["inputs"]]
    outputs = [spec["name"] for spec in problem["outputs"]]
    graph = [(node["op"], list(node["inputs"]), node["output"], dict(node.get("attrs") or {})) for node in problem["graph"]]

    def run(*values):
        env = dict(zip(names, values))
        for op, inputs, output, attrs in graph:
            env[output] = run_node(torch, op, [env[n] for n in inputs], attrs)
        return tuple(env[o] for o in outputs)

    return Forward("graph", run, tensors)


_loaded_modules = itertools.count()


def load_kernelbench_module(path, overrides):
    """Executes a KernelBench file as a fresh module, with the right-hand side of each module-level
    assignment named in `overrides` replaced first (so sizes derived from it follow)."""
    tree = ast.parse(Path(path).read_text(), filename=str(path))
    assigned = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    assigned.add(target.id)
                    if target.id in overrides:
                        value = overrides[target.id]
                        literal = repr(tuple(value) if isinstance(value, (list, tuple)) else value)
                        statement.value = ast.copy_location(ast.parse(literal, mode="eval").body, statement.value)
    missing = sorted(set(overrides) - assigned)
    if missing:
        raise NoForward(f"{path}: size global(s) {', '.join(missing)} are not module-level assignments; kbv_torch sets only those "
                        "(fix: time this shape set with the importer's loader, or calibrate the default shapes)")
    ast.fix_missing_locations(tree)
    # Registered under a name of its own: torch.compile's dynamo finds a function's globals through
    # sys.modules[Model.__module__], and failed on every level-2 Model it could not find there
    # ("No module named 'kernelbench_86_Matmul_Divide_GELU'", r92 on an H100). One name per load:
    # the same file at two shape sets is two modules with different size globals.
    module = types.ModuleType(f"kernelbench_{Path(path).stem}_{next(_loaded_modules)}")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module
    exec(compile(tree, str(path), "exec"), module.__dict__)  # noqa: S102 - KernelBench's own problem file
    for required in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, required):
            raise NoForward(f"{path}: defines no {required}, not a KernelBench problem file")
    return module


def kernelbench_forward(torch, problem, shape_set, kernelbench_dir, device, seed=0):
    """KernelBench's Model for an imported problem (see the module's docstring)."""
    reference = problem.get("kernelbench") or {}
    if not kernelbench_dir:
        raise NoForward(f"problem {problem['name']} is imported from KernelBench: its PyTorch forward is KernelBench's Model "
                        f"(level{reference.get('level')}/{reference.get('file')}) (fix: pass --kernelbench DIR, a KernelBench "
                        "checkout's KernelBench/ folder holding level1/ … level3/)")
    path = Path(kernelbench_dir) / f"level{reference['level']}" / reference["file"]
    if not path.is_file():
        raise NoForward(f"problem {problem['name']}: {path} not found (fix: --kernelbench must name the folder that holds level1/ … level3/)")
    size_globals = reference.get("globals") or {}
    if shape_set != "default" and shape_set not in size_globals:
        raise NoForward(f"problem {problem['name']}: shape set {shape_set} has no kernelbench.globals entry, so KernelBench's file "
                        "would run at its own sizes, not kbv's (fix: re-import the problem with scripts/kernelbench/kbv-import-kernelbench, "
                        "which writes one per shape set)")
    module = load_kernelbench_module(path, size_globals.get(shape_set) or {})
    torch.manual_seed(seed)
    model = module.Model(*module.get_init_inputs()).to(device)
    arguments = [value.to(device) if isinstance(value, torch.Tensor) else value for value in module.get_inputs()]
    check_kernelbench_shapes(torch, problem, shape_set, path, model, arguments)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return Forward(f"kernelbench:level{reference['level']}/{reference['file']}@sha256:{digest}", lambda *values: model(*values), arguments,
                   module=model)


def check_kernelbench_shapes(torch, problem, shape_set, path, model, arguments):
    """KernelBench's file must build the tensors kbv times: the ratio is PyTorch's time over the
    library's, so PyTorch at other sizes (a checkout whose size globals differ from the import's)
    would scale every derived speedup by the ratio of the two workloads, unseen (review)."""
    activations = [d for d in problem["inputs"] if d.get("role", "activation") == "activation"]
    tensors = [value for value in arguments if isinstance(value, torch.Tensor)]
    where = f"problem {problem['name']} at shape set {shape_set}: {path}"
    fix = "(fix: re-import the problem from this KernelBench checkout, or point --kernelbench at the one it was imported from)"
    if len(tensors) != len(activations):
        raise NoForward(f"{where}: get_inputs() gives {len(tensors)} tensors, kbv's spec has {len(activations)} activation inputs {fix}")
    for declared, tensor in zip(activations, tensors):
        if list(tensor.shape) != list(declared["shape"]):
            raise NoForward(f"{where}: get_inputs() gives {declared['name']} of shape {list(tensor.shape)}, kbv times {list(declared['shape'])} {fix}")
    state = model.state_dict()
    for declared in problem["inputs"]:
        name = declared.get("torch_name")
        if declared.get("role") == "parameter" and name and name in state and list(state[name].shape) != list(declared["shape"]):
            raise NoForward(f"{where}: the model's {name} has shape {list(state[name].shape)}, kbv times {list(declared['shape'])} {fix}")


def problem_forward(torch, problem, shape_set, kernelbench_dir, device):
    if problem.get("source", "kbv") == "kernelbench":
        return kernelbench_forward(torch, problem, shape_set, kernelbench_dir, device)
    return graph_forward(torch, problem, device)


def input_scale(declared, shape):
    """kbv's input scale: a number, or "inv_sqrt_fan_in" = 1/sqrt(numel / shape[0])."""
    if declared == "inv_sqrt_fan_in":
        fan_in = math.prod(shape) // shape[0] if shape else 1
        return 1.0 / math.sqrt(max(fan_in, 1))
    return float(declared)


def description_from_kbv_problems(described, shape_set, spec=None):
    """A problem description from `kbv problems NAME --json` at `shape_set`; `spec` (the YAML as a
    dict, optional) adds `source` and `kernelbench`, which that listing does not carry."""
    shapes = described["shape_sets"][shape_set]
    spec = spec or {}
    return {
        "name": described["name"],
        "source": spec.get("source", "kbv"),
        "kernelbench": spec.get("kernelbench"),
        "inputs": [{"name": d["name"], "shape": shapes["inputs"][d["name"]], "role": d.get("role", "activation"),
                    "torch_name": d.get("torch_name", ""),
                    "scale": input_scale(d.get("scale", 1.0), shapes["inputs"][d["name"]]), "dtype": d.get("dtype", "float32"),
                    **({"range": shapes["input_ranges"][d["name"]]} if d.get("dtype") == "int64" else {})}
                   for d in described["inputs"]],
        "outputs": [{"name": d["name"], "shape": shapes["outputs"][d["name"]]} for d in described["outputs"]],
        "graph": copy.deepcopy(described["graph"]),
    }
