"""kbv_torch/stop_rule.py — kbv's sampling rule in Python, for PyTorch's side of a calibration: the
same warm-up, stop criterion and summary as kbv's cold timer (core/timing/stop_rule.hpp,
stdrel_criterion.cpp, sample_stats.cpp), so a ratio between a PyTorch time and a library time
compares like with like. The parameters arrive from kbv-calibrate (StopRule::nvbench_defaults()),
so every constant is defined once, in C++; the plateau constants below are StdrelCriterion's.

Pure Python: tested without torch (test_stop_rule.py)."""
import math
from dataclasses import dataclass

# StdrelCriterion's plateau detection (core/timing/stdrel_criterion.hpp).
NOISE_HISTORY = 512
PLATEAU_MIN_HISTORY = 64
PLATEAU_CHECK_EVERY = 16
PLATEAU_SPREAD = 0.05


@dataclass
class StopRule:
    """kbv's StopRule, as kbv-calibrate sends it (keys as in the request's "stop_rule")."""
    min_samples: int = 10
    min_measured_seconds: float = 0.5
    max_noise: float = 0.005
    warm_up_wall_seconds: float = 0.2
    max_wall_seconds: float = 15.0
    throttle_threshold: float = 0.75
    throttle_recovery_seconds: float = 0.05
    max_duty: float = 1.0

    @classmethod
    def from_request(cls, fields):
        known = {k: v for k, v in (fields or {}).items() if k in cls.__dataclass_fields__}
        unknown = sorted(set(fields or {}) - set(known))
        if unknown:
            raise ValueError(f"stop_rule: unknown field(s) {', '.join(unknown)}")
        return cls(**known)


class RunningMoments:
    """Welford's running mean and sample variance (sample_stats.hpp)."""

    def __init__(self):
        self.count, self.mean, self._m2, self.sum = 0, 0.0, 0.0, 0.0

    def add(self, value):
        self.count += 1
        self.sum += value
        delta = value - self.mean
        self.mean += delta / self.count
        self._m2 += delta * (value - self.mean)

    def stdev(self):
        return math.sqrt(max(0.0, self._m2 / (self.count - 1))) if self.count >= 2 else 0.0


class StdrelCriterion:
    """NVBench's stdrel criterion (stdrel_criterion.cpp): finished once min_samples are in, the
    measured time exceeds min_measured_seconds, and the relative standard deviation is below
    max_noise or has reached a plateau."""

    def __init__(self, rule):
        self.rule = rule
        self.moments = RunningMoments()
        self.measured_seconds = 0.0
        self.history = []

    def noise(self):
        m = self.moments
        return m.stdev() / m.mean if m.count >= 2 and m.mean > 0 else 0.0

    def add(self, seconds, measured_seconds=None):
        self.moments.add(seconds)
        self.measured_seconds += seconds if measured_seconds is None else measured_seconds
        if self.moments.count < 2:
            return
        value = self.noise()
        if math.isfinite(value):
            self.history.append(value)
            del self.history[:-NOISE_HISTORY]

    def reason(self):
        """"not_finished", "target_met" or "noise_plateau"."""
        if self.moments.count < self.rule.min_samples or self.measured_seconds <= self.rule.min_measured_seconds or not self.history:
            return "not_finished"
        if self.history[-1] < self.rule.max_noise:
            return "target_met"
        return "noise_plateau" if self._on_plateau() else "not_finished"

    def _on_plateau(self):
        current = self.history[-1]
        if len(self.history) <= PLATEAU_MIN_HISTORY or self.moments.count % PLATEAU_CHECK_EVERY != 0 or current <= 0:
            return False
        spread = math.sqrt(sum((n - current) ** 2 for n in self.history) / (len(self.history) - 1)) / current
        return spread < PLATEAU_SPREAD


def quantile_of_sorted(values, q):
    """Hyndman–Fan type 7 (numpy's default), as kbv's quantile_of_sorted."""
    if not values:
        raise ValueError("quantile of an empty sample")
    position = min(max(q, 0.0), 1.0) * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def summarize(samples):
    """median_s, iqr_s, min_s, max_s, samples (all 0 for no samples), as kbv's summarize()."""
    if not samples:
        return {"median_s": 0.0, "iqr_s": 0.0, "min_s": 0.0, "max_s": 0.0, "samples": 0}
    ordered = sorted(samples)
    return {"median_s": quantile_of_sorted(ordered, 0.5),
            "iqr_s": quantile_of_sorted(ordered, 0.75) - quantile_of_sorted(ordered, 0.25),
            "min_s": ordered[0], "max_s": ordered[-1], "samples": len(ordered)}
