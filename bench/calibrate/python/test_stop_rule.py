"""test_stop_rule.py — kbv_torch's sampling rule decides as kbv's C++ one does
(core/timing/stdrel_criterion.cpp, sample_stats.cpp): minimum samples and time, the noise
target, the plateau, quantiles. Standard library only."""
import math
import random
import unittest

from kbv_torch.stop_rule import PLATEAU_CHECK_EVERY, StdrelCriterion, StopRule, quantile_of_sorted, summarize


class Criterion(unittest.TestCase):
    def test_needs_min_samples_and_min_time_before_the_noise_counts(self):
        rule = StopRule()
        c = StdrelCriterion(rule)
        for _ in range(9):
            c.add(0.1)
        self.assertEqual(c.reason(), "not_finished")  # 9 samples, 0.9 s, zero noise
        c.add(0.1)
        self.assertEqual(c.reason(), "target_met")
        short = StdrelCriterion(rule)
        for _ in range(50):
            short.add(0.001)  # 50 samples of zero noise, 0.05 s
        self.assertEqual(short.reason(), "not_finished")

    def test_noise_is_the_sample_relative_standard_deviation(self):
        c = StdrelCriterion(StopRule())
        for value in (1.0, 2.0, 3.0):
            c.add(value)
        self.assertAlmostEqual(c.noise(), 1.0 / 2.0)  # stdev 1 (n-1), mean 2

    def test_a_noisy_series_stops_on_its_plateau(self):
        rng = random.Random(7)
        c = StdrelCriterion(StopRule())
        reasons = []
        for i in range(2000):
            c.add(0.01 * (1 + 0.05 * rng.gauss(0, 1)))  # 5 % noise: the 0.5 % target is never met
            reasons.append(c.reason())
            if reasons[-1] != "not_finished":
                break
        self.assertEqual(reasons[-1], "noise_plateau")
        self.assertEqual(c.moments.count % PLATEAU_CHECK_EVERY, 0)
        self.assertGreater(c.moments.count, 64)

    def test_rule_from_request_refuses_unknown_fields(self):
        self.assertEqual(StopRule.from_request({"min_samples": 3}).min_samples, 3)
        with self.assertRaisesRegex(ValueError, "max_noisy"):
            StopRule.from_request({"max_noisy": 1})


class Statistics(unittest.TestCase):
    def test_quantiles_are_type_7(self):
        values = [1.0, 2.0, 3.0, 4.0]
        self.assertEqual(quantile_of_sorted(values, 0.5), 2.5)
        self.assertEqual(quantile_of_sorted(values, 0.25), 1.75)
        self.assertEqual(quantile_of_sorted(values, 1.0), 4.0)

    def test_summary(self):
        s = summarize([3.0, 1.0, 2.0])
        self.assertEqual((s["median_s"], s["min_s"], s["max_s"], s["samples"]), (2.0, 1.0, 3.0, 3))
        self.assertTrue(math.isclose(s["iqr_s"], 1.0))
        self.assertEqual(summarize([])["samples"], 0)


if __name__ == "__main__":
    unittest.main()
