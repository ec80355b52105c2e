#!/usr/bin/env python3
"""test_torch_parity.py — torch_parity.py's helpers that need no GPU or PyTorch: shape
resolution, the kbv log parser, .npy writing in slabs, table cells, arguments, and (when
KBV_BIN names a kbv binary) the kbv export / compare-outputs round trip on the host device,
with PyTorch on the CPU where it is installed.

Run: KBV_BIN=build/bin/kbv python3 -m unittest bench/torch_parity/test_torch_parity.py
(needs numpy and PyYAML; the kbv round trip is skipped without KBV_BIN).
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_parity as tp  # noqa: E402

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


class Helpers(unittest.TestCase):
    def test_resolve_mixes_literals_and_symbols(self):
        self.assertEqual(tp.resolve(["batch", 3, "3", "dim"], {"batch": 2, "dim": 7}), [2, 3, 3, 7])

    def test_kbv_medians_reads_both_modes_per_problem(self):
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "log"
            log.write_text("-- relu\n  tf32 median 1.25 ms (n=10)\n  fp32 median 2.5 ms\n-- bmm\n  tf32 median 0.5 ms\nnoise\n")
            self.assertEqual(tp.kbv_medians(log), {"relu": {"tf32": 1.25, "fp32": 2.5}, "bmm": {"tf32": 0.5}})

    def test_write_npy_slabs_round_trips(self):
        with tempfile.TemporaryDirectory() as d:
            full = np.arange(7 * 3 * 2, dtype=np.float32).reshape(7, 3, 2) / 3
            path = Path(d) / "y.npy"
            tp.write_npy_slabs(path, full.shape, ((s, full[s:s + 3]) for s in range(0, 7, 3)))
            read = np.load(path)
            self.assertEqual(read.dtype, np.float32)
            np.testing.assert_array_equal(read, full)
            tp.write_npy_slabs(Path(d) / "s.npy", (), [(0, np.float32(2.5))])
            self.assertEqual(np.load(Path(d) / "s.npy").shape, ())
            self.assertEqual(float(np.load(Path(d) / "s.npy")), 2.5)

    def test_agreement_cells(self):
        self.assertEqual(tp.agreement_cell(None), "-")
        self.assertEqual(tp.agreement_cell({"passed": True, "max_abs_error": 1.5e-3, "rel_l2_error": 4e-4}),
                         "yes (max abs 1.50e-03, rel L2 4.00e-04)")
        self.assertEqual(tp.agreement_cell({"passed": False, "max_abs_error": None, "rel_l2_error": None}), "NO (max abs inf, rel L2 inf)")
        self.assertTrue(tp.agreement_cell({"error": "a | b"}).startswith("error: a / b"))

    def test_arguments(self):
        args = tp.parse_args(["problems", "--only", "agreement", "--kbv", "/x/kbv"])
        self.assertEqual((args.only, args.kbv, args.tmp, args.bench_log), ("agreement", "/x/kbv", "/dev/shm/kbv-parity", None))
        self.assertIsNone(tp.parse_args(["problems", "log"]).only)
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            tp.parse_args(["problems", "--only", "both"])

    def test_graph_runner_names_missing_inputs(self):
        spec = {"name": "p", "inputs": [{"name": "x"}, {"name": "w"}], "outputs": [{"name": "y"}], "graph": []}
        with self.assertRaisesRegex(ValueError, "w"):
            tp.graph_runner(spec, {"x": None})


@unittest.skipUnless(os.environ.get("KBV_BIN"), "set KBV_BIN to a kbv binary to run the export/compare round trip")
class KbvRoundTrip(unittest.TestCase):
    def setUp(self):
        self.kbv = os.environ["KBV_BIN"]
        self.dir = tempfile.TemporaryDirectory()
        self.export = Path(self.dir.name) / "export"
        self.outputs = Path(self.dir.name) / "outputs"
        self.outputs.mkdir()

    def tearDown(self):
        self.dir.cleanup()

    def test_relu_outputs_from_numpy_pass_and_a_wrong_one_fails(self):
        manifest = tp.kbv_export(self.kbv, "relu", self.export, PROBLEMS, device="host", shapes="small")
        self.assertEqual(manifest["problem"], "relu")
        x = tp.load_input_arrays(self.export, manifest)["x"]
        y = np.maximum(x, 0)
        tp.write_npy_slabs(self.outputs / "y.npy", y.shape, [(0, y[:5]), (5, y[5:])])
        report = tp.kbv_compare(self.kbv, self.export, self.outputs)
        self.assertTrue(report["passed"], report)
        y = y.copy()
        y[3, 7] += 1.0
        np.save(self.outputs / "y.npy", y)
        report = tp.kbv_compare(self.kbv, self.export, self.outputs)
        self.assertFalse(report["passed"])
        self.assertEqual(report["outputs"][0]["violations"], 1)
        np.save(self.outputs / "y.npy", y[:4])
        with self.assertRaisesRegex(tp.KbvError, "shape"):
            tp.kbv_compare(self.kbv, self.export, self.outputs)

    @unittest.skipUnless(tp.torch is not None, "PyTorch is not installed")
    def test_pytorch_on_the_cpu_agrees_in_both_modes(self):
        import yaml
        args = tp.parse_args([str(PROBLEMS), "--only", "agreement", "--kbv", self.kbv, "--tmp", self.dir.name,
                              "--device", "host", "--shapes", "small"])
        for name in ("relu", "conv2d_relu_biasadd", "layernorm"):
            spec = yaml.safe_load((PROBLEMS / f"{name}.yaml").read_text())
            reports = tp.output_agreement(spec, PROBLEMS, args)
            for mode, _ in tp.MODES:
                self.assertTrue(reports[mode].get("passed"), f"{name} {mode}: {reports[mode]}")
            self.assertFalse((Path(self.dir.name) / name).exists(), "the per-problem directory must be removed")

    def test_export_errors_raise_with_kbvs_message(self):
        with self.assertRaisesRegex(tp.KbvError, "no_such_problem"):
            tp.kbv_export(self.kbv, "no_such_problem", self.export, PROBLEMS, device="host", shapes="small")


if __name__ == "__main__":
    unittest.main()
