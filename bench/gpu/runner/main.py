"""bench/gpu/runner/main.py — bench/gpu/run.sh's driver: runs the named suites over a bundle, one
summary per suite in OUT, the logs in OUT/logs.tar.gz, a short table last.

  main.py OUT BUNDLE SUITE[:PART,…|:KEY=VALUE,…]…   (`all`: every suite)

Suites run in the order given, except `calibrate`, which runs first so the others use the
ceilings it measures; without its ceilings part they use docs/results/ceilings.json when present. The PyTorch
calibration is docs/results/torch-baselines.json when present, which calibrate:torch merges into
(OUT/torch-baselines.json), and no other file. Exit status
0 when every suite ran to its end and met its checks, 1 otherwise, 2 on bad arguments."""
import importlib
import json
import shutil
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Context, gpu_facts  # noqa: E402
from suites import Outcome  # noqa: E402

SUITES = ["calibrate", "tests", "corpus", "batch", "keysweep", "parity", "timing", "data", "daemon", "sandbox", "kernelbench"]
RESULTS_CEILINGS = "docs/results/ceilings.json"
RESULTS_TORCH_CALIBRATION = "docs/results/torch-baselines.json"
# The device tool returns at most this many files from OUT.
MAX_FILES_BACK = 8


def measures_ceilings(chosen):
    """Whether the run's calibrate suite measures the ceilings (calibrate alone or calibrate:ceilings,
    not calibrate:torch alone): only then do the later suites go without docs/results/ceilings.json
    (2026-12-05: `calibrate:torch batch` ran the batch on the datasheet's floors)."""
    return any(suite == "calibrate" and (not parts or "ceilings" in parts) for suite, parts, _ in chosen)


def parse(specs):
    """[(suite, parts, options)] in run order; raises ValueError on an unknown suite or part."""
    chosen = []
    for spec in specs:
        name, _, rest = spec.partition(":")
        names = SUITES if name == "all" else [name]
        for suite in names:
            if suite not in SUITES:
                raise ValueError(f"unknown suite '{suite}' (suites: {', '.join(SUITES)}, all)")
            module = importlib.import_module(f"suites.{suite}")
            words = [w for w in rest.split(",") if w] if name != "all" else []
            parts = [w for w in words if "=" not in w]
            options = dict(w.split("=", 1) for w in words if "=" in w)
            unknown = [p for p in parts if module.PARTS and p not in module.PARTS]
            if unknown:
                raise ValueError(f"suite '{suite}' has no part {', '.join(unknown)} (parts: {', '.join(module.PARTS)})")
            chosen.append((suite, parts, options))
    return sorted(chosen, key=lambda c: c[0] != "calibrate")


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, bundle, specs = Path(argv[0]), Path(argv[1]), argv[2:]
    if not (bundle / "bin" / "kbv").is_file():
        print(f"run.sh: {bundle}/bin/kbv not found (fix: make the bundle with bench/gpu/bundle.sh NAME and pass .gpu/NAME)", file=sys.stderr)
        return 2
    try:
        chosen = parse(specs)
    except ValueError as error:
        print(f"run.sh: {error}", file=sys.stderr)
        return 2
    ctx = Context(out, bundle, Path.cwd())
    if not measures_ceilings(chosen) and (ctx.repo / RESULTS_CEILINGS).is_file():
        copy = ctx.scratch / "ceilings.json"
        shutil.copy(ctx.repo / RESULTS_CEILINGS, copy)
        try:
            recorded = json.loads(copy.read_text())
        except ValueError:
            recorded = {}
        gpu = gpu_facts()["gpu"]
        if recorded.get("device_name") not in (None, gpu):
            # Another GPU's ceilings: kbv refuses them, and every CUDA evaluation would be bad_input
            # (an H100 given the H200's, 2026-12-05). Without them kbv uses the H200 datasheet,
            # whose floors are below any slower GPU's: name a calibrate suite to measure this one's.
            print(f"run.sh: {RESULTS_CEILINGS} holds a {recorded.get('device_name')}'s ceilings, not this {gpu}'s: not used "
                  "(fix: put calibrate first in the round to measure this GPU's)", flush=True)
        else:
            ctx.use_ceilings(copy, f"{RESULTS_CEILINGS} (measured {recorded.get('measured_at', '?') if recorded else 'unreadable'})")
    if (ctx.repo / RESULTS_TORCH_CALIBRATION).is_file():
        # calibrate:torch merges into it; every other suite derives its PyTorch speedups from it.
        shutil.copy(ctx.repo / RESULTS_TORCH_CALIBRATION, ctx.torch_calibration)
        ctx.use_torch_calibration(RESULTS_TORCH_CALIBRATION)
    print(ctx.stamp, flush=True)
    outcomes = []
    for suite, parts, options in chosen:
        print(f"== {suite} {','.join(parts)}", flush=True)
        start = time.monotonic()
        try:
            outcome = importlib.import_module(f"suites.{suite}").run(ctx, parts, options)
        except Exception as error:  # one suite's crash must not cost the others their summaries
            (ctx.logs / f"{suite}-crash.log").write_text(traceback.format_exc())
            outcome = Outcome(False, f"crashed: {error}"[:110])
        outcomes.append((suite, outcome, time.monotonic() - start))
        print(f"   {'ok' if outcome.ok else 'FAILED'}: {outcome.headline}", flush=True)
    archive = ctx.finish()
    back = sorted(p.name for p in ctx.out.iterdir())
    print(f"\n{ctx.stamp}\n")
    print(f"| suite | result | headline | wall s |\n|---|---|---|---|")
    for suite, outcome, wall in outcomes:
        print(f"| {suite} | {'ok' if outcome.ok else 'FAILED'} | {outcome.headline} | {wall:.0f} |")
    print(f"\nIn {ctx.out}: {', '.join(back)} ({archive.stat().st_size / 2**20:.1f} MiB of logs)")
    if len(back) > MAX_FILES_BACK:
        print(f"warning: {len(back)} files, the device tool returns {MAX_FILES_BACK}: run fewer suites per call")
    return 0 if all(o.ok for _, o, _ in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
