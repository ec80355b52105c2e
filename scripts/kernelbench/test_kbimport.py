#!/usr/bin/env python3
"""test_kbimport.py — the importer's pieces on synthetic KernelBench files: size globals and
literals as knobs, names, reshape lowering, symbols, YAML numbers, the coverage ranking, and
(where PyTorch is installed) a capture-map-emit round trip.

Run: python3 -m unittest scripts/kernelbench/test_kbimport.py (PyTorch parts skip without it).
"""
import json
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kbimport import coverage, emit  # noqa: E402
from kbimport.source import ProblemSource, problem_id, snake_name  # noqa: E402

try:
    import torch  # noqa: F401
    from kbimport import aten_map, shapes
    from kbimport.shapes import Capture as shapes_capture
    from kbimport.importer import Record, default_kbv, import_one, main as importer_main
except ImportError:  # pragma: no cover
    torch = None

PROBLEM = textwrap.dedent("""
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            self.fc = nn.Linear(in_features, out_features)

        def forward(self, x):
            return torch.relu(self.fc(x)) * 2.0

    batch_size = 4096
    in_features = height = 512
    out_features = in_features * 2
    input_shape = (512,)

    def get_inputs():
        return [torch.rand(batch_size, in_features)]

    def get_init_inputs():
        return [in_features, out_features]
""")


def write_problem(folder, name, text=PROBLEM):
    path = Path(folder) / name
    path.write_text(text)
    return path


class Source(unittest.TestCase):
    def test_names(self):
        self.assertEqual(snake_name("19_ReLU.py"), "relu")
        self.assertEqual(snake_name("57_conv_transposed_2D__square_input__square_kernel.py"),
                         "conv_transposed_2d_square_input_square_kernel")
        self.assertEqual(problem_id("12_Gemm_Multiply_LeakyReLU.py"), 12)
        with self.assertRaises(ValueError):
            problem_id("model.py")

    def test_knobs_include_chained_tuple_and_derived_globals(self):
        with tempfile.TemporaryDirectory() as folder:
            source = ProblemSource(write_problem(folder, "1_Toy.py"))
            self.assertEqual(source.knobs["batch_size"], 4096)
            self.assertEqual(source.knobs["in_features"], 512)
            self.assertEqual(source.knobs["height"], 512)  # `in_features = height = 512` is two knobs
            self.assertEqual(source.knobs["out_features"], 1024)
            self.assertEqual(source.knobs["input_shape"], (512,))

    def test_overrides_flow_into_derived_globals(self):
        with tempfile.TemporaryDirectory() as folder:
            module = ProblemSource(write_problem(folder, "1_Toy.py")).load({"in_features": 8, "input_shape": (3,)})
            self.assertEqual((module.in_features, module.out_features, module.height), (8, 16, 512))
            self.assertEqual(module.input_shape, (3,))

    def test_literals_in_get_inputs_become_knobs(self):
        text = PROBLEM.replace("torch.rand(batch_size, in_features)", "torch.rand(batch_size, 3, 224, 224)")
        with tempfile.TemporaryDirectory() as folder:
            source = ProblemSource(write_problem(folder, "2_Toy.py", text))
            self.assertEqual(source.knobs["get_inputs_literal_0"], 3)
            self.assertEqual(source.knobs["get_inputs_literal_1"], 224)
            module = source.load({"get_inputs_literal_2": 16})
            self.assertEqual(module.get_inputs_literal_2, 16)


class Emit(unittest.TestCase):
    def test_numbers_read_back_as_floats_in_any_yaml(self):
        self.assertEqual([emit.number(v) for v in (1e-05, 0.1, 2.0, 3, float("inf"), float("-inf"))],
                         ["1.0e-05", "0.1", "2", "3", ".inf", "-.inf"])


class Coverage(unittest.TestCase):
    @staticmethod
    def record(status, missing):
        r = Record.__new__(Record)
        r.__dict__.update(level=1, id=len(missing), status=status, missing=missing, reason="", ops=[], nondeterministic="",
                          curated=None, file="x.py", name="kb", gpu_only=False)
        return r

    def test_greedy_order_completes_the_most_problems_first(self):
        records = [self.record("refused", ["a"]), self.record("refused", ["a"]), self.record("refused", ["b"]),
                   self.record("refused", ["a", "b"]), self.record("imported", [])]
        order = coverage.greedy_order(records)
        self.assertEqual([(f, n) for f, n, _ in order], [("a", 2), ("b", 2)])
        self.assertEqual(order[-1][2], 5)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class Mapping(unittest.TestCase):
    def test_reshape_lowering(self):
        steps = aten_map._reshape_steps
        self.assertEqual(steps([4, 8, 1, 1], [4, 8]), [("flatten", {"start_axis": 1, "end_axis": 3})])
        self.assertEqual([s[:2] for s in steps([16384, 2, 128], [16384, 8, 32])],
                         [("flatten", {"start_axis": 1, "end_axis": 2}), ("unflatten", {"axis": 1, "size": 8})])
        self.assertEqual(steps([16], [1, 16, 1]), [("unsqueeze", {"axis": 0}), ("unsqueeze", {"axis": 2})])
        swin = steps([10, 56, 56, 96], [10, 8, 7, 8, 7, 96])
        self.assertEqual([s[1] for s in swin], [{"axis": 2, "size": 8}, {"axis": 1, "size": 8}])
        self.assertEqual([s[2] for s in swin], [{"size": -7}, {"size": -7}])

    def test_reshape_to_and_from_rank_0(self):
        steps = aten_map._reshape_steps
        self.assertEqual(steps([], [1, 1]), [("unsqueeze", {"axis": 0}), ("unsqueeze", {"axis": 1})])
        self.assertEqual(steps([1], []), [("squeeze", {"axis": 0})])

    def mapped(self, forward, shapes):
        """The kbv graph of a model whose forward is `forward` (one line) on inputs of `shapes`."""
        names = ", ".join(f"x{i}" for i in range(len(shapes)))
        text = textwrap.dedent(f"""
            import torch
            import torch.nn as nn

            class Model(nn.Module):
                def forward(self, {names}):
                    return {forward}

            def get_inputs():
                return [{", ".join(f"torch.rand{tuple(s)}" for s in shapes)}]

            def get_init_inputs():
                return []
        """)
        with tempfile.TemporaryDirectory() as folder:
            return shapes_capture(ProblemSource(write_problem(folder, "6_Toy.py", text)), {}).graph

    def test_layout_views_map_to_layout_ops(self):
        graph = self.mapped("torch.flip(x0.permute(2, 0, 1), [0, 2]).squeeze().contiguous()", [(3, 1, 4)])
        self.assertEqual([(n.op, n.attrs) for n in graph.nodes],
                         [("transpose", {"axis0": 0, "axis1": 2}), ("transpose", {"axis0": 1, "axis1": 2}),
                          ("flip", {"axis": 0}), ("flip", {"axis": 2}), ("squeeze", {"axis": 2})])

    def test_expand_a_consumer_broadcasts_is_dropped(self):
        graph = self.mapped("x0.expand(4, 8) * x1", [(1, 8), (4, 8)])
        self.assertEqual([(n.op, n.inputs) for n in graph.nodes], [("mul", ["x0", "x1"])])

    def test_expand_that_makes_an_axis_is_refused(self):
        with self.assertRaises(aten_map.Unmappable) as refusal:
            self.mapped("x0.expand(4, 3, 8) * x1", [(1, 8), (3, 1)])
        self.assertEqual(refusal.exception.op, "aten.expand")
        with self.assertRaises(aten_map.Unmappable):
            self.mapped("torch.cat([x0.expand(4, 8), x1], 1)", [(1, 8), (4, 8)])

    def test_import_round_trip(self):
        with tempfile.TemporaryDirectory() as folder:
            path = write_problem(folder, "3_Toy.py")
            record = Record(2, path)
            import_one(record, {}, lambda message: None)
            self.assertEqual(record.status, "imported", record.reason)
            self.assertEqual(record.name, "kb_l2_3_toy")
            self.assertEqual(record.ops, ["linear", "relu", "scale"])
            text = record.yaml
            self.assertIn("kernelbench: {level: 2, id: 3, file: 3_Toy.py, globals: {small:", text)
            self.assertIn("{name: fc_weight, shape: [out_features, in_features], role: parameter, scale: inv_sqrt_fan_in, torch_name: fc.weight}", text)
            self.assertIn("attrs: {value: 2}", text)
            self.assertIn("default: {batch_size: 4096, in_features: 512, out_features: 1024}", text)

    def test_refuses_an_op_kbv_lacks_naming_it(self):
        text = PROBLEM.replace("torch.relu(self.fc(x)) * 2.0", "torch.nn.functional.dropout(self.fc(x), p=0.5, training=True)")
        with tempfile.TemporaryDirectory() as folder:
            record = Record(1, write_problem(folder, "4_Toy.py", text))
            import_one(record, {}, lambda message: None)
            self.assertEqual((record.status, record.missing), ("refused", ["dropout"]))

    CROSS_ENTROPY = textwrap.dedent("""
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def forward(self, predictions, targets, mask):
                return torch.nn.functional.cross_entropy(predictions * mask, targets)

        batch_size = 4096
        num_classes = 1000

        def get_inputs():
            x = torch.rand(batch_size, num_classes)
            return [x, torch.randint(0, num_classes, (batch_size,)), torch.randint(0, 2, x.shape).bool()]

        def get_init_inputs():
            return []
    """)

    def test_int64_and_bool_inputs_import_with_their_dtype_and_range(self):
        with tempfile.TemporaryDirectory() as folder:
            record = Record(1, write_problem(folder, "6_Toy.py", self.CROSS_ENTROPY))
            import_one(record, {}, lambda message: None)
            self.assertEqual(record.status, "imported", record.reason)
            self.assertEqual(record.ops, ["mul", "cross_entropy"])
            text = record.yaml
            self.assertIn("{name: targets, shape: [batch_size], dtype: int64, range: {low: 0, high: num_classes}, role: activation, "
                          "torch_name: targets}", text)
            self.assertIn("{name: mask, shape: [batch_size, num_classes], dtype: bool, role: activation, torch_name: mask}", text)
            self.assertIn("{name: y, shape: []}", text)

    def test_cross_entropy_beyond_the_defaults_is_refused_naming_the_argument(self):
        for call, reason in (("label_smoothing=0.1", "label_smoothing=0.1"), ("ignore_index=3", "ignore_index=3"),
                             ("reduction='sum'", "reduction 2"), ("weight=self.weight", "class weights")):
            text = self.CROSS_ENTROPY.replace("predictions * mask, targets)", f"predictions * mask, targets, {call})")
            text = text.replace("class Model(nn.Module):\n", "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                                           "        self.weight = nn.Parameter(torch.ones(1000))\n\n")
            with tempfile.TemporaryDirectory() as folder:
                record = Record(1, write_problem(folder, "7_Toy.py", text))
                import_one(record, {}, lambda message: None)
                self.assertEqual(record.status, "refused", call)
                self.assertIn(reason, record.reason, call)

    def test_an_int64_input_not_drawn_by_randint_is_refused(self):
        text = self.CROSS_ENTROPY.replace("torch.randint(0, num_classes, (batch_size,))", "torch.arange(batch_size) % num_classes")
        with tempfile.TemporaryDirectory() as folder:
            record = Record(1, write_problem(folder, "8_Toy.py", text))
            import_one(record, {}, lambda message: None)
            self.assertEqual(record.status, "refused")
            self.assertIn("not drawn by torch.randint", record.reason)
    def import_forward(self, forward, inputs, name="6_Toy.py"):
        """The record of a toy problem whose forward(a, b, c) returns `forward` on `inputs` (get_inputs' body)."""
        text = textwrap.dedent(f"""
            import torch
            import torch.nn.functional as F

            class Model(torch.nn.Module):
                def forward(self, a, b, c=None):
                    return {forward}

            def get_inputs():
                return {inputs}

            def get_init_inputs():
                return []
        """)
        with tempfile.TemporaryDirectory() as folder:
            record = Record(1, write_problem(folder, name, text))
            import_one(record, {}, lambda message: None)
        return record

    def test_transposes_feeding_a_matmul_become_its_flags(self):
        record = self.import_forward("torch.matmul(a.T, b.T)", "[torch.rand(64, 32), torch.rand(48, 64)]")
        self.assertEqual((record.status, record.ops), ("imported", ["matmul"]), record.reason)
        self.assertIn("attrs: {transpose_a: 1, transpose_b: 1}", record.yaml)
        record = self.import_forward("torch.bmm(a, b.transpose(1, 2))", "[torch.rand(4, 16, 32), torch.rand(4, 24, 32)]")
        self.assertEqual((record.status, record.ops), ("imported", ["matmul"]), record.reason)
        self.assertIn("attrs: {transpose_a: 0, transpose_b: 1}", record.yaml)

    def test_a_broadcast_matmul_is_one_matmul(self):
        record = self.import_forward("torch.matmul(a, b)", "[torch.rand(4, 16, 32), torch.rand(32, 24)]")
        self.assertEqual((record.status, record.ops), ("imported", ["matmul"]), record.reason)
        record = self.import_forward('torch.einsum("bijl,lk->bijk", a, b)', "[torch.rand(2, 3, 16, 32), torch.rand(32, 24)]")
        self.assertEqual((record.status, record.ops), ("imported", ["matmul"]), record.reason)

    CAUSAL = textwrap.dedent("""
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def __init__(self, max_seqlen):
                super().__init__()
                self.register_buffer("bias", torch.MASK(torch.ones(max_seqlen, max_seqlen)).view(1, 1, max_seqlen, max_seqlen))

            def forward(self, att):
                T = att.size(-1)
                return torch.softmax(att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf')), dim=-1)

        batch_size = 8
        seq_len = 48
        max_seqlen = 64

        def get_inputs():
            return [torch.rand(batch_size, 4, seq_len, seq_len)]

        def get_init_inputs():
            return [max_seqlen]
    """)

    def test_a_causal_mask_buffer_becomes_tril_with_its_fill(self):
        with tempfile.TemporaryDirectory() as folder:
            record = Record(3, write_problem(folder, "43_Toy.py", self.CAUSAL.replace("MASK", "tril")))
            import_one(record, {}, lambda message: None)
            self.assertEqual((record.status, record.ops), ("imported", ["tril", "softmax"]), record.reason)
            self.assertIn("op: tril, inputs: [att], output: t0, attrs: {diagonal: 0, fill: -.inf}", record.yaml)
            # Any other constant mask is a constant kbv cannot carry: refused, naming the buffer.
            record = Record(3, write_problem(folder, "44_Toy.py", self.CAUSAL.replace("MASK", "triu")))
            import_one(record, {}, lambda message: None)
            self.assertEqual(record.status, "refused")
            self.assertIn("buffer 'bias'", record.reason)

    def test_an_input_named_y_keeps_its_name_and_the_output_takes_another(self):
        # KernelBench L2 #28: forward(x, y) returns a tensor computed from y; the output must not be
        # written to y, which kbv's loader rejects (each tensor is written once).
        text = textwrap.dedent("""
            import torch

            class Model(torch.nn.Module):
                def forward(self, x, y):
                    return (x + y) * y

            def get_inputs():
                return [torch.rand(8, 16), torch.rand(8, 16)]

            def get_init_inputs():
                return []
        """)
        with tempfile.TemporaryDirectory() as folder:
            record = Record(2, write_problem(folder, "28_Toy.py", text))
            import_one(record, {}, lambda message: None)
        self.assertEqual(record.status, "imported", record.reason)
        self.assertIn("{name: y, shape:", record.yaml.split("outputs:")[0])
        self.assertIn("outputs:\n  - {name: out,", record.yaml)
        self.assertNotIn("output: y\n", record.yaml)

    @unittest.skipUnless(torch is not None and default_kbv(), "needs kbv built (build/bin/kbv)")
    def test_a_degenerate_problem_is_refused_and_an_honest_one_kept(self):
        # KernelBench L2 #80's shape: x minus its mean over a size-1 axis is 0 whatever the inputs.
        degenerate = PROBLEM.replace("torch.relu(self.fc(x)) * 2.0", "self.fc(x)[:, :1] - self.fc(x)[:, :1].mean(dim=1, keepdim=True)")
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "level1").mkdir()
            write_problem(Path(folder) / "level1", "1_Degenerate.py", degenerate)
            write_problem(Path(folder) / "level1", "2_Honest.py")
            out = Path(folder) / "out"
            self.assertEqual(importer_main([folder, "--level", "1", "--out", str(out), "--kbv", default_kbv(), "--problems-dir", folder]), 0)
            self.assertEqual(sorted(p.name for p in out.glob("*.yaml")), ["kb_l1_2_honest.yaml"])
            records = {r["id"]: r for r in json.loads((out / "coverage.json").read_text())}
            self.assertEqual(records[1]["status"], "refused")
            self.assertIn("degenerate", records[1]["reason"])

    def test_measured_gpu_findings_refuse_or_set_the_tolerance(self):
        from kbimport import measured
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "level3").mkdir()
            write_problem(Path(folder) / "level3", "24_IllConditioned.py")
            write_problem(Path(folder) / "level3", "10_Deep.py")
            refused = Record(3, Path(folder) / "level3" / "24_IllConditioned.py")
            import_one(refused, {}, lambda message: None)
            self.assertEqual((refused.status, refused.reason), ("refused", measured.ILL_CONDITIONED[(3, 24)]))
            deep = Record(3, Path(folder) / "level3" / "10_Deep.py")
            import_one(deep, {}, lambda message: None)
            self.assertEqual(deep.status, "imported")
            self.assertIn("tolerance: " + measured.TOLERANCE[(3, 10)][0], deep.yaml)

    # A whole model in miniature: weights fixed by literals (no global shrinks them) exceed the
    # host's element budget at any batch size, as L3's AlexNet or VGG do.
    WIDE = PROBLEM.replace("self.fc = nn.Linear(in_features, out_features)", "self.fc = nn.Linear(2048, 2048)")

    def test_a_problem_too_large_for_the_host_at_any_size_is_imported_gpu_only(self):
        with tempfile.TemporaryDirectory() as folder:
            record = Record(3, write_problem(folder, "9_Toy.py", self.WIDE.replace("in_features)]", "2048)]")))
            import_one(record, {}, lambda message: None)
            self.assertEqual(record.status, "imported", record.reason)
            self.assertTrue(record.gpu_only)
            self.assertIn('gpu_only: "no small shape set: no small sizes within budget', record.yaml)
            self.assertIn("default: {batch_size: 4096}", record.yaml)
            self.assertNotIn("small", record.yaml.split("gpu_only:")[1].split("\n", 1)[1])
            self.assertIn("(GPU only)", coverage.table([record]))

    @unittest.skipUnless(torch is not None and default_kbv(), "needs kbv built (build/bin/kbv)")
    def test_kbvs_loader_takes_a_gpu_only_import(self):
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "level3").mkdir()
            write_problem(Path(folder) / "level3", "9_Wide.py", self.WIDE.replace("in_features)]", "2048)]"))
            out = Path(folder) / "out"
            self.assertEqual(importer_main([folder, "--level", "3", "--out", str(out), "--kbv", default_kbv(), "--problems-dir", folder]), 0)
            self.assertEqual(sorted(p.name for p in out.glob("*.yaml")), ["kb_l3_9_wide.yaml"])
            self.assertIn("| 3 | 1 | 1 | 0 | 0 | 1 |", (out / "COVERAGE.md").read_text())

    def test_losses_map_to_one_node_each(self):
        two = "[torch.rand(64, 128), torch.rand(64, 128)]"
        for forward, op in (("F.smooth_l1_loss(a, b)", "smooth_l1_loss"),
                            ("F.kl_div(a, b, reduction='batchmean')", "kl_div"),
                            ("F.triplet_margin_loss(a, b, c, margin=0.5)", "triplet_margin_loss")):
            inputs = two if op != "triplet_margin_loss" else "[torch.rand(64, 128), torch.rand(64, 128), torch.rand(64, 128)]"
            record = self.import_forward(forward, inputs)
            self.assertEqual((record.status, record.ops), ("imported", [op]), f"{forward}: {record.reason}")
            self.assertIn("{name: y, shape: []}", record.yaml)
        record = self.import_forward("F.kl_div(a, b, reduction='mean')", two)
        self.assertEqual(record.status, "refused")
        self.assertIn("batchmean", record.reason)

    def test_attention_maps_to_sdpa(self):
        inputs = "[torch.rand(2, 4, 16, 8), torch.rand(2, 4, 24, 8), torch.rand(2, 4, 24, 8)]"
        record = self.import_forward("F.scaled_dot_product_attention(a, b, c, is_causal=True)", inputs)
        self.assertEqual((record.status, record.ops), ("imported", ["sdpa"]), record.reason)
        self.assertIn("attrs: {is_causal: 1, scale: 0}", record.yaml)
        record = self.import_forward("torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(a, b, c, scale=0.25)[0]",
                                     inputs)
        self.assertEqual((record.status, record.ops), ("imported", ["sdpa"]), record.reason)
        self.assertIn("attrs: {is_causal: 0, scale: 0.25}", record.yaml)

    def test_small_set_keeps_the_graph(self):
        with tempfile.TemporaryDirectory() as folder:
            source = ProblemSource(write_problem(folder, "5_Toy.py"))
            default = shapes.Capture(source, {})
            small, values, _ = shapes.derive_small(source, default)
            self.assertIsInstance(shapes.same_graph(default.graph, small.graph), dict)  # a str says what differs
            io = small.io_shapes()
            self.assertLess(io["x"][0] * io["x"][1], 4096 * 512)
            self.assertLess(io["y"][1], 1024)
            self.assertNotIn("height", values)  # a global no shape depends on is left alone


@unittest.skipIf(torch is None, "PyTorch is not installed")
class DecomposedNormsAndPools(unittest.TestCase):
    """The lowered forms PyTorch's default decompositions give norms and pools (when a table
    does not keep them whole) map onto the same kbv ops as the whole ones."""

    class Model(torch.nn.Module if torch else object):
        def __init__(self):
            super().__init__()
            self.inorm = torch.nn.InstanceNorm2d(4)
            self.inorm_affine = torch.nn.InstanceNorm2d(4, affine=True)
            self.gn = torch.nn.GroupNorm(2, 4)
            self.bn = torch.nn.BatchNorm2d(4)

        def forward(self, x):
            y = self.inorm(x) + self.inorm_affine(x) + self.gn(x) + self.bn(x)
            pooled = torch.nn.functional.max_pool2d(y, 2, return_indices=True)[0]
            return torch.nn.functional.adaptive_avg_pool2d(pooled, 3)

    def test_map_onto_kbv_ops(self):
        program = torch.export.export(self.Model(), (torch.rand(2, 4, 12, 12),))
        graph = aten_map.map_program(program.run_decompositions(torch.export.default_decompositions()))
        ops = [node.op for node in graph.nodes]
        self.assertEqual(ops, ["instancenorm", "instancenorm", "add", "groupnorm", "add", "batchnorm", "add", "maxpool2d",
                               "adaptive_avgpool2d"])
        self.assertEqual([len(node.inputs) for node in graph.nodes[:2]], [1, 3])
        self.assertEqual(graph.nodes[3].attrs, {"groups": 2, "eps": 1e-5})
        self.assertEqual(graph.nodes[8].attrs, {"output_size": 3})
        self.assertEqual(graph.missing(), [])

    def test_refuses_the_indices_of_a_max_pool(self):
        class Indices(torch.nn.Module):
            def forward(self, x):
                values, indices = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
                return values + indices.float()
        program = torch.export.export(Indices(), (torch.rand(1, 2, 8, 8),))
        with self.assertRaisesRegex(aten_map.Unmappable, "indices"):
            aten_map.map_program(program)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class SmallSizes(unittest.TestCase):
    def graph_of(self, module, x):
        return aten_map.map_program(torch.export.export(module, (x,)))

    def test_refuses_sizes_that_leave_a_norm_single_elements(self):
        # [N, C] with one channel per group: each group's output is its bias whatever x is.
        self.assertIn("single elements", shapes.single_element_statistics(self.graph_of(torch.nn.GroupNorm(4, 4), torch.rand(2, 4))))
        self.assertIsNone(shapes.single_element_statistics(self.graph_of(torch.nn.GroupNorm(2, 4), torch.rand(2, 4))))
        self.assertIsNone(shapes.single_element_statistics(self.graph_of(torch.nn.InstanceNorm1d(3), torch.rand(2, 3, 5))))


if __name__ == "__main__":
    unittest.main()
