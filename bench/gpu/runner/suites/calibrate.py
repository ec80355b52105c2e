"""bench/gpu/runner/suites/calibrate.py — `kbv calibrate`. Parts:
  ceilings  (the default) the device's ceilings (copy bandwidth, TF32 and FP32 GEMM rates) for
            the physical floor, and cudnnFind's choice for every conv baseline. Its ceilings are
            used by the suites after it in the same run (run.sh runs it first) and come back as
            OUT/ceilings.json (docs/results/ceilings.json once copied in).
  torch     `kbv calibrate --torch` with the machine's python3 (torch and triton): PyTorch's
            forward of every problem (eager TF32, eager FP32, torch.compile max-autotune) timed
            with kbv's protocol beside kbv's library baselines, merged into the run's calibration
            (docs/results/torch-baselines.json when present), which the suites after it use and
            which comes back as OUT/torch-baselines.json (copy it to docs/results/ to keep it).
            Options: problems=a+b (default: every problem), shapes=default+small (default:
            every shape set), compile=0 (eager only), kernelbench=DIR (KernelBench/ of a
            checkout, for imported problems), python=PATH (default python3), timeout=S
            (default 540), max_duty=D (both timers' GPU duty; default kbv's 0.25, 1: unpaced),
            stale=1 (only the problems whose entry an evaluation could not use as it is:
            missing, stale after a library or spec change, unpaced; the others listed as current).
            The summary shows the SM clock each side's TF32 ran at (library / eager, MHz: they
            should agree once paced) and, last, the issue #13 target: kbv's TF32 library baseline
            against the faster of eager TF32 and torch.compile (≤ 1.05 is hard to beat)."""
import json
import shutil

from common import code_block, md_table
from suites import Outcome

TITLE = "Device ceilings and PyTorch calibration (kbv calibrate)"
PARTS = ["ceilings", "torch"]
HARD_TO_BEAT = 1.05  # issue #13: the library within 5 % of the faster of eager and compiled
CLOCK_AGREEMENT = 0.02  # kbv's calibration::kClockAgreement


def run_ceilings(ctx):
    ceilings = ctx.out / "ceilings.json"
    result = ctx.run("calibrate", [ctx.bin("kbv"), "calibrate", "--out", ceilings], 420)
    body = ["## Ceilings", ""] + code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else ""))
    headline = result.status()
    if result.ok and ceilings.is_file():
        measured = json.loads(ceilings.read_text())
        ctx.use_ceilings(ceilings, f"measured by this run's calibrate suite ({measured.get('measured_at', '?')})")
        body += ["", "| ceiling | value |", "|---|---|",
                 f"| copy (read + write) | {measured['copy_bytes_per_s'] / 1e12:.2f} TB/s |",
                 f"| TF32 GEMM | {measured['tf32_flops_per_s'] / 1e12:.0f} TFLOP/s |",
                 f"| FP32 GEMM | {measured['fp32_flops_per_s'] / 1e12:.1f} TFLOP/s |"]
        headline = (f"copy {measured['copy_bytes_per_s'] / 1e12:.2f} TB/s, TF32 {measured['tf32_flops_per_s'] / 1e12:.0f} TFLOP/s, "
                    f"FP32 {measured['fp32_flops_per_s'] / 1e12:.1f} TFLOP/s")
    return result.ok, headline, body


def output_layouts(figures):
    """The layouts kbv_torch/server.py recorded for one contender's outputs: a list for a forward
    that returned several (kbv's graph forwards return a tuple), one object for a single tensor
    (KernelBench's Models); derived_speedups.cpp reads both."""
    output = figures.get("output") or []
    return [o for o in (output if isinstance(output, list) else [output]) if isinstance(o, dict)]


def calibration_rows(path, since):
    """Table rows for the entries measured at or after `since` (this run's), and how many of them
    meet the hard-to-beat target."""
    rows, met, judged, clocks_apart = [], 0, 0, []
    for calibration in json.loads(path.read_text()).get("calibrations", []):
        for entry in calibration.get("entries", []):
            if entry.get("measured_at", "") < since:
                continue
            library = {mode: figures["median_s"] for mode, figures in entry.get("library", {}).items()}
            ratios = entry.get("ratios", {})
            ms = {name: ratios[name] * library[mode] * 1e3 for name, mode in
                  (("eager_tf32", "tf32"), ("eager_fp32", "fp32"), ("compiled_tf32", "tf32")) if name in ratios and mode in library}
            # A forward that returned a strided view skipped the copy to a dense output every
            # contender pays; an evaluation refuses its ratio (derived_speedups.cpp), so does this.
            strided = {name for name, figures in ((entry.get("evidence") or {}).get("torch") or {}).items()
                       if isinstance(figures, dict) and any(not o.get("contiguous", True) for o in output_layouts(figures))}
            faster = min([ms[n] for n in ("eager_tf32", "compiled_tf32") if n in ms and n not in strided], default=None)
            target = library["tf32"] * 1e3 / faster if faster and "tf32" in library else None
            if target is not None:
                judged += 1
                met += target <= HARD_TO_BEAT
            cell = lambda name: (f"{ms[name]:.4f} ({ratios[name]:.3f})" + (" strided output: refused" if name in strided else "") if name in ms
                                 else "- (" + entry.get("errors", {}).get(name, "?")[:120] + ")")
            evidence = entry.get("evidence", {})
            drift = max((f.get("drift", 0) for f in (evidence.get("library") or {}).values()), default=0)
            tf32 = (evidence.get("library") or {}).get("tf32") or {}
            library_clocks = [f.get("sm_clock_mhz_median", 0) for f in (tf32.get("before") or {}, tf32.get("after") or {}) if f.get("sm_clock_mhz_median")]
            library_mhz = sum(library_clocks) / len(library_clocks) if library_clocks else 0
            eager_mhz = ((evidence.get("torch") or {}).get("eager_tf32") or {}).get("sm_clock_mhz_median") or 0
            if library_mhz and eager_mhz and abs(library_mhz - eager_mhz) > CLOCK_AGREEMENT * eager_mhz:
                clocks_apart.append(entry["problem"])
            clocks = f"{library_mhz:.0f} / {eager_mhz:.0f}" if library_mhz and eager_mhz else "-"
            rows.append([entry["problem"], entry["shape_set"], entry.get("forward", "?"), f"{library.get('tf32', 0) * 1e3:.4f}",
                         f"{library.get('fp32', 0) * 1e3:.4f}", cell("eager_tf32"), cell("eager_fp32"), cell("compiled_tf32"),
                         f"{drift * 100:.1f} %", clocks, f"{target:.3f}" + ("" if target <= HARD_TO_BEAT else " NO") if target is not None else "-"])
    return rows, met, judged, clocks_apart


def run_torch(ctx, options):
    since = ctx.started_utc
    argv = [ctx.bin("kbv"), "calibrate", "--torch", "--out", ctx.torch_calibration, "--python", options.get("python", "python3")]
    for problem in filter(None, options.get("problems", "").split("+")):
        argv += ["--problem", problem]
    for shapes in filter(None, options.get("shapes", "").split("+")):
        argv += ["--shapes", shapes]
    if options.get("compile", "1") == "0":
        argv.append("--no-compile")
    if options.get("kernelbench"):
        argv += ["--kernelbench", options["kernelbench"]]
    if options.get("max_duty"):
        argv += ["--max-duty", options["max_duty"]]
    if options.get("stale", "0") == "1":
        argv.append("--stale")
    result = ctx.run("calibrate-torch", argv, int(options.get("timeout", 540)))
    body = ["## PyTorch calibration", "", f"`{' '.join(str(a) for a in argv[1:])}`", ""]
    body += code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-3000:]}" if not result.ok else ""), limit_lines=200)
    if not ctx.torch_calibration.is_file():
        return False, f"no calibration written ({result.status()})", body
    shutil.copy(ctx.torch_calibration, ctx.out / "torch-baselines.json")
    ctx.use_torch_calibration(f"merged by this run's calibrate:torch into OUT/torch-baselines.json")
    rows, met, judged, clocks_apart = calibration_rows(ctx.torch_calibration, since)
    body += ["", "Medians in ms (ratio to kbv's library baseline in the same math mode: TF32 for eager TF32 and torch.compile, "
             "FP32 for eager FP32); drift: how far the library's median moved across PyTorch's measurement; clocks: the SM clock "
             "(MHz) of the library's TF32 samples and of eager TF32's, which a paced run keeps together; last column: "
             "kbv's TF32 library baseline / the faster of eager TF32 and torch.compile (issue #13: ≤ 1.05).", ""]
    body += md_table(["problem", "shapes", "forward", "library TF32", "library FP32", "eager TF32", "eager FP32", "compiled TF32",
                      "drift", "clocks", "library / faster"], rows)
    body += ["", f"Clocks more than {CLOCK_AGREEMENT:.0%} apart: {', '.join(clocks_apart) if clocks_apart else 'none'}."]
    return (result.ok, f"{len(rows)} entries; library within 5 % of the faster PyTorch on {met} of {judged}; clocks apart on {len(clocks_apart)}",
            body)


def run(ctx, parts, options):
    parts = parts or ["ceilings"]
    ok, headlines, body = True, [], []
    if "ceilings" in parts:
        part_ok, headline, lines = run_ceilings(ctx)
        ok, body = ok and part_ok, body + lines + [""]
        headlines.append(headline)
    if "torch" in parts:
        part_ok, headline, lines = run_torch(ctx, options)
        ok, body = ok and part_ok, body + lines
        headlines.append(headline)
    spec = "calibrate" + (":" + ",".join(parts) if parts != ["ceilings"] else "")
    ctx.write_summary("calibrate", TITLE, ctx.command_for(spec), body)
    return Outcome(ok, "; ".join(headlines)[:110])
