"""scripts/kernelbench/test_kbvalidate.py — validate.py's scheduling, without torch or a GPU:
each problem's footprint from its spec (a GPU-only problem at a set it lacks holds nothing) and
the admission of problems under memory budgets.

Run: python3 scripts/kernelbench/test_kbvalidate.py   (ctest: kbvalidate_schedule)"""
import math
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kbvalidate import schedule  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

SPEC = {"inputs": [{"name": "x", "shape": ["batch", 8]}, {"name": "labels", "shape": ["batch"], "dtype": "int64"}],
        "outputs": [{"name": "y", "shape": ["batch", 8]}],
        "shapes": {"default": {"batch": 100}, "small": {"batch": 2}}}


class Footprint(unittest.TestCase):
    def test_counts_inputs_by_dtype_and_outputs_twice_on_the_host(self):
        host, device = schedule.footprint(SPEC, "default")
        self.assertEqual(host, 800 * 4 + 100 * 8 + 800 * schedule.HOST_BYTES_PER_OUTPUT)
        self.assertEqual(device, schedule.DEVICE_BYTES_PER_ELEMENT * (800 + 100 + 800))

    def test_a_gpu_only_problem_at_a_set_it_lacks_holds_nothing(self):
        gpu_only = dict(SPEC, shapes={"default": {"batch": 100}}, gpu_only="no small sizes within budget")
        self.assertEqual(schedule.footprint(gpu_only, "small"), (0, 0))

    def test_literal_dims_need_no_shape_set(self):
        fixed = {"inputs": [{"name": "x", "shape": [4, 8]}], "outputs": [{"name": "y", "shape": [4]}]}
        self.assertEqual(schedule.footprint(fixed, "small"), (4 * 8 * 4 + 4 * 12, 24 * (32 + 4)))


class AdmissionUnderBudgets(unittest.TestCase):
    def test_the_largest_that_fits_goes_next_and_an_oversized_one_goes_alone(self):
        admission = schedule.Admission([("small", 1, 1), ("large", 6, 6), ("huge", 50, 50)], 10, 10, 4)
        self.assertEqual(admission.next(), "huge")  # nothing in flight: the largest goes, however large
        self.assertIsNone(admission.next())
        admission.finished("huge")
        self.assertEqual(admission.next(), "large")
        self.assertEqual(admission.next(), "small")
        self.assertIsNone(admission.next())

    def test_slots_limit_problems_in_flight(self):
        admission = schedule.Admission([("a", 1, 1), ("b", 1, 1)], math.inf, math.inf, 1)
        self.assertEqual(admission.next(), "a")
        self.assertIsNone(admission.next())

    def test_a_requeued_problem_waits_until_nothing_else_runs(self):
        admission = schedule.Admission([("a", 1, 1), ("b", 1, 1)], 10, 10, 2)
        first = admission.next()
        admission.finished(first)
        admission.requeue_alone(first)
        second = admission.next()
        self.assertNotEqual(second, first)
        self.assertIsNone(admission.next())
        admission.finished(second)
        self.assertEqual(admission.next(), first)


@unittest.skipUnless(torch, "needs torch (run with a Python that has it)")
class ExactForms(unittest.TestCase):
    """The replacements compute what PyTorch's CPU kernels do in float64, bit for bit, and
    nn.Hardswish / nn.Hardsigmoid reach them once installed."""

    def test_the_forms_are_the_cpu_kernels_in_float64(self):
        from kbvalidate import exact_forms
        x = torch.cat([torch.linspace(-8, 8, 10001, dtype=torch.float64), torch.tensor([float("nan"), -3.0, 3.0], dtype=torch.float64)])
        original_sigmoid, original_swish = torch.nn.functional.hardsigmoid, torch.nn.functional.hardswish
        torch.testing.assert_close(exact_forms.hardsigmoid(x), original_sigmoid(x), rtol=0, atol=0, equal_nan=True)
        torch.testing.assert_close(exact_forms.hardswish(x), original_swish(x), rtol=0, atol=0, equal_nan=True)
        # The float constant PyTorch's CUDA kernels use is 2.98e-8 off: what the forms avoid.
        self.assertAlmostEqual(abs(float(torch.tensor(1 / 6, dtype=torch.float32)) * 6 - 1), 2.98e-8, delta=1e-10)

    def test_modules_call_the_installed_forms(self):
        from kbvalidate import exact_forms
        saved = torch.nn.functional.hardsigmoid, torch.nn.functional.hardswish
        calls = []
        try:
            exact_forms.install()
            torch.nn.functional.hardswish = lambda x, inplace=False: calls.append("swish") or exact_forms.hardswish(x)
            torch.nn.Hardswish()(torch.ones(3, dtype=torch.float64))
            self.assertIs(torch.nn.functional.hardsigmoid, exact_forms.hardsigmoid)
            self.assertEqual(calls, ["swish"])
        finally:
            torch.nn.functional.hardsigmoid, torch.nn.functional.hardswish = saved


if __name__ == "__main__":
    unittest.main()
