"""test_cold_timing.py — kbv_torch's cold timer on the host clock: contenders interleaved with their
own warm-up and stop rule, the wall cap, a contender that raises, the throttle rule with a fake
clock, the launch gate's overrun rule with a fake backend, pacing to a GPU duty. Standard library only."""
import time
import unittest

from kbv_torch.cold_timing import ColdTimer, Contender, HostBackend, duty_pause_seconds
from kbv_torch.stop_rule import StopRule

QUICK = StopRule(min_measured_seconds=0.0, warm_up_wall_seconds=0.0, max_wall_seconds=5.0)


class FakeBackend:
    """Returns scripted seconds per call; the SM clock it reports is scripted too."""
    name = "fake"

    def __init__(self, seconds, clocks=None, overruns=0):
        self.seconds, self.clocks, self.overruns_left = seconds, clocks or [], overruns
        self.order, self.gate_overruns = [], 0

    def sample(self, call, index):
        call()
        if self.overruns_left:
            self.overruns_left -= 1
            self.gate_overruns += 1
            return None
        return self.seconds(index)

    def sm_clock_mhz(self):
        return self.clocks.pop(0) if self.clocks else 0.0


class Interleaving(unittest.TestCase):
    def test_contenders_alternate_and_each_stops_on_its_own_criterion(self):
        order = []
        backend = FakeBackend(lambda i: 0.01)
        contenders = [Contender("a", lambda: order.append("a")), Contender("b", lambda: order.append("b"))]
        results = ColdTimer(backend, QUICK).measure_interleaved(contenders)
        self.assertEqual(results["a"]["samples"], QUICK.min_samples)
        self.assertEqual(results["a"]["stopped"], "target_met")
        self.assertAlmostEqual(results["b"]["median_s"], 0.01)
        timed = order[2:]  # after one warm-up call each
        self.assertEqual(timed[:4], ["a", "b", "b", "a"])  # round r starts at contender r mod N

    def test_prepare_runs_before_every_sample(self):
        modes = []
        backend = FakeBackend(lambda i: 0.01)
        contender = Contender("a", lambda: modes.append("call"), prepare=lambda: modes.append("prepare"))
        ColdTimer(backend, QUICK).measure_interleaved([contender])
        self.assertEqual(modes[:4], ["prepare", "call", "prepare", "call"])

    def test_a_contender_that_raises_reports_its_error_and_the_others_go_on(self):
        def broken():
            raise RuntimeError("CUDA out of memory")
        results = ColdTimer(FakeBackend(lambda i: 0.01), QUICK).measure_interleaved([Contender("bad", broken), Contender("good", lambda: None)])
        self.assertEqual(results["bad"], {"error": "RuntimeError: CUDA out of memory"})
        self.assertEqual(results["good"]["samples"], QUICK.min_samples)

    def test_the_wall_cap_ends_a_series_that_never_settles(self):
        rule = StopRule(min_measured_seconds=100.0, warm_up_wall_seconds=0.0, max_wall_seconds=0.05)
        results = ColdTimer(HostBackend(), rule).measure_interleaved([Contender("a", lambda: None)])
        self.assertTrue(results["a"]["hit_wall_cap"])
        self.assertEqual(results["a"]["stopped"], "wall_cap")

    def test_warm_up_runs_by_wall_time_and_is_not_kept(self):
        rule = StopRule(min_measured_seconds=0.0, warm_up_wall_seconds=0.02, max_wall_seconds=5.0)
        results = ColdTimer(FakeBackend(lambda i: 0.01), rule).measure_interleaved([Contender("a", lambda: time.sleep(0.002))])
        self.assertGreater(results["a"]["warmup_calls"], 1)
        self.assertEqual(results["a"]["samples"], rule.min_samples)


class Throttle(unittest.TestCase):
    def test_samples_below_the_threshold_of_the_default_clock_are_dropped(self):
        rule = StopRule(min_measured_seconds=0.0, warm_up_wall_seconds=0.0, throttle_recovery_seconds=0.0)
        clocks = [1980.0, 1000.0, 1980.0] + [1980.0] * 20  # 1000 < 0.75 x 1980
        results = ColdTimer(FakeBackend(lambda i: 0.01, clocks), rule, default_clock_mhz=1980.0).measure_interleaved([Contender("a", lambda: None)])
        self.assertEqual(results["a"]["discarded_throttled"], 1)
        self.assertEqual(results["a"]["sm_clock_mhz_median"], 1980.0)


class LaunchGate(unittest.TestCase):
    def test_a_sample_whose_enqueue_outran_the_gate_is_taken_again(self):
        backend = FakeBackend(lambda i: 0.01, overruns=3)
        results = ColdTimer(backend, QUICK).measure_interleaved([Contender("a", lambda: None)])
        self.assertEqual(backend.gate_overruns, 3)
        self.assertEqual(results["a"]["samples"], QUICK.min_samples)

    def test_a_gate_that_never_covers_the_enqueue_is_an_error(self):
        backend = FakeBackend(lambda i: 0.01, overruns=10_000)
        results = ColdTimer(backend, QUICK).measure_interleaved([Contender("a", lambda: None)])
        self.assertIn("launch gate ended before the sample was enqueued", results["a"]["error"])


class Pacing(unittest.TestCase):
    """rule.max_duty, as kbv's timing::duty_pause_seconds (tests/unit/duty_pace_test.cpp)."""

    def test_the_pause_matches_kbvs(self):
        self.assertAlmostEqual(duty_pause_seconds(1e-3, 1.2e-3, 0.25), 4e-3 - 1.2e-3)
        self.assertEqual(duty_pause_seconds(1e-3, 5e-3, 0.25), 0.0)
        self.assertEqual(duty_pause_seconds(1e-3, 1e-3, 1.0), 0.0)
        self.assertEqual(duty_pause_seconds(1e-3, 1e-3, 0.0), 0.0)
        self.assertEqual(duty_pause_seconds(0.0, 1e-3, 0.25), 0.0)

    def test_a_paced_rule_keeps_the_timed_share_of_the_wall_at_its_duty(self):
        def timed(max_duty):
            rule = StopRule(min_measured_seconds=0.02, warm_up_wall_seconds=0.0, max_wall_seconds=5.0, max_duty=max_duty)
            return ColdTimer(HostBackend(), rule).measure_interleaved([Contender("a", lambda: time.sleep(0.002))])["a"]
        paced, unpaced = timed(0.25), timed(1.0)
        self.assertLessEqual(paced["duty"], 0.25 * 1.001)
        self.assertGreater(paced["duty"], 0.15, "the pause is what the duty asks, not much more")
        self.assertGreater(unpaced["duty"], 0.8, "unpaced, a host sample is nearly all of its wall")
        self.assertGreaterEqual(paced["wall_seconds"], 4 * paced["gpu_seconds"] * 0.999)

    def test_kbv_calibrate_sends_the_duty_in_its_stop_rule(self):
        self.assertEqual(StopRule.from_request({"max_duty": 0.25}).max_duty, 0.25)
        self.assertEqual(StopRule.from_request({}).max_duty, 1.0, "a request without it is not paced")


if __name__ == "__main__":
    unittest.main()
