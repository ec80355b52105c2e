"""test_kernel_timeline.py — kernel_timeline.py's trace reading, on the CPU (no torch needed)."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_timeline import by_position, calls_from_trace  # noqa: E402


class CallsFromTrace(unittest.TestCase):
    def test_each_flush_starts_a_call_and_gaps_are_idle_time_since_the_latest_end(self):
        trace = [("fill", 0, 10), ("a", 20, 120), ("b", 110, 200), ("c", 1200, 1300),  # b overlaps a; c 1 ms after b
                 ("fill", 2000, 2010), ("a", 2010, 2110), ("b", 2110, 2210), ("c", 2210, 2310)]
        calls = calls_from_trace(list(reversed(trace)), {"fill"})  # arrival order does not matter
        self.assertEqual(len(calls), 2)
        self.assertEqual([k[0] for k in calls[0]], ["a", "b", "c"])
        self.assertAlmostEqual(calls[0][0][1], 0.1)
        self.assertEqual(calls[0][1][2], 0.0)
        self.assertAlmostEqual(calls[0][2][2], 1.0)
        self.assertEqual([k[2] for k in calls[1]], [0.0, 0.0, 0.0])

    def test_kernels_before_the_first_flush_and_empty_calls_are_left_out(self):
        calls = calls_from_trace([("warm", 0, 5), ("fill", 10, 11), ("fill", 20, 21), ("a", 30, 40)], {"fill"})
        self.assertEqual(calls, [[("a", 0.01, 0.0)]])


class ByPosition(unittest.TestCase):
    def test_medians_per_position_when_every_call_ran_the_same_kernels(self):
        rows = by_position([[("a", 1.0, 0.0), ("a", 2.0, 0.1)], [("a", 3.0, 0.0), ("a", 2.0, 0.3)], [("a", 2.0, 0.0), ("a", 4.0, 0.2)]])
        self.assertEqual(rows, [("a", 2.0, 0.0), ("a", 2.0, 0.2)])

    def test_different_sequences_have_no_table_by_position(self):
        self.assertIsNone(by_position([[("a", 1.0, 0.0)], [("b", 1.0, 0.0)]]))
        self.assertIsNone(by_position([]))


if __name__ == "__main__":
    unittest.main()
