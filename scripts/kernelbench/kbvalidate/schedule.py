"""kbvalidate/schedule.py — which problems may be validated at the same time: each problem's
memory footprint from its spec's shapes, and a greedy admission that keeps the sum of the
footprints in flight under a budget (the largest waiting problem that fits goes next; with
nothing in flight the largest goes alone, however large).

A validation holds, on the host, its export in the scratch folder (inputs as written plus the
fp64 reference, 8 bytes an output element) and the model's float32 outputs (4 more); the PyTorch
model on the device holds its inputs and outputs in float64 beside its intermediates.
"""
import math
import os
import subprocess

# Bytes per element as exported: float32, int64 class indices, bool masks.
INPUT_BYTES = {"float32": 4, "int64": 8, "bool": 1}
# Host bytes per output element: the fp64 reference (8) and the saved float32 output (4).
HOST_BYTES_PER_OUTPUT = 12
# Device: float64 inputs and outputs (8 each), and as much again for the model's intermediates
# and the export's own buffers (a whole L3 model keeps a few layers' activations alive).
DEVICE_BYTES_PER_ELEMENT = 8 * 3
# Of the memory free when the run starts, the share validations may use together: the rest is
# left to PyTorch's caching allocator, the CUDA contexts and the page cache.
BUDGET_SHARE = 0.6


def _elements(shape, symbols):
    count = 1
    for dim in shape:
        count *= int(dim) if isinstance(dim, int) or str(dim).lstrip("-").isdigit() else int(symbols[dim])
    return count


def footprint(spec, shape_set):
    """(host bytes, device bytes) one validation of `spec` at `shape_set` needs: nothing when
    the spec has no such set (a gpu_only problem at `small`: listed as not judged, never run)."""
    shapes = spec.get("shapes") or {}
    if shapes and shape_set not in shapes:
        return 0, 0
    symbols = shapes.get(shape_set, {})
    inputs = [(_elements(d["shape"], symbols), d.get("dtype", "float32")) for d in spec["inputs"]]
    outputs = [_elements(d["shape"], symbols) for d in spec["outputs"]]
    host = sum(n * INPUT_BYTES.get(dtype, 8) for n, dtype in inputs) + HOST_BYTES_PER_OUTPUT * sum(outputs)
    device = DEVICE_BYTES_PER_ELEMENT * (sum(n for n, _ in inputs) + sum(outputs))
    return host, device


def host_budget(scratch):
    """Bytes of host memory and scratch space the run may fill at once."""
    available = math.inf
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
    except OSError:
        pass
    stats = os.statvfs(scratch)
    return BUDGET_SHARE * min(available, stats.f_bavail * stats.f_frsize)


class Admission:
    """Greedy admission of (key, host bytes, device bytes) items under two budgets."""

    def __init__(self, items, host_limit, device_limit, slots):
        self.waiting = sorted(items, key=lambda item: (item[1] + item[2]), reverse=True)
        self.host_limit, self.device_limit, self.slots = host_limit, device_limit, slots
        self.running = {}

    def next(self):
        """The next item to start now, or None (wait for one to finish, or nothing left)."""
        if len(self.running) >= self.slots or not self.waiting:
            return None
        host_used = sum(h for h, _ in self.running.values())
        device_used = sum(d for _, d in self.running.values())
        for index, (key, host, device) in enumerate(self.waiting):
            fits = host_used + host <= self.host_limit and device_used + device <= self.device_limit
            if fits or not self.running:
                del self.waiting[index]
                self.running[key] = (host, device)
                return key
        return None

    def finished(self, key):
        self.running.pop(key, None)

    def requeue_alone(self, key):
        """Waits for `key` again, to start only when nothing else is in flight."""
        self.waiting.append((key, math.inf, math.inf))


def device_budget(device):
    """Bytes of device memory the run may fill at once: BUDGET_SHARE of the GPU's free memory
    by nvidia-smi (the parent never initialises CUDA itself); unlimited on the CPU."""
    if device == "cpu":
        return math.inf
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=memory.free", "--format=csv,noheader,nounits", "-i", "0"],
                              capture_output=True, text=True, timeout=30)
        return BUDGET_SHARE * float(done.stdout.split()[0]) * (1 << 20)
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return math.inf
