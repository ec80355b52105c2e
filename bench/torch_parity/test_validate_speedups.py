#!/usr/bin/env python3
"""test_validate_speedups.py — the validation bench's pieces on the CPU: kbv candidates loaded
through the C ABI with ctypes (kbv_plugin.py) compute what PyTorch computes on the same tensors,
a failing status raises with its name, and validate_speedups.py end to end on the host device
reports every row and says why kbv has no derived figure there.

Run: KBV_BIN=build/bin/kbv KBV_CANDIDATE_DIR=build/candidates python -m unittest bench/torch_parity/test_validate_speedups.py
(needs torch, CPU is enough; the ctest bench_torch_parity_validate sets these)."""
import contextlib
import io
import os
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    import torch
except ImportError:
    torch = None

CANDIDATES = Path(os.environ.get("KBV_CANDIDATE_DIR", "build/candidates"))
needs_torch = unittest.skipUnless(torch is not None, "torch is not installed in this Python")
needs_candidates = unittest.skipUnless((CANDIDATES / "host" / "libhost_relu.so").is_file(), f"no host candidates in {CANDIDATES} (set KBV_CANDIDATE_DIR)")


class Placement(unittest.TestCase):
    """placement.py's arena: kbv's layout (eval/arena_layout.cpp), views that hold the inputs."""

    def test_alignment_is_kbvs(self):
        import placement
        self.assertEqual([placement.aligned(n) for n in (1, 256, 257, 1000)], [256, 256, 512, 1024])

    @needs_torch
    def test_views_hold_the_inputs_at_aligned_offsets(self):
        import placement
        inputs = [torch.randn(3, 5), torch.arange(7, dtype=torch.int64)]
        outputs = [torch.empty(2, 2)]
        arena, got_in, got_out = placement.arena_views(torch, inputs, outputs, device="cpu")
        self.assertEqual(arena.numel(), placement.ARENA_SLOTS * (256 + 256 + 256))
        for view, tensor in zip(got_in, inputs):
            self.assertTrue(torch.equal(view, tensor))
            self.assertEqual(view.dtype, tensor.dtype)
        base = arena.data_ptr()
        self.assertEqual([v.data_ptr() - base for v in got_in + got_out], [0, 256, 512])
        self.assertEqual(tuple(got_out[0].shape), (2, 2))


class Judgement(unittest.TestCase):
    """validate_speedups.judge, no torch needed."""

    def test_within_outside_and_without_a_derived_figure(self):
        from validate_speedups import judge
        same = {"candidate": 1980, "eager": 1980}
        self.assertEqual(judge(0.98, 1.0, 0.001, same, 0.05)[0], "yes")
        self.assertEqual(judge(0.90, 1.0, 0.001, same, 0.05)[0], "NO")
        self.assertEqual(judge(None, 1.0, 0.001, same, 0.05), ("NO", None))
        self.assertEqual(judge(0.98, 1.0, 0.5, same, 0.05)[0], "NO", "an output unlike PyTorch's: the call is wired wrong")

    def test_do_bench_clocks_apart_validate_nothing(self):
        from validate_speedups import judge
        outcome, off = judge(0.096, 0.103, 0.001, {"candidate": 1980, "eager": 1770}, 0.05)  # matmul_square, H100, 2026-12-06
        self.assertEqual(outcome, "clocks apart")
        self.assertAlmostEqual(off, 0.096 / 0.103 - 1)
        self.assertEqual(judge(0.98, 1.0, 0.001, {"candidate": 1980, "eager": 1950}, 0.05)[0], "yes", "1.5 % apart: one clock")
        self.assertEqual(judge(0.98, 1.0, 0.001, {"candidate": None, "eager": 1770}, 0.05)[0], "yes", "no reading: nothing to compare")


class Pacing(unittest.TestCase):
    """validate_speedups.paced, with a stand-in do_bench, clock and sleep (no torch, no GPU)."""

    def test_each_burst_rests_so_the_busy_fraction_is_the_duty_and_the_median_is_kept(self):
        from validate_speedups import PACED_BURST_MS, paced
        now, rests, calls, results = [0.0], [], [], iter([3.0, 1.0, 2.0, 5.0, 4.0])

        def do_bench(fn, warmup, rep, return_mode):
            calls.append((warmup, rep, return_mode))
            fn()
            now[0] += 0.08  # each burst keeps the GPU busy 80 ms
            return next(results)

        def sleep(seconds):
            rests.append(seconds)
            now[0] += seconds
        ran = []
        median = paced(do_bench, 0.25, bursts=5, sleep=sleep, clock=lambda: now[0])(lambda: ran.append(1))
        self.assertEqual(median, 3.0)
        self.assertEqual(len(ran), 5)
        self.assertEqual({c[1:] for c in calls}, {(PACED_BURST_MS, "median")})
        for rest in rests:
            self.assertAlmostEqual(rest, 0.24)  # 80 ms busy, 240 ms rest: a duty of 0.25
        self.assertAlmostEqual(0.08 * 5 / now[0], 0.25)

    def test_gated_samples_rest_to_the_duty_drop_uncovered_ones_and_keep_the_median(self):
        from validate_speedups import GATED_MIN_SAMPLES, GATED_WARMUP_CALLS, gated
        now, rests, indices = [0.0], [], []
        # Warm-up calls first (their figures unused), then one dropped sample (the gate ended
        # before the host enqueued it), then timed ones of 2, 4, 6 … ms.
        figures = iter([9.0] * GATED_WARMUP_CALLS + [None] + [0.002 * (k % 5 + 1) for k in range(100)])

        def sample(fn, index):
            indices.append(index)
            fn()
            taken = next(figures)
            now[0] += taken or 0.001
            return taken

        def sleep(seconds):
            rests.append(seconds)
            now[0] += seconds
        ran = []
        median = gated(sample, 0.25, seconds=0.1, sleep=sleep, clock=lambda: now[0])(lambda: ran.append(1))
        self.assertEqual(indices, list(range(len(indices))), "every sample gets a new flush value")
        kept = len(indices) - GATED_WARMUP_CALLS - 1
        self.assertGreaterEqual(kept, GATED_MIN_SAMPLES)
        self.assertEqual(len(rests), kept, "a rest after each kept sample, none after the dropped one")
        for rest, k in zip(rests, range(kept)):
            self.assertAlmostEqual(rest, 3 * 0.002 * (k % 5 + 1))  # busy t, rest 3t: a duty of 0.25
        self.assertEqual(median, 6.0)  # ms: the middle of 2, 4, 6, 8, 10 repeated

    def test_gated_gives_up_when_the_gate_never_covers_the_enqueue(self):
        from validate_speedups import MAX_OVERRUNS_IN_A_ROW, gated
        with self.assertRaisesRegex(RuntimeError, f"{MAX_OVERRUNS_IN_A_ROW} times in a row"):
            gated(lambda fn, index: None, 1.0, sleep=lambda s: None)(lambda: None)

    def test_a_duty_outside_0_to_1_is_refused_with_the_fix(self):
        from validate_speedups import parse_args
        for bad in ("0", "1.5", "-0.25"):
            with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
                parse_args(["--kbv", "kbv", "--candidates", "c", "--duty", bad])
            self.assertIn("fix: 0.25 paces as kbv does", err.getvalue())
        self.assertEqual(parse_args(["--kbv", "kbv", "--candidates", "c"]).duty, 1.0, "unpaced unless asked")
        self.assertEqual(parse_args(["--kbv", "kbv", "--candidates", "c"]).timer, "do_bench", "the field's timer unless asked")


@needs_torch
@needs_candidates
class Plugin(unittest.TestCase):
    def test_host_relu_through_the_c_abi_is_torch_relu(self):
        from kbv_plugin import DEVICE_HOST, Plugin
        plugin = Plugin.load(CANDIDATES / "host" / "libhost_relu.so")
        self.assertEqual((plugin.problem, plugin.device), ("relu", DEVICE_HOST))
        x = torch.randn(8, 16)
        y = torch.full((8, 16), float("nan"))
        plugin.call({"x": x}, {"y": y}, {})()
        torch.testing.assert_close(y, torch.relu(x))
        plugin.close()

    def test_attributes_reach_the_candidate(self):
        from kbv_plugin import Plugin
        plugin = Plugin.load(CANDIDATES / "host" / "libhost_matmul_scale_residual.so")
        x, w, b = torch.rand(4, 8), torch.rand(6, 8), torch.rand(6)
        y = torch.empty(4, 6)
        plugin.call({"x": x, "weight": w, "bias": b}, {"y": y}, {"scaling.value": 0.5})()
        z = x @ w.T + b
        torch.testing.assert_close(y, z * 0.5 + z)

    def test_a_failing_status_raises_with_its_name(self):
        from kbv_plugin import Plugin, PluginError
        plugin = Plugin.load(CANDIDATES / "hostile" / "libhostile_relu_refuses.so")
        with self.assertRaisesRegex(PluginError, "run\\(\\) returned UNSUPPORTED"):
            plugin.call({"x": torch.rand(2, 2)}, {"y": torch.empty(2, 2)}, {})()

    def test_int64_targets_reach_an_abi_2_candidate(self):
        # cross_entropy's class indices: the loader offered ABI 1 only and refused them (r92, H100).
        from kbv_plugin import Plugin
        plugin = Plugin.load(CANDIDATES / "host" / "libhost_cross_entropy.so")
        self.assertEqual(plugin.abi_version, 2)
        predictions, targets = torch.randn(6, 5), torch.randint(0, 5, (6,))
        loss = torch.empty(())
        plugin.call({"predictions": predictions, "targets": targets}, {"loss": loss}, {})()
        torch.testing.assert_close(loss, torch.nn.functional.cross_entropy(predictions, targets))

    def test_non_float32_tensors_are_refused(self):
        from kbv_plugin import Plugin, PluginError
        plugin = Plugin.load(CANDIDATES / "host" / "libhost_relu.so")
        with self.assertRaisesRegex(PluginError, "float32"):
            plugin.call({"x": torch.rand(2, 2, dtype=torch.float64)}, {"y": torch.empty(2, 2)}, {})
        with self.assertRaisesRegex(PluginError, "y: .*got torch.int64"):  # int64 is for inputs only
            plugin.call({"x": torch.rand(2, 2)}, {"y": torch.empty(2, 2, dtype=torch.int64)}, {})


@needs_torch
@needs_candidates
@unittest.skipUnless(os.environ.get("KBV_BIN"), "set KBV_BIN to a kbv binary")
class EndToEnd(unittest.TestCase):
    def test_the_host_run_reports_each_row_and_why_there_is_no_derived_figure(self):
        import validate_speedups
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = validate_speedups.main(["--kbv", os.environ["KBV_BIN"], "--candidates", str(CANDIDATES / "host"), "--device", "host",
                                             "--problem", "relu", "--problem", "gemm_bias_gelu", "--problem", "cross_entropy",
                                             "--rounds", "1"])
        text = out.getvalue()
        self.assertEqual(status, 1, text)  # no calibration on the host: nothing can be within 5 %
        self.assertIn("| libhost_relu.so | relu |", text)
        self.assertIn("| libhost_gemm_bias_gelu.so | gemm_bias_gelu |", text)
        self.assertIn("| libhost_cross_entropy.so | cross_entropy |", text)
        self.assertNotIn("direct measurement failed", text)
        self.assertIn("no derived speedup: PyTorch baselines are calibrated on CUDA GPUs", text)
        self.assertNotIn("wired wrong", text)
        self.assertIn("0 of 3 candidate(s) within 5%", text)


if __name__ == "__main__":
    unittest.main()
