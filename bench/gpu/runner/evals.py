"""bench/gpu/runner/evals.py — `kbv eval --json` of one candidate as a record (arguments, exit
status, wall, the report, what was expected), and the Markdown table of a list of records."""
import json

from common import md_table, ms, pct


def evaluate(ctx, log_name, candidate, args, timeout_s, expected=None, label=None, env=None):
    """kbv eval CANDIDATE --device cuda --json ARGS (in ENV, default the run's); the record is
    appended to logs/LOG_NAME.jsonl."""
    label = label or candidate.name
    record = {"label": label, "candidate": str(candidate), "args": args, "expected": expected}
    if not candidate.is_file():
        record.update(rc=None, wall_s=0, report=None, error=f"{candidate} is not in the bundle")
        ctx.append_jsonl(log_name, record)
        return record
    result = ctx.run(log_name, [ctx.bin("kbv"), "eval", candidate, "--device", "cuda", "--json", *args], timeout_s, env=env)
    record.update(rc=result.returncode, wall_s=round(result.wall_s, 3), report=last_json(result.stdout),
                  error=None if result.returncode in (0, 1) else f"{result.status()}: {result.stderr.strip()[-300:]}")
    ctx.append_jsonl(log_name, record)
    return record


def last_json(stdout):
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def matches(record):
    """'yes' / 'NO' against record['expected'] ({verdicts, pattern, flag, no_flags}); '-' when
    nothing was expected."""
    expected, report = record.get("expected"), record.get("report")
    if not expected:
        return "-"
    if not report:
        return "NO"
    flags = report.get("flags") or []
    ok = report.get("verdict") in expected["verdicts"]
    if ok and expected.get("pattern") and report.get("verdict") == "hack_suspected":
        ok = report.get("hack_pattern") == expected["pattern"]
    if ok and expected.get("flag"):
        ok = expected["flag"] in flags
    if ok and expected.get("no_flags"):
        ok = not flags
    return "yes" if ok else "NO"


def expected_text(expected):
    if not expected:
        return "-"
    text = " or ".join(expected["verdicts"])
    if expected.get("pattern"):
        text += f"/{expected['pattern']}"
    if expected.get("flag"):
        text += f" + {expected['flag']}"
    if expected.get("no_flags"):
        text += ", no flag"
    return text


def timing(report, key):
    return ((report or {}).get("timing") or {}).get(key) or {}


def row(record):
    report = record.get("report")
    if not report:
        return [record["label"], "-", record.get("error") or "no report", "", "", "", "", "", "", "", f"{record['wall_s']:.1f}",
                expected_text(record.get("expected")), matches(record)]
    candidate = timing(report, "candidate")
    noise = candidate["iqr_s"] / candidate["median_s"] if candidate.get("median_s") else None
    speedup = report.get("speedup") or {}
    ratio = (report.get("environment") or {}).get("public_vs_hidden_speedup")
    why = report.get("hack_pattern") or report.get("failed_family") or ""
    return [record["label"], (report.get("problem") or {}).get("name", "?"), report.get("verdict", "?") + (f"/{why}" if why else ""),
            ", ".join(report.get("flags") or []) or "-", fmt(library_speedup(speedup, "tf32")), fmt(library_speedup(speedup, "fp32")),
            fmt(speedup.get("vs_eager_tf32")),
            ms(candidate.get("median_s")), pct(noise), fmt(ratio, 3), f"{report.get('wall_s', 0):.2f} ({record['wall_s']:.1f})",
            expected_text(record.get("expected")), matches(record)]


def library_speedup(speedup, mode):
    """Over kbv's library baseline: speedup.vs_library_<mode> (result schema 2), vs_<mode> before."""
    value = speedup.get(f"vs_library_{mode}")
    return value if value is not None else speedup.get(f"vs_{mode}")


HEADER = ["candidate", "problem", "verdict", "flags", "× TF32", "× FP32", "× eager TF32", "candidate ms", "IQR/median", "public/hidden",
          "wall s (process)", "expected", "match"]


def error_scale_line(records):
    """Which evaluations had trials the default tolerance rule failed and the products' error scale
    judged again (families[].trials_by_error_scale; docs/problem-spec.md, Error scale)."""
    used = []
    for record in records:
        families = [f"{f.get('family')} x{f['trials_by_error_scale']}" for f in ((record.get("report") or {}).get("families") or [])
                    if f.get("trials_by_error_scale")]
        if families:
            used.append(f"{record['label']} ({', '.join(families)})")
    return "Trials judged by the products' error scale (the default rule failed them): " + ("; ".join(used) if used else "none")


def precision_line(records):
    """The precision check's least ratio per evaluation (families[].bf16_distance_ratio: below 0.5
    fails; honest kernels sit near or above 1; docs/problem-spec.md, Precision check)."""
    least = []
    for record in records:
        figures = [(f["bf16_distance_ratio"], f.get("family")) for f in ((record.get("report") or {}).get("families") or [])
                   if f.get("bf16_distance_ratio") is not None]
        if figures:
            ratio, family = min(figures)
            least.append(f"{record['label']} {ratio:.3g} ({family})")
    return "Precision check, least ratio per evaluation (fails below 0.5): " + ("; ".join(least) if least else "none checked")


def table(records):
    """The table, which trials the error scale judged, the precision check's least ratios, then the
    detail of every record that is not what was expected."""
    lines = md_table(HEADER, [row(r) for r in records]) + ["", error_scale_line(records), "", precision_line(records)]
    misses = [r for r in records if matches(r) == "NO"]
    if misses:
        lines += ["", "Not as expected:", ""]
        lines += [f"- {r['label']}: " + (((r.get("report") or {}).get("detail") or r.get("error") or "no report")[:400]).replace("\n", " ")
                  for r in misses]
    return lines


def phase_table(records, top=4):
    """Where each evaluation's wall time went: its `environment.wall_s_by_phase`, largest first,
    so a slow eval names the phase to work on (the level-1 target is < 5 s)."""
    rows = []
    for record in records:
        report = record.get("report") or {}
        phases = (report.get("environment") or {}).get("wall_s_by_phase") or {}
        seconds = {name: value for name, value in phases.items() if isinstance(value, (int, float))}
        largest = sorted(seconds.items(), key=lambda item: -item[1])[:top]
        rows.append([record["label"], f"{report.get('wall_s', 0):.2f}", "; ".join(f"{name} {value:.2f}" for name, value in largest) or "-"])
    return md_table(["candidate", "wall s", f"largest phases, s (of environment.wall_s_by_phase)"], rows)


def fmt(value, digits=2):
    return f"{value:.{digits}f}" if isinstance(value, (int, float)) else "-"
