"""kbimport/source.py — a KernelBench problem file, loaded with its module-level sizes overridden.

A KernelBench file sets its sizes as module-level assignments (`batch_size = 16`,
`input_shape = (32768,)`, `M = 16384 * 4`) that `get_inputs()` and `get_init_inputs()` read.
Each such assignment whose value is an int, or a tuple/list of ints, is a *knob*. Loading with
overrides rewrites the assignment's right-hand side before executing the file, so sizes that
other assignments derive from it follow (`N = M // 2`). An integer literal written inside
`get_inputs()` or `get_init_inputs()` (`torch.rand(batch_size, 3, 224, 224)`) becomes a knob
too, named `<function>_literal_<k>` in source order.
"""
import copy
import ast
import itertools
import re
import types
from pathlib import Path

_module_counter = itertools.count()

# KernelBench file names are `<id>_<Name>.py`.
FILE_NAME = re.compile(r"^(\d+)_(.+)\.py$")


def problem_id(path):
    match = FILE_NAME.match(Path(path).name)
    if not match:
        raise ValueError(f"{path}: not a KernelBench problem file (expected <id>_<Name>.py)")
    return int(match.group(1))


def snake_name(path):
    """The file name's stem, lower case, every run of other characters one `_`: `19_ReLU.py` -> `relu`,
    `57_conv_transposed_2D__square_input__square_kernel.py` -> `conv_transposed_2d_square_input_square_kernel`."""
    stem = FILE_NAME.match(Path(path).name).group(2)
    return re.sub(r"[^0-9a-z]+", "_", stem.lower()).strip("_")


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_size_value(value):
    if is_int(value):
        return True
    return isinstance(value, (tuple, list)) and len(value) > 0 and all(is_int(v) for v in value)


class ProblemSource:
    """One KernelBench file: its text, its knobs (name -> value at the file's own sizes)."""

    def __init__(self, path):
        self.path = Path(path)
        self.text = self.path.read_text()
        self.tree = _lift_literals(ast.parse(self.text, filename=str(self.path)))
        module = self.load()
        self.knobs = {}
        for name in self._assigned_names():
            value = getattr(module, name, None)
            if is_size_value(value):
                self.knobs[name] = tuple(value) if isinstance(value, (tuple, list)) else value

    def _assigned_names(self):
        names = []
        for statement in self.tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                if statement.targets[0].id not in names:
                    names.append(statement.targets[0].id)
        return names

    def load(self, overrides=None):
        """Executes the file with `overrides` (knob -> int or tuple) as a fresh module."""
        overrides = dict(overrides or {})
        tree = copy.deepcopy(self.tree)
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                name = statement.targets[0].id
                if name in overrides:
                    value = overrides[name]
                    statement.value = ast.copy_location(ast.parse(repr(tuple(value) if isinstance(value, (tuple, list)) else value), mode="eval").body,
                                                        statement.value)
        ast.fix_missing_locations(tree)
        module = types.ModuleType(f"kernelbench_problem_{next(_module_counter)}")
        module.__file__ = str(self.path)
        exec(compile(tree, str(self.path), "exec"), module.__dict__)
        for required in ("Model", "get_inputs", "get_init_inputs"):
            if not hasattr(module, required):
                raise ValueError(f"{self.path}: defines no {required}")
        return module


LITERAL_FUNCTIONS = ("get_inputs", "get_init_inputs")
LITERAL_MIN = 2  # 0 and 1 are never sizes worth shrinking (and often flags or axes)


def is_literal_knob(name):
    return any(name.startswith(f"{function}_literal_") for function in LITERAL_FUNCTIONS)


class _LiteralLifter(ast.NodeTransformer):
    def __init__(self, function):
        self.function, self.lifted = function, []

    def visit_Constant(self, node):
        if is_int(node.value) and node.value >= LITERAL_MIN:
            name = f"{self.function}_literal_{len(self.lifted)}"
            self.lifted.append((name, node.value))
            return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        return node


def _lift_literals(tree):
    """Integer literals inside get_inputs()/get_init_inputs() as module-level knobs, and
    `height = width = 128` or `height, width = 128, 128` as two assignments (each its own knob)."""
    body = []
    for statement in tree.body:
        if (isinstance(statement, ast.Assign) and len(statement.targets) > 1
                and all(isinstance(t, ast.Name) for t in statement.targets)):
            body += [ast.copy_location(ast.Assign(targets=[target], value=copy.deepcopy(statement.value)), statement)
                     for target in statement.targets]
        elif (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Tuple)
              and isinstance(statement.value, ast.Tuple) and len(statement.value.elts) == len(statement.targets[0].elts)
              and all(isinstance(t, ast.Name) for t in statement.targets[0].elts)):
            # `height, width = 256, 256`: one assignment (one knob) each
            body += [ast.copy_location(ast.Assign(targets=[target], value=value), statement)
                     for target, value in zip(statement.targets[0].elts, statement.value.elts)]
        else:
            body.append(statement)
    tree.body = body
    assignments = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef) and statement.name in LITERAL_FUNCTIONS:
            lifter = _LiteralLifter(statement.name)
            statement.body = [lifter.visit(s) for s in statement.body]
            assignments += [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Constant(value=value))
                            for name, value in lifter.lifted]
    tree.body = assignments + tree.body
    return ast.fix_missing_locations(tree)
