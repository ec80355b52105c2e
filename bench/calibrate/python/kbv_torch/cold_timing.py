"""kbv_torch/cold_timing.py — kbv's cold timer (cuda/measure/timing/cold_timer.cpp) for PyTorch
callables: each sample starts with a cold L2 (a fill over twice the L2 size), is timed with CUDA
events behind a launch gate, and is checked against the SM clock; contenders are sampled
round-robin, each with its own warm-up (by wall time) and stop criterion (stop_rule.py), so
drift in clocks or temperature hits them alike; each reports its median.

The launch gate: kbv's holds the stream with a kernel that waits on a host flag while the sample
is enqueued. PyTorch offers no such kernel, so here the gate is torch.cuda._sleep, a kernel that
spins for a number of cycles: long enough (three times the longest enqueue seen so far, at least
GATE_MIN_SECONDS) that the host has enqueued the flush, the start event, every kernel of the
forward and the stop event before it ends. A sample whose enqueue outlasted its gate (the GPU
may have waited for the host inside the timed window) is dropped and counted (gate_overruns),
and the gate grows.

Nothing in this process sets a persisting-L2 access window (PyTorch has no API for one), so the
reset kbv's flusher makes before each sample has nothing to undo here.

Pacing: with rule.max_duty below 1, each sample (warm-up included) is followed by an idle pause
so its timed window is at most that share of its wall, as kbv's C++ timer does
(core/timing/duty_pace.hpp): kbv-calibrate paces both timers to one duty, so the GPU runs the
library and PyTorch at one clock (docs/torch-calibration.md, "Known confound"). The launch gate
counts as idle: it is one spinning thread.

A HostBackend (perf_counter, no flush, no gate) lets the sampling run on a CPU in tests."""
import time

from kbv_torch.stop_rule import StdrelCriterion, summarize

# A gate shorter than this risks ending before a Python call of a few kernels is enqueued; 1 ms
# costs a 0.5 s measurement at most a few hundred ms of wall time.
GATE_MIN_SECONDS = 1e-3
# The gate is this many times the longest enqueue seen (Python's launch time varies with GC,
# allocator and dynamo guard checks).
GATE_MARGIN = 3.0
# NVBench's throttle back-off (cold_timer.cpp): after this many throttled samples in a row the
# recovery pause grows by min(1.5 × pause, MAX_RECOVERY_STEP_SECONDS).
THROTTLE_STREAK_BEFORE_BACKOFF = 2
MAX_RECOVERY_STEP_SECONDS = 0.5
# The gate triples past the longest enqueue after each overrun, so a few overruns in a row
# mean an enqueue that keeps growing: give up on that contender (reported as its error).
MAX_OVERRUNS_IN_A_ROW = 20
# How long the gate's cycle rate is measured over, once per timer.
GATE_CALIBRATION_SECONDS = 0.02


def duty_pause_seconds(busy_seconds, elapsed_seconds, max_duty):
    """kbv's timing::duty_pause_seconds: the idle after a sample that keeps busy ≤ max_duty × wall."""
    if max_duty >= 1.0 or max_duty <= 0.0 or busy_seconds <= 0.0:
        return 0.0
    return max(0.0, busy_seconds / max_duty - elapsed_seconds)


class HostBackend:
    """Times on the host clock: for tests of the sampling on a machine without a GPU."""
    name = "host (perf_counter; no L2 flush, no launch gate)"
    gate_overruns = 0

    def sample(self, call, index):
        start = time.perf_counter()
        call()
        return time.perf_counter() - start

    def sm_clock_mhz(self):
        return 0.0


class CudaBackend:
    """Cold samples on the current CUDA stream (see the module's docstring)."""

    def __init__(self, torch, device, clock):
        self.torch = torch
        self.device = device
        self.clock = clock
        props = torch.cuda.get_device_properties(device)
        l2 = int(getattr(props, "L2_cache_size", 0)) or (60 << 20)  # H200's 60 MiB when torch does not say
        self.flush_bytes = 2 * l2  # kbv's L2Flusher::kL2Multiple
        self.flush = torch.empty(self.flush_bytes, dtype=torch.uint8, device=device)
        self.start = torch.cuda.Event(enable_timing=True)
        self.stop = torch.cuda.Event(enable_timing=True)
        self.cycles_per_second = self._gate_rate()
        self.gate_seconds = GATE_MIN_SECONDS
        self.gate_overruns = 0
        self.name = (f"CUDA events; L2 flush: fill of {self.flush_bytes >> 20} MiB before each sample; launch gate: "
                     f"torch.cuda._sleep ({self.cycles_per_second / 1e9:.2f} Gcycles/s)")

    def _gate_rate(self):
        """Cycles per second of torch.cuda._sleep, measured with events."""
        torch = self.torch
        cycles = 1_000_000
        torch.cuda._sleep(cycles)  # loads the kernel
        torch.cuda.synchronize()
        while True:
            self.start.record()
            torch.cuda._sleep(cycles)
            self.stop.record()
            self.stop.synchronize()
            seconds = self.start.elapsed_time(self.stop) / 1e3
            if seconds >= GATE_CALIBRATION_SECONDS or cycles > 1 << 40:
                return cycles / max(seconds, 1e-9)
            cycles *= 4

    def sample(self, call, index):
        """Seconds between the events around call(), or None when the gate ended before the
        sample was enqueued (dropped; the gate grows)."""
        torch = self.torch
        enqueue_start = time.perf_counter()
        torch.cuda._sleep(int(self.gate_seconds * self.cycles_per_second))
        self.flush.fill_(index & 0xFF)
        self.start.record()
        call()
        self.stop.record()
        enqueued = time.perf_counter() - enqueue_start
        self.stop.synchronize()
        seconds = self.start.elapsed_time(self.stop) / 1e3
        overran = enqueued >= self.gate_seconds
        self.gate_seconds = max(self.gate_seconds, GATE_MARGIN * enqueued)
        if overran:
            self.gate_overruns += 1
            return None
        return seconds

    def sm_clock_mhz(self):
        return self.clock.current_mhz() if self.clock else 0.0


class Contender:
    """One callable to time: `prepare` runs before each sample, outside the timed window (it sets
    the math mode), `call` is what the events bracket."""

    def __init__(self, name, call, prepare=None):
        self.name, self.call, self.prepare = name, call, prepare or (lambda: None)


class _Series:
    def __init__(self, rule):
        self.criterion = StdrelCriterion(rule)
        self.kept, self.clocks = [], []
        self.warmup_calls, self.warmup_wall = 0, 0.0
        self.discarded_throttled, self.streak = 0, 0
        self.recovery = rule.throttle_recovery_seconds
        self.wall, self.busy, self.next_call = 0.0, 0.0, 0
        self.done, self.capped = False, False
        self.stopped = "not_finished"


class ColdTimer:
    def __init__(self, backend, rule, default_clock_mhz=0.0):
        self.backend, self.rule, self.default_clock_mhz = backend, rule, default_clock_mhz

    def _one(self, contender, series):
        contender.prepare()
        for _ in range(MAX_OVERRUNS_IN_A_ROW):
            seconds = self.backend.sample(contender.call, series.next_call)
            series.next_call += 1
            if seconds is not None:
                return seconds
        raise RuntimeError(f"the launch gate ended before the sample was enqueued {MAX_OVERRUNS_IN_A_ROW} times in a row")

    def _pace(self, seconds, begin):
        pause = duty_pause_seconds(seconds, time.perf_counter() - begin, self.rule.max_duty)
        if pause > 0:
            time.sleep(pause)

    def _warm_up(self, contender, series):
        while series.warmup_calls == 0 or series.warmup_wall < self.rule.warm_up_wall_seconds:
            begin = time.perf_counter()
            self._pace(self._one(contender, series), begin)
            series.warmup_calls += 1
            series.warmup_wall += time.perf_counter() - begin

    def _take_sample(self, contender, series):
        begin = time.perf_counter()
        seconds = self._one(contender, series)
        mhz = self.backend.sm_clock_mhz()
        throttled = mhz > 0 and self.default_clock_mhz > 0 and mhz < self.rule.throttle_threshold * self.default_clock_mhz
        if throttled:
            series.discarded_throttled += 1
            series.streak += 1
            if series.streak > THROTTLE_STREAK_BEFORE_BACKOFF:
                series.recovery += min(series.recovery * 1.5, MAX_RECOVERY_STEP_SECONDS)
            time.sleep(series.recovery)
        else:
            series.streak = 0
            series.kept.append(seconds)
            if mhz > 0:
                series.clocks.append(mhz)
            series.criterion.add(seconds)
        self._pace(seconds, begin)
        series.busy += seconds
        series.wall += time.perf_counter() - begin
        series.stopped = series.criterion.reason()
        if series.stopped != "not_finished":
            series.done = True
        elif series.wall >= self.rule.max_wall_seconds:
            series.done, series.capped, series.stopped = True, True, "wall_cap"

    def measure_interleaved(self, contenders):
        """{name: figures} for every contender; a contender whose call raises gets {"error": ...}
        and the others go on."""
        series = {c.name: _Series(self.rule) for c in contenders}
        errors = {}

        def guarded(step, contender):
            try:
                step(contender, series[contender.name])
            except Exception as error:  # noqa: BLE001 - reported per contender, in the reply
                errors[contender.name] = f"{type(error).__name__}: {error}"
                series[contender.name].done = True

        for contender in contenders:
            guarded(self._warm_up, contender)
        for round_index in range(1 << 62):
            left = False
            for k in range(len(contenders)):
                contender = contenders[(round_index + k) % len(contenders)]
                if series[contender.name].done:
                    continue
                guarded(self._take_sample, contender)
                left = left or not series[contender.name].done
            if not left:
                break
        results = {}
        for contender in contenders:
            s = series[contender.name]
            if contender.name in errors:
                results[contender.name] = {"error": errors[contender.name]}
                continue
            figures = summarize(s.kept)
            figures.update({"noise": s.criterion.noise(), "gpu_seconds": sum(s.kept), "wall_seconds": s.wall,
                            "duty": s.busy / s.wall if s.wall > 0 else 0.0,
                            "warmup_calls": s.warmup_calls, "discarded_throttled": s.discarded_throttled,
                            "hit_wall_cap": s.capped, "stopped": s.stopped,
                            "sm_clock_mhz_median": summarize(s.clocks)["median_s"]})
            results[contender.name] = figures
        return results
