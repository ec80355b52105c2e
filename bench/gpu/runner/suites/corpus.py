"""bench/gpu/runner/suites/corpus.py — `kbv eval --device cuda --json` of every honest CUDA
example at its default size (each must pass with no flag) and of every CUDA red-team candidate
with the options and the verdict tests/redteam/EXPECTED.md gives it: one table of verdict,
flags, speedups, noise, public/hidden speedup ratio and wall per candidate.
Parts: honest, redteam (default: both). kbv_redteam_cuda_tests asserts the same verdicts; this
suite is the table of what each candidate got and how long it took."""
import re

import evals
from suites import Outcome

TITLE = "CUDA corpora: honest examples and red team"
PARTS = ["honest", "redteam"]
EVAL_TIMEOUT_S = 150  # one kbv eval, worker start and a cold cudnnFind included
EXPECTED_MD = "tests/redteam/EXPECTED.md"


def redteam_rows(expected_md):
    """The CUDA table of EXPECTED.md as (candidate file, kbv eval arguments, expectation)."""
    rows, in_cuda = [], False
    for line in expected_md.splitlines():
        if line.startswith("## "):
            in_cuda = line.strip() == "## CUDA candidates"
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not in_cuda or len(cells) < 6 or not cells[0].endswith(".cu"):
            continue
        source, verdict, marks, notes = cells[0], cells[3], cells[4], cells[5]
        verdicts = [verdict.split()[0]] + re.findall(r"\bor (\w+)", verdict + " " + marks)
        expectation = {"verdicts": verdicts,
                       "pattern": marks if re.fullmatch(r"[a-z_]+", marks) and verdicts[0] == "hack_suspected" else None,
                       "flag": (re.fullmatch(r"flag `?([a-z_]+)`?", marks) or [None, None])[1],
                       "no_flags": "no flag" in marks}
        shapes = "small" if "--shapes small" in line else "default"
        # A spinning kernel is ended by the call timeout: keep it short (as the test does).
        timeout = "10" if "timeout" in verdicts else "20"
        rows.append((f"libredteam_{source[:-3]}.so", ["--shapes", shapes, "--timeout-s", timeout], expectation))
    return rows


def run(ctx, parts, options):
    parts = parts or PARTS
    body, records = [], []
    if "honest" in parts:
        honest = [evals.evaluate(ctx, "corpus", so, [], EVAL_TIMEOUT_S, {"verdicts": ["pass"], "no_flags": True})
                  for so in sorted((ctx.bundle / "candidates" / "cuda").glob("*.so"))]
        passed = sum(evals.matches(r) == "yes" for r in honest)
        body += ["## Honest CUDA examples (default sizes)", "", f"{passed} of {len(honest)} pass with no flag.", ""]
        body += evals.table(honest) + [""]
        body += ["Where each honest eval's wall time went:", ""] + evals.phase_table(honest) + [""]
        records += honest
    if "redteam" in parts:
        expected_md = (ctx.repo / EXPECTED_MD).read_text()
        hostile = [evals.evaluate(ctx, "corpus", ctx.bundle / "candidates" / "redteam" / so, args, EVAL_TIMEOUT_S, expectation)
                   for so, args, expectation in redteam_rows(expected_md)]
        matched = sum(evals.matches(r) == "yes" for r in hostile)
        body += ["## CUDA red team", "", f"{matched} of {len(hostile)} get the verdict {EXPECTED_MD} expects.", ""]
        body += evals.table(hostile) + [""]
        records += hostile
    body += ["`× TF32`, `× FP32`: speedup over kbv's library baselines; `× eager TF32`: over PyTorch eager with TF32, derived from "
             "the PyTorch calibration (`-` without one: run `calibrate:torch` first); `IQR/median`: the candidate's timing noise, pooled over "
             "families; `public/hidden`: speedup on the public family over the median on the hidden ones; wall: "
             "the report's `wall_s` (the process's, start included, in brackets). Every report is in "
             "logs.tar.gz (logs/corpus.jsonl)."]
    spec = "corpus" + (":" + ",".join(parts) if parts != PARTS else "")
    ctx.write_summary("corpus", TITLE, ctx.command_for(spec), body)
    good = sum(evals.matches(r) == "yes" for r in records)
    walls = [r["report"]["wall_s"] for r in records if r.get("report")]
    return Outcome(good == len(records) and bool(records),
                   f"{good} of {len(records)} as expected; eval wall {min(walls, default=0):.1f}–{max(walls, default=0):.1f} s")
