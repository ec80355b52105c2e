"""tests/cli/prompt_forward_check.py — runs the PyTorch forward `kbv prompt` wrote for each problem on
the inputs `kbv export` wrote for it, in float64, and compares the result with kbv's fp64 reference
from the same export: the forward in the prompt is the computation kbv checks.

usage: prompt_forward_check.py DIR   (DIR/<problem>/{forward.py, manifest.json, inputs/, reference/})
Prints one line per problem and "N passed, M failed"; exits 1 when any failed."""
import json
import sys
from pathlib import Path

import numpy as np
import torch

# Both sides compute in float64 from the same float32 inputs; only the order of operations
# differs (a conv's or matmul's sums), far below these bounds.
REL_L2 = 1e-10
ELEMENT = 1e-8


def check(folder):
    manifest = json.loads((folder / "manifest.json").read_text())
    namespace = {}
    exec(compile((folder / "forward.py").read_text(), str(folder / "forward.py"), "exec"), namespace)  # noqa: S102 - kbv's own output
    # Floating point inputs in float64; int64 class indices and bool masks keep their dtype, as
    # get_inputs() makes them (cross_entropy's targets as doubles would be class probabilities).
    inputs = [torch.from_numpy(np.load(folder / entry["file"])) for entry in manifest["inputs"]]
    inputs = [value.double() if value.is_floating_point() else value for value in inputs]
    with torch.no_grad():
        outputs = namespace["Model"]().forward(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    worst = 0.0
    for entry, output in zip(manifest["reference"], outputs):
        reference = np.load(folder / entry["file"])
        got = output.numpy()
        if got.shape != reference.shape:
            return f"output {entry['name']}: shape {got.shape}, reference {reference.shape}"
        norm = np.linalg.norm(reference)
        rel_l2 = np.linalg.norm(got - reference) / norm if norm > 0 else np.linalg.norm(got)
        rms = np.sqrt(np.mean(reference ** 2))
        bad = np.abs(got - reference) > ELEMENT * (rms + np.abs(reference))
        if rel_l2 > REL_L2 or bad.any():
            return f"output {entry['name']}: rel_l2 {rel_l2:.3g}, {int(bad.sum())} elements off"
        worst = max(worst, rel_l2)
    if len(outputs) != len(manifest["reference"]):
        return f"{len(outputs)} outputs, the problem has {len(manifest['reference'])}"
    return f"ok (rel_l2 {worst:.2g})"


def main():
    passed = failed = 0
    for folder in sorted(p for p in Path(sys.argv[1]).iterdir() if (p / "forward.py").is_file()):
        try:
            verdict = check(folder)
        except Exception as error:  # noqa: BLE001 - any failure of the forward is a finding
            verdict = f"{type(error).__name__}: {error}"
        ok = verdict.startswith("ok")
        passed, failed = passed + ok, failed + (not ok)
        print(f"{folder.name}: {verdict}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
