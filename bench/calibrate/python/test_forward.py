"""test_forward.py — the PyTorch forwards of kbv problems: every op the bundled problems use has a
translation, the graph forward computes what kbv's ops mean, KernelBench files load with their size
globals set for a shape set, and what cannot run says why. Needs torch (CPU is enough); the op
coverage check needs only the standard library."""
import re
import tempfile
import textwrap
import unittest
from pathlib import Path

from kbv_torch.forward import KNOWN_OPS, Forward, NoForward, description_from_kbv_problems, graph_forward, input_scale, load_kernelbench_module, problem_forward

try:
    import torch
except ImportError:  # the tests that need it say so
    torch = None

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
needs_torch = unittest.skipUnless(torch is not None, "torch is not installed in this Python (the GPU machine's python3 has it)")


class Coverage(unittest.TestCase):
    def test_every_op_a_bundled_problem_uses_has_a_translation(self):
        # Only problems written for kbv run their graph here; an imported KernelBench problem runs
        # KernelBench's own Model (module docstring), so its ops need no translation.
        used = set()
        for path in PROBLEMS.rglob("*.yaml"):
            text = path.read_text()
            if re.search(r"^source:\s*kernelbench\s*$", text, re.M):
                continue
            used |= set(re.findall(r"[{,]\s*op:\s*([a-z_0-9]+)", text))
        self.assertTrue(used, f"no op found under {PROBLEMS}")
        self.assertEqual(sorted(used - set(KNOWN_OPS)), [], "ops with no PyTorch translation in kbv_torch/forward.py")

    def test_input_scales(self):
        self.assertEqual(input_scale(2, [3]), 2.0)
        self.assertAlmostEqual(input_scale("inv_sqrt_fan_in", [4096, 4096]), 1 / 64)


def description(graph, inputs, outputs):
    return {"name": "p", "source": "kbv", "kernelbench": None, "inputs": inputs, "outputs": outputs, "graph": graph}


@needs_torch
class GraphForward(unittest.TestCase):
    def test_matmul_scale_residual_is_z_times_half_plus_z(self):
        problem = description(
            [{"op": "linear", "inputs": ["x", "w", "b"], "output": "t0", "attrs": {}},
             {"op": "scale", "inputs": ["t0"], "output": "t1", "attrs": {"value": 0.5}},
             {"op": "add", "inputs": ["t1", "t0"], "output": "y", "attrs": {}}],
            [{"name": "x", "shape": [4, 8], "scale": 1.0}, {"name": "w", "shape": [6, 8], "scale": 0.25}, {"name": "b", "shape": [6], "scale": 1.0}],
            [{"name": "y", "shape": [4, 6]}])
        forward = graph_forward(torch, problem, "cpu")
        x, w, b = forward.tensors
        self.assertLessEqual(float(w.abs().max()), 0.25)  # the input's scale
        (y,) = forward.eager()
        z = x @ w.T + b
        torch.testing.assert_close(y, z * 0.5 + z)
        self.assertEqual(forward.kind, "graph")

    def test_int64_and_bool_inputs_are_drawn_in_their_dtype_and_range(self):
        problem = description([{"op": "cross_entropy", "inputs": ["logits", "targets"], "output": "loss", "attrs": {}},
                               {"op": "mul", "inputs": ["logits", "mask"], "output": "y", "attrs": {}}],
                              [{"name": "logits", "shape": [64, 7], "scale": 1.0},
                               {"name": "targets", "shape": [64], "scale": 1.0, "dtype": "int64", "range": [0, 7]},
                               {"name": "mask", "shape": [64, 7], "scale": 1.0, "dtype": "bool"}],
                              [{"name": "loss", "shape": []}, {"name": "y", "shape": [64, 7]}])
        forward = graph_forward(torch, problem, "cpu")
        logits, targets, mask = forward.tensors
        self.assertEqual((targets.dtype, mask.dtype), (torch.int64, torch.bool))
        self.assertTrue(0 <= int(targets.min()) and int(targets.max()) < 7)
        loss, y = forward.eager()
        torch.testing.assert_close(loss, torch.nn.functional.cross_entropy(logits, targets))
        torch.testing.assert_close(y, logits * mask)

    def test_matmul_reads_its_transpose_flags_and_a_loss_is_rank_0(self):
        problem = description([{"op": "matmul", "inputs": ["a", "b"], "output": "t0", "attrs": {"transpose_a": 1, "transpose_b": 1}},
                               {"op": "smooth_l1_loss", "inputs": ["t0", "c"], "output": "y", "attrs": {"beta": 0.5}}],
                              [{"name": "a", "shape": [5, 3], "scale": 1.0}, {"name": "b", "shape": [4, 5], "scale": 1.0},
                               {"name": "c", "shape": [3, 4], "scale": 1.0}],
                              [{"name": "y", "shape": []}])
        forward = graph_forward(torch, problem, "cpu")
        a, b, c = forward.tensors
        (y,) = forward.eager()
        self.assertEqual(y.shape, torch.Size([]))
        torch.testing.assert_close(y, torch.nn.functional.smooth_l1_loss(a.T @ b.T, c, beta=0.5))

    def test_rmsnorm_and_maxpool_follow_kbvs_attributes(self):
        problem = description([{"op": "rmsnorm", "inputs": ["x"], "output": "r", "attrs": {"axis": 1, "eps": 1e-5}},
                               {"op": "maxpool2d", "inputs": ["r"], "output": "y", "attrs": {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1}}],
                              [{"name": "x", "shape": [2, 3, 4, 4], "scale": 1.0}], [{"name": "y", "shape": [2, 3, 2, 2]}])
        forward = graph_forward(torch, problem, "cpu")
        (x,) = forward.tensors
        (y,) = forward.eager()
        r = x / torch.sqrt((x ** 2).mean(dim=1, keepdim=True) + 1e-5)
        torch.testing.assert_close(y, torch.nn.functional.max_pool2d(r, 2, 2))

    def test_maxpool_per_axis_and_ceil_mode(self):
        attrs = {"kernel": 2, "stride": 0, "padding": 0, "dilation": 1, "ceil_mode": 1, "kernel_h": 1, "kernel_w": 3,
                 "stride_h": -1, "stride_w": 2, "padding_h": -1, "padding_w": 1, "dilation_h": -1, "dilation_w": -1}
        problem = description([{"op": "maxpool2d", "inputs": ["x"], "output": "y", "attrs": attrs}],
                              [{"name": "x", "shape": [1, 2, 4, 6], "scale": 1.0}], [{"name": "y", "shape": [1, 2, 4, 4]}])
        forward = graph_forward(torch, problem, "cpu")
        (x,) = forward.tensors
        (y,) = forward.eager()
        torch.testing.assert_close(y, torch.nn.functional.max_pool2d(x, (1, 3), (1, 2), (0, 1), 1, ceil_mode=True))

    def test_an_op_without_translation_is_no_forward(self):
        problem = description([{"op": "cumsum", "inputs": ["x"], "output": "y", "attrs": {}}], [{"name": "x", "shape": [2], "scale": 1.0}],
                              [{"name": "y", "shape": [2]}])
        with self.assertRaisesRegex(NoForward, "op.*cumsum.*fix: add"):
            graph_forward(torch, problem, "cpu")

    def test_a_description_from_kbv_problems(self):
        described = {"name": "gemm", "inputs": [{"name": "x", "dims": ["m", "k"], "role": "activation", "scale": 1},
                                                {"name": "w", "dims": ["n", "k"], "role": "parameter", "scale": "inv_sqrt_fan_in"}],
                     "outputs": [{"name": "y", "dims": ["m", "n"]}],
                     "graph": [{"name": "mm", "op": "linear", "inputs": ["x", "w"], "output": "y", "attrs": {}}],
                     "shape_sets": {"small": {"inputs": {"x": [2, 16], "w": [3, 16]}, "outputs": {"y": [2, 3]}}}}
        d = description_from_kbv_problems(described, "small", {"source": "kbv"})
        self.assertEqual(d["inputs"][1]["scale"], 0.25)
        (y,) = graph_forward(torch, d, "cpu").eager()
        self.assertEqual(tuple(y.shape), (2, 3))


KERNELBENCH_FILE = textwrap.dedent('''
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self, features):
            super().__init__()
            self.linear = nn.Linear(features, features)

        def forward(self, x, alpha):
            return torch.relu(self.linear(x)) * alpha

    batch_size = 16
    features = 8
    half = batch_size // 2

    def get_inputs():
        return [torch.rand(half, features), 2.0]

    def get_init_inputs():
        return [features]
''')


@needs_torch
class KernelBenchForward(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        (Path(self.dir.name) / "level2").mkdir()
        (Path(self.dir.name) / "level2" / "7_Linear_ReLU.py").write_text(KERNELBENCH_FILE)
        self.problem = self.problem_at([8, 8])

    @staticmethod
    def problem_at(x_shape):
        """The description at one shape set: kbv's x at that set's shape (check_kernelbench_shapes
        holds KernelBench's tensors to it)."""
        return {"name": "linear_relu", "source": "kernelbench",
                "kernelbench": {"level": 2, "id": 7, "file": "7_Linear_ReLU.py", "globals": {"small": {"batch_size": 4}}},
                "inputs": [{"name": "x", "shape": x_shape, "role": "activation"}], "outputs": [], "graph": []}

    def tearDown(self):
        self.dir.cleanup()

    def test_the_model_runs_at_the_shape_sets_sizes_with_derived_sizes_following(self):
        default = problem_forward(torch, self.problem, "default", self.dir.name, "cpu")
        self.assertRegex(default.kind, r"^kernelbench:level2/7_Linear_ReLU\.py@sha256:[0-9a-f]{16}$")  # the file's digest: which Model was timed
        self.assertEqual(tuple(default.tensors[0].shape), (8, 8))
        small = problem_forward(torch, self.problem_at([2, 8]), "small", self.dir.name, "cpu")
        self.assertEqual(tuple(small.tensors[0].shape), (2, 8))  # half = batch_size // 2 follows the override
        self.assertEqual(small.tensors[1], 2.0)  # a non-tensor argument passes as it is
        self.assertEqual(tuple(small.eager().shape), (2, 8))

    def test_kernelbench_tensors_of_other_sizes_than_kbvs_are_refused(self):
        with self.assertRaisesRegex(NoForward, r"get_inputs\(\) gives x of shape \[2, 8\], kbv times \[8, 8\]"):
            problem_forward(torch, self.problem, "small", self.dir.name, "cpu")

    def test_without_a_checkout_or_with_a_wrong_one_it_says_the_fix(self):
        with self.assertRaisesRegex(NoForward, "fix: pass --kernelbench DIR"):
            problem_forward(torch, self.problem, "default", None, "cpu")
        with self.assertRaisesRegex(NoForward, "level2/7_Linear_ReLU.py not found"):
            problem_forward(torch, self.problem, "default", "/nonexistent", "cpu")

    def test_a_global_that_is_not_a_module_level_assignment_is_refused(self):
        with self.assertRaisesRegex(NoForward, "get_inputs_literal_0.*not module-level"):
            load_kernelbench_module(Path(self.dir.name) / "level2" / "7_Linear_ReLU.py", {"get_inputs_literal_0": 3})



class KernelBenchModuleLoading(unittest.TestCase):
    """The loaded file is a module torch.compile can find (no torch needed to check that)."""

    FILE = textwrap.dedent("""\
        scale = 2.0


        class Model:
            def __init__(self):
                pass

            def forward(self, x):
                return x * scale


        def get_inputs():
            return [1.0]


        def get_init_inputs():
            return []
        """)

    def test_each_load_is_its_own_module_registered_where_dynamo_looks_for_it(self):
        import inspect
        import sys
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "86_Matmul_Divide_GELU.py"
            path.write_text(self.FILE)
            default = load_kernelbench_module(path, {})
            small = load_kernelbench_module(path, {"scale": 3.0})
        # dynamo reads sys.modules[Model.__module__]; missing, every level-2 compile failed (r92).
        self.assertIs(sys.modules[default.Model.__module__], default)
        self.assertIs(inspect.getmodule(small.Model), small)
        self.assertNotEqual(default.__name__, small.__name__)
        self.assertEqual((default.Model().forward(1.0), small.Model().forward(1.0)), (2.0, 3.0))


class CompiledOutputContract(unittest.TestCase):
    """Forward.compiled's result is dense even when the compiled function returns a strided view
    (inductor's padded GEMM does after tracing a dense product): a stand-in torch, no torch needed."""

    class FakeTorch:
        class Tensor:
            def __init__(self, contiguous):
                self.dense = contiguous
                self.copies = 0

            def contiguous(self):
                if self.dense:
                    return self
                copy = type(self)(True)
                copy.copies = self.copies + 1
                return copy

        def __init__(self, returns_dense):
            self.returns_dense = returns_dense
            self.modes = []

        def compile(self, function, mode):
            # Like inductor after its trace: the function's own .contiguous() saw a dense product
            # and did nothing; what comes back has the layout the compiler chose.
            self.modes.append(mode)
            return lambda *tensors: self.Tensor(self.returns_dense)

    def test_a_strided_compiled_output_is_copied_to_a_dense_one(self):
        torch = self.FakeTorch(returns_dense=False)
        result = Forward("graph", lambda x: x, [object()]).compiled(torch, "max-autotune-no-cudagraphs")()
        self.assertTrue(result.dense)
        self.assertEqual(result.copies, 1)
        self.assertEqual(torch.modes, ["max-autotune-no-cudagraphs"])

    def test_a_dense_compiled_output_is_returned_as_it_is(self):
        torch = self.FakeTorch(returns_dense=True)
        result = Forward("graph", lambda x: x, [object()]).compiled(torch, "default")()
        self.assertTrue(result.dense)
        self.assertEqual(result.copies, 0)


if __name__ == "__main__":
    unittest.main()
