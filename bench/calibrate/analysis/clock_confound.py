#!/usr/bin/env python3
"""clock_confound.py — does a PyTorch calibration compare its contenders at one SM clock?

kbv calibrate --torch times kbv's library baselines with the C++ cold timer (before and after
PyTorch) and PyTorch's forwards with kbv_torch's cold timer in a Python process, each recording the
median NVML SM clock of its kept samples. A power-limited kernel (a large TF32 GEMM) runs slower
at a lower clock, so when the two timers keep the GPU busy for different fractions of their wall
time, the eager/library ratio measures the timers' duty cycles as much as the code.

For every entry of a calibration file this prints the duty both timers were paced to (since kbv
paced them: timing/duty_pace.hpp), the library TF32 median, clock and GPU duty (recorded since
pacing), the eager TF32 median, clock and GPU duty (PyTorch's gpu_seconds over its sampling wall), the calibrated
ratio eager/library, and the ratio with the library's time scaled to the eager's clock
(time × library MHz / eager MHz: a compute-bound kernel's first-order dependence) — marked where
the clocks differ by more than CLOCK_GAP. It reads the file only: no GPU, no torch.

Usage: clock_confound.py [CALIBRATION.json] (default docs/results/torch-baselines.json)
Exit status: 0, or 2 when the file cannot be read."""
import json
import sys
from pathlib import Path

DEFAULT_FILE = Path(__file__).resolve().parents[3] / "docs" / "results" / "torch-baselines.json"
# Clocks this far apart (relative) are a different operating point, not NVML's 15 MHz steps.  kbv: calibration::kClockAgreement.
CLOCK_GAP = 0.02


def rows(calibration):
    """(problem, library ms, library MHz, library duty, eager ms, eager MHz, eager duty, ratio, clock-scaled ratio, gap, paced duty)
    per entry."""
    out = []
    for entry in calibration.get("entries", []):
        evidence = entry.get("evidence") or {}
        sides = (evidence.get("library") or {}).get("tf32") or {}
        library = sides.get("before") or {}
        eager = (evidence.get("torch") or {}).get("eager_tf32") or {}
        if not library.get("median_s") or not eager.get("median_s"):
            continue
        # The library's clock as kbv states it (clocks_mhz.library): the mean of its runs before
        # and after PyTorch's, where both were read.
        clocks = [side.get("sm_clock_mhz_median") for side in (sides.get("before") or {}, sides.get("after") or {}) if side.get("sm_clock_mhz_median")]
        library_mhz, eager_mhz = (sum(clocks) / len(clocks) if clocks else 0), eager.get("sm_clock_mhz_median") or 0
        duty = eager["gpu_seconds"] / eager["wall_seconds"] if eager.get("wall_seconds") else None
        library_duty = library.get("duty")  # recorded since kbv paced its timers
        ratio = eager["median_s"] / library["median_s"]
        scaled = eager["median_s"] / (library["median_s"] * library_mhz / eager_mhz) if library_mhz and eager_mhz else None
        gap = bool(library_mhz and eager_mhz and abs(library_mhz - eager_mhz) > CLOCK_GAP * eager_mhz)
        out.append((entry.get("problem", "?"), library["median_s"] * 1e3, library_mhz, library_duty, eager["median_s"] * 1e3, eager_mhz, duty, ratio,
                    scaled, gap, entry.get("max_duty")))
    return out


def fmt(value, spec):
    return format(value, spec) if isinstance(value, (int, float)) else "-"


def main(argv):
    path = Path(argv[0]) if argv else DEFAULT_FILE
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        print(f"clock_confound.py: cannot read {path}: {error}", file=sys.stderr)
        return 2
    for calibration in document.get("calibrations", []):
        print(f"{path.name}: {calibration.get('device_name', '?')}, torch {calibration.get('torch_version', '?')}, "
              f"measured {calibration.get('measured_at', '?')}\n")
        print("| problem | paced to | library TF32 ms | MHz | GPU duty | eager TF32 ms | MHz | GPU duty | eager/library | at eager's clock "
              "| clocks differ |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        table = rows(calibration)
        for problem, lib_ms, lib_mhz, lib_duty, eager_ms, eager_mhz, duty, ratio, scaled, gap, paced in table:
            print(f"| {problem} | {fmt(paced, 'g') if paced else 'unpaced'} | {lib_ms:.4f} | {lib_mhz:.0f} | {fmt(lib_duty, '.2f')} | {eager_ms:.4f} | "
                  f"{eager_mhz:.0f} | {fmt(duty, '.2f')} | {ratio:.3f} | {fmt(scaled, '.3f')} | {'YES' if gap else 'no'} |")
        differing = [r[0] for r in table if r[9]]
        print(f"\n{len(differing)} of {len(table)} entries compare eager and library at clocks more than {CLOCK_GAP:.0%} apart"
              + (f": {', '.join(differing)}" if differing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
