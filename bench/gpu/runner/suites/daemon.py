"""bench/gpu/runner/suites/daemon.py — kbvd's throughput on the GPU: kbvd (one CUDA slot, warm
spare on) evaluates every honest CUDA example COPIES times (each copy made distinct by bytes
appended after the ELF image, so kbvd evaluates each once), dropped at once with `kbv submit`;
evaluations per hour from the first submit to the last verdict, and kbvd's time beyond the
evaluators' own, and where the evaluators' time went (each stored report's
environment.wall_s_by_phase, summed). Each copy is submitted with a manifest naming its problem, so
kbvd hands a problem's queued copies to its warm spare together (evaluator.batch).
Options: copies=N (default 2), manifests=0 (submit without manifests: one candidate per evaluator)."""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

from common import md_table, stop_reason
from suites import Outcome
from suites.batch import is_imported_example

TITLE = "kbvd throughput on the GPU"
PARTS = []
DEFAULT_COPIES = 2
START_TIMEOUT_S = 30
EVALUATOR_TIMEOUT_S = 300
ALL_DONE_TIMEOUT_S = 540
SLOWEST_SHOWN = 4  # the slowest evaluations whose phases the summary lists
PHASES_SHOWN = 6


def config(ctx, root):
    return "\n".join([
        "store:", f"  state_dir: {root / 'state'}",
        "watch:", f"  dir: {root / 'inbox'}",
        "control:", f"  socket: {root / 'control.sock'}",
        "metrics:", "  listen: \"\"",
        "evaluator:", f"  command: {ctx.bin('kbv')}", f"  timeout_s: {EVALUATOR_TIMEOUT_S}", f"  key_file: {ctx.env['KBV_KEY_FILE']}",
        "devices:", "  kind: cuda",
        "log:", "  level: info", ""])


def problem_of(example_stem, problem_names):
    """The problem an example candidate (libcuda_<problem>_<variant>) is for: the longest problem
    name its stem starts with, or None."""
    stem = example_stem[len("libcuda_"):] if example_stem.startswith("libcuda_") else example_stem
    matches = [name for name in problem_names if stem == name or stem.startswith(name + "_")]
    return max(matches, key=len) if matches else None


def control(ctx, socket, *args):
    result = ctx.run("daemon-control", [ctx.bin("kbv"), *args, "--socket", socket, "--json"], 30)
    if not result.ok:
        return None
    try:
        return json.loads(result.stdout)
    except ValueError:
        return None


def done_rows(ctx, socket, expected):
    answer = control(ctx, socket, "results", "--state", "done", "--limit", str(expected + 10))
    rows = answer.get("results", answer) if isinstance(answer, dict) else answer
    return rows if isinstance(rows, list) else []


def rate_without_refusals(evaluations, wall):
    """(evaluations that ran, their rate per hour) when some were refused as `resource` (nothing
    run: a problem too large for this GPU's free memory), else None. The refusals' own evaluator
    time comes off the wall (one slot: they ran in turn with the others). Refused in well under a
    second, they flattered the plain rate (r92, H100: conv2d's 4 copies, 0.1–0.44 s each, where the
    H200 evaluates each in 6–7 s)."""
    refused = [e for e in evaluations if e.get("verdict") == "resource"]
    if not refused or len(refused) == len(evaluations):
        return None
    ran_wall = wall - sum(e.get("evaluator_seconds") or 0 for e in refused)
    ran = len(evaluations) - len(refused)
    return ran, ran / ran_wall * 3600 if ran_wall > 0 else None


def evaluators_time(rows):
    """The evaluators' own seconds summed over kbvd's result rows."""
    return sum((r.get("evaluation") or {}).get("evaluator_seconds") or 0 for r in rows)


def curated_rate(rows, wall):
    """(curated evaluations, their rate per hour) over the examples of kbv's curated problems alone
    (issue #15 states its target over them; libcuda_kb_… are KernelBench imports): their
    evaluators' time plus kbvd's mean time beyond the evaluators per evaluation, each. None when
    every example is curated or none is. One slot runs the evaluations in turn, so the subset's
    share of the wall is its own evaluators' time and its share of kbvd's."""
    curated = [r for r in rows if not is_imported_example(r.get("name") or "")]
    if not curated or len(curated) == len(rows):
        return None
    beyond = (wall - evaluators_time(rows)) / len(rows)
    subset_wall = evaluators_time(curated) + beyond * len(curated)
    return len(curated), (len(curated) / subset_wall * 3600 if subset_wall > 0 else None)


def stored_reports(database):
    """Every `kbv eval` report kbvd's store holds (verdicts.report_json), read-only."""
    if not Path(database).is_file():
        return []
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        texts = [text for (text,) in db.execute("SELECT report_json FROM verdicts WHERE report_json IS NOT NULL")]
    reports = []
    for text in texts:
        try:
            reports.append(json.loads(text))
        except ValueError:
            continue
    return reports


def phase_totals(reports):
    """(phase, seconds) of environment.wall_s_by_phase summed over `reports`, largest first."""
    totals = {}
    for report in reports:
        phases = ((report or {}).get("environment") or {}).get("wall_s_by_phase") or {}
        for phase, seconds in phases.items():
            totals[phase] = totals.get(phase, 0.0) + float(seconds)
    return sorted(totals.items(), key=lambda item: (-item[1], item[0]))


def slowest_rows(reports, count=SLOWEST_SHOWN, phases_shown=PHASES_SHOWN):
    """The `count` stored reports with the largest wall_s, each as [name, wall, kept timing
    samples, how their sampling stopped, its costliest phases]: where a slow evaluation's time
    goes (a slow candidate sampled to its budget, or a phase only it pays)."""
    rows = []
    for report in sorted(reports, key=lambda r: -float((r or {}).get("wall_s") or 0))[:count]:
        environment = report.get("environment") or {}
        phases = phase_totals([report])[:phases_shown]
        samples = ((report.get("timing") or {}).get("candidate") or {}).get("samples")
        rows.append([(report.get("candidate") or {}).get("name") or "?", f"{float(report.get('wall_s') or 0):.2f}",
                     str(samples) if samples else "-", stop_reason(environment),
                     ", ".join(f"{phase} {float(seconds):.2f}" for phase, seconds in phases) or "-"])
    return rows


def stop(kbvd):
    """SIGTERM to kbvd's process group (it drains), SIGKILL if it has not gone in 90 s."""
    if kbvd.poll() is not None:
        return
    try:
        os.killpg(kbvd.pid, signal.SIGTERM)
        kbvd.wait(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(kbvd.pid, signal.SIGKILL)
        kbvd.wait()
    except ProcessLookupError:
        kbvd.wait()


def run(ctx, parts, options):
    copies = int(options.get("copies", DEFAULT_COPIES))
    root = ctx.scratch / "kbvd"
    for sub in ("inbox", "state", "staging"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "kbvd.yaml").write_text(config(ctx, root))
    # kbvd never makes a key (a new one would change every hidden family): when no suite before
    # this one made the run's key with a `kbv eval`, make it here.
    key = Path(ctx.env["KBV_KEY_FILE"])
    if not key.exists():
        made = ctx.run("daemon-keygen", [ctx.bin("kbv"), "keygen", "--key-file", key], 30)
        if not made.ok:
            ctx.write_summary("daemon", TITLE, ctx.command_for("daemon"), [f"kbv keygen failed: {made.status()}: {made.stderr[-500:]}"])
            return Outcome(False, "no key")
    manifests = options.get("manifests", "1") != "0"
    listed = ctx.run("daemon-problems", [ctx.bin("kbv"), "problems", "--json"], 60)
    try:
        problem_names = [p["name"] for p in json.loads(listed.stdout)] if manifests and listed.ok else []
    except (ValueError, KeyError, TypeError):
        problem_names = []
    files = []
    for so in sorted((ctx.bundle / "candidates" / "cuda").glob("*.so")):
        problem = problem_of(so.stem, problem_names)
        for k in range(copies):
            copy = root / "staging" / f"{so.stem}_{k}.so"
            shutil.copy(so, copy)
            with open(copy, "ab") as f:
                f.write(f"\nkbv-gpu-bench copy {k}\n".encode())
            manifest = None
            if problem:
                manifest = root / "staging" / f"{so.stem}_{k}.yaml"
                manifest.write_text(f"problem: {problem}\n")
            files.append((copy, manifest))
    socket = root / "control.sock"
    log = open(ctx.logs / "daemon-kbvd.log", "w")
    kbvd = subprocess.Popen([str(ctx.bin("kbvd")), "--config", str(root / "kbvd.yaml")], stdout=log, stderr=subprocess.STDOUT,
                            env=ctx.env, start_new_session=True)
    body, rows, wall, started = [], [], None, False
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while control(ctx, socket, "status") is None:
            if kbvd.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"kbvd did not answer on {socket} (exit {kbvd.poll()}); see logs/daemon-kbvd.log")
            time.sleep(0.5)
        started, start = True, time.monotonic()
        for f, manifest in files:
            ctx.run("daemon-control", [ctx.bin("kbv"), "submit", f, "--socket", socket, *(["--manifest", manifest] if manifest else [])], 30)
        while time.monotonic() - start < ALL_DONE_TIMEOUT_S:
            rows = done_rows(ctx, socket, len(files))
            if len(rows) >= len(files):
                wall = time.monotonic() - start
                break
            time.sleep(1)
    except RuntimeError as error:
        body += [str(error), ""]
    finally:
        stop(kbvd)
        log.close()
    evaluations = [r.get("evaluation") or {} for r in rows]
    own = evaluators_time(rows)
    verdicts = {}
    for e in evaluations:
        verdicts[e.get("verdict")] = verdicts.get(e.get("verdict"), 0) + 1
    with_manifest = sum(1 for _, manifest in files if manifest)
    body += [f"{len(files)} candidates ({copies} distinct copies of each honest CUDA example), one CUDA slot, warm spare on; "
             f"{with_manifest} submitted with a manifest naming their problem (kbvd batches those of one problem).", ""]
    refusals = rate_without_refusals(evaluations, wall) if wall else None
    curated = curated_rate(rows, wall) if wall else None
    if wall:
        per_hour = len(files) / wall * 3600
        body += md_table(["figure", "value"], [
            ["evaluations", len(rows)],
            ["verdicts", ", ".join(f"{v}: {n}" for v, n in sorted(verdicts.items(), key=str))],
            ["first submit to last verdict", f"{wall:.1f} s"],
            ["evaluations per hour", f"{per_hour:.0f}"],
            *([[f"evaluations per hour, the {refusals[0]} that ran (the `resource` refusals' time off the wall)",
                f"{refusals[1]:.0f}" if refusals[1] else "-"]] if refusals else []),
            *([[f"evaluations per hour, the {curated[0]} of kbv's curated problems alone (their evaluators' time and their share of kbvd's)",
                f"{curated[1]:.0f}" if curated[1] else "-"]] if curated else []),
            ["evaluators' own time (sum)", f"{own:.1f} s"],
            ["kbvd's time beyond the evaluators, per evaluation", f"{(wall - own) / len(rows):.2f} s (negative: a warm spare's start-up overlapped the previous evaluation)"],
        ])
        body += ["", "## Each evaluation", ""]
        body += md_table(["candidate", "verdict", "evaluator s", "× TF32", "flags"],
                         [[r.get("name"), (r.get("evaluation") or {}).get("verdict"), f"{(r.get('evaluation') or {}).get('evaluator_seconds') or 0:.2f}",
                           f"{(r.get('evaluation') or {}).get('speedup_vs_tf32') or 0:.2f}", ", ".join((r.get("evaluation") or {}).get("flags") or []) or "-"]
                          for r in sorted(rows, key=lambda r: r.get("name", ""))])
        reports = stored_reports(root / "state" / "kbvd.sqlite3")
        if reports:
            body += ["", f"## Where the evaluators' time went ({len(reports)} stored reports, environment.wall_s_by_phase)", ""]
            body += md_table(["phase", "total s", "per evaluation s"],
                             [[phase, f"{seconds:.2f}", f"{seconds / len(reports):.3f}"] for phase, seconds in phase_totals(reports)])
            body += ["", f"## The {SLOWEST_SHOWN} slowest evaluations (wall_s), their kept timing samples, how sampling stopped, and their costliest phases", ""]
            body += md_table(["candidate", "wall s", "samples", "stopped on", "costliest phases (s)"], slowest_rows(reports))
    elif started:
        body += [f"Not all evaluations finished: {len(rows)} of {len(files)} done within {ALL_DONE_TIMEOUT_S} s (logs/daemon-kbvd.log)."]
    words = ([f"copies={copies}"] if copies != DEFAULT_COPIES else []) + ([] if manifests else ["manifests=0"])
    spec = "daemon" + (":" + ",".join(words) if words else "")
    ctx.write_summary("daemon", TITLE, ctx.command_for(spec), body)
    passed = verdicts.get("pass", 0)
    ok = bool(wall) and passed == len(files)
    ran = f" ({refusals[1]:.0f}/hour over the {refusals[0]} not refused for memory)" if refusals and refusals[1] else ""
    return Outcome(ok, f"{len(files) / wall * 3600:.0f} evaluations/hour{ran}, {passed} of {len(files)} pass" if wall
                   else ("did not finish" if started else "kbvd did not start"))
