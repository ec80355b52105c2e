"""test_server.py — kbv_torch's server on the CPU: the hello (and its errors when torch is missing),
measure replies for a graph problem, skips with the reason, errors that do not end the session,
torch.compile's baseline, and a protocol that survives a forward printing to stdout. Needs torch
for all but the no-torch hello."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from kbv_torch import server

try:
    import torch
except ImportError:
    torch = None

HERE = Path(__file__).resolve().parent
needs_torch = unittest.skipUnless(torch is not None, "torch is not installed in this Python (the GPU machine's python3 has it)")
QUICK = {"min_measured_seconds": 0.005, "warm_up_wall_seconds": 0.005, "max_wall_seconds": 0.5}
RELU = {"name": "relu", "source": "kbv", "kernelbench": None, "inputs": [{"name": "x", "shape": [64, 64], "scale": 1.0}],
        "outputs": [{"name": "y", "shape": [64, 64]}], "graph": [{"op": "relu", "inputs": ["x"], "output": "y", "attrs": {}}]}


def session(requests, device="cpu"):
    replies = []
    server.serve(server.Server(device), [json.dumps(r) for r in requests] + [json.dumps({"type": "exit"})], replies.append)
    return replies


def run_main(args, lines, env=None, python=sys.executable, extra=()):
    """The server as kbv-calibrate runs it: a process, JSON lines on stdin and stdout."""
    env = dict(env or os.environ, PYTHONPATH=str(HERE))
    return subprocess.run([python, *extra, "-m", "kbv_torch.server", *args], input="".join(json.dumps(l) + "\n" for l in lines),
                          capture_output=True, text=True, env=env, timeout=600)


class NoTorch(unittest.TestCase):
    def test_a_python_without_torch_says_so_in_its_hello_and_exits(self):
        done = run_main(["--device", "0"], [], extra=["-S"])  # -S: no site-packages, so no torch
        self.assertEqual(done.returncode, 0, done.stderr)
        hello = json.loads(done.stdout.splitlines()[0])
        self.assertEqual(hello["missing"], "torch")
        self.assertIn("cannot import torch", hello["error"])
        self.assertIn("fix: pass --python PATH", hello["error"])


@needs_torch
class Measure(unittest.TestCase):
    def test_eager_baselines_are_measured_and_named(self):
        hello, reply = session([{"type": "measure", "problem": RELU, "shape_set": "small", "baselines": ["eager_tf32", "eager_fp32"], "stop_rule": QUICK}])
        self.assertIsNone(hello["error"])
        self.assertEqual(hello["torch_version"], torch.__version__)
        self.assertEqual(reply["type"], "measured")
        self.assertEqual(reply["forward"], "graph")
        for name in ("eager_tf32", "eager_fp32"):
            self.assertGreater(reply["results"][name]["median_s"], 0)
            self.assertGreaterEqual(reply["results"][name]["samples"], 10)

    def test_no_forward_is_a_skip_and_a_bad_request_an_error_and_the_session_goes_on(self):
        cumsum = dict(RELU, graph=[{"op": "cumsum", "inputs": ["x"], "output": "y", "attrs": {}}])
        replies = session([{"type": "measure", "problem": cumsum, "shape_set": "small", "stop_rule": QUICK},
                           {"type": "measure", "problem": RELU, "shape_set": "small", "baselines": ["eager_bf16"], "stop_rule": QUICK},
                           {"type": "measure", "problem": RELU, "shape_set": "small", "stop_rule": {"max_noisy": 1}},
                           {"type": "frobnicate"},
                           {"type": "measure", "problem": RELU, "shape_set": "small", "baselines": ["eager_tf32"], "stop_rule": QUICK}])
        skipped, unknown_baseline, bad_rule, unknown_type, good = replies[1:]
        self.assertEqual(skipped["type"], "skipped")
        self.assertIn("cumsum", skipped["reason"])
        self.assertIn("unknown baseline 'eager_bf16'", unknown_baseline["results"]["eager_bf16"]["error"])
        self.assertEqual(bad_rule["type"], "error")
        self.assertIn("max_noisy", bad_rule["error"])
        self.assertEqual(unknown_type["type"], "error")
        self.assertEqual(good["type"], "measured")

    def test_the_math_mode_is_set_per_baseline(self):
        seen = []
        original = server.set_math_mode
        server.set_math_mode = lambda t, tf32: (seen.append(tf32), original(t, tf32))
        try:
            session([{"type": "measure", "problem": RELU, "shape_set": "small", "baselines": ["eager_tf32", "eager_fp32"], "stop_rule": QUICK}])
        finally:
            server.set_math_mode = original
        self.assertIn(True, seen)
        self.assertIn(False, seen)

    def test_a_forward_that_prints_cannot_break_the_protocol(self):
        with tempfile.TemporaryDirectory() as kb:
            (Path(kb) / "level1").mkdir()
            (Path(kb) / "level1" / "1_Noisy.py").write_text(textwrap.dedent('''
                import torch
                class Model(torch.nn.Module):
                    def forward(self, x):
                        print("hello from forward")
                        return x + 1
                def get_inputs():
                    return [torch.rand(4, 4)]
                def get_init_inputs():
                    return []
            '''))
            problem = {"name": "noisy", "source": "kernelbench", "kernelbench": {"level": 1, "id": 1, "file": "1_Noisy.py"},
                       "inputs": [{"name": "x", "shape": [4, 4], "role": "activation"}]}
            done = run_main(["--device", "cpu"], [{"type": "measure", "problem": problem, "shape_set": "default", "kernelbench_dir": kb,
                                                   "baselines": ["eager_tf32"], "stop_rule": QUICK}, {"type": "exit"}])
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual([r["type"] for r in replies], ["hello", "measured"])
        self.assertTrue(replies[1]["forward"].startswith("kernelbench:level1/1_Noisy.py@sha256:"), replies[1]["forward"])
        self.assertIn("hello from forward", done.stderr)

    def test_a_kernelbench_file_at_other_sizes_than_kbvs_is_a_skip(self):
        """Review: a checkout whose size globals differ from the import's timed PyTorch at other
        sizes than kbv's library, and the stored ratio scaled every derived speedup."""
        with tempfile.TemporaryDirectory() as kb:
            (Path(kb) / "level1").mkdir()
            (Path(kb) / "level1" / "2_Sized.py").write_text(textwrap.dedent('''
                import torch
                N = 8
                class Model(torch.nn.Module):
                    def forward(self, x):
                        return x + 1
                def get_inputs():
                    return [torch.rand(N, 4)]
                def get_init_inputs():
                    return []
            '''))
            problem = {"name": "sized", "source": "kernelbench", "kernelbench": {"level": 1, "id": 2, "file": "2_Sized.py", "globals": {"small": {"N": 2}}},
                       "inputs": [{"name": "x", "shape": [4, 4], "role": "activation"}]}
            replies = session([{"type": "measure", "problem": problem, "shape_set": shape_set, "kernelbench_dir": kb, "baselines": ["eager_tf32"],
                                "stop_rule": QUICK} for shape_set in ("default", "small", "large")])
        default, small, large = replies[1:]
        self.assertEqual(default["type"], "skipped", default)
        self.assertIn("get_inputs() gives x of shape [8, 4], kbv times [4, 4]", default["reason"])
        self.assertEqual(small["type"], "skipped", small)
        self.assertIn("[2, 4]", small["reason"])
        self.assertEqual(large["type"], "skipped", large)
        self.assertIn("shape set large has no kernelbench.globals entry", large["reason"])

    @unittest.skipUnless(os.environ.get("KBV_TEST_TORCH_COMPILE"), "set KBV_TEST_TORCH_COMPILE=1: torch.compile on a CPU takes minutes")
    def test_the_compiled_baseline_is_compiled_once_then_timed(self):
        original = server.COMPILE_MODE
        server.COMPILE_MODE = "default"  # max-autotune's GEMM search is for GPUs
        try:
            start = time.monotonic()
            _, reply = session([{"type": "measure", "problem": RELU, "shape_set": "small", "baselines": ["compiled_tf32"], "stop_rule": QUICK}])
        finally:
            server.COMPILE_MODE = original
        self.assertGreater(reply["results"]["compiled_tf32"]["median_s"], 0, reply)
        self.assertLess(reply["compile_s"]["compiled_tf32"], time.monotonic() - start)


if __name__ == "__main__":
    unittest.main()
