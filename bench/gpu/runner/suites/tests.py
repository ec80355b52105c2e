"""bench/gpu/runner/suites/tests.py — every GPU test binary in the bundle (the list bundle.sh
took from ctest's `gpu` label, BUNDLE/gpu-tests.txt), run directly, with the counts, failures,
skips and figure lines of each. Parts: binary names (default: all). Option filter=PATTERN: only the
tests gtest's --gtest_filter=PATTERN selects (a round that checks one op's tests)."""
from common import code_block, md_table
from suites import Outcome
import gtest

TITLE = "GPU tests"
PARTS = []  # any binary named in gpu-tests.txt
# Per binary; kbv_redteam_cuda_tests (about 50 kbv evals) is the longest.
TIMEOUT_S = 540
# Output lines kept in the summary when a binary fails with no failed test to name.
EXIT_TAIL_LINES = 20


def binaries(ctx):
    listed = ctx.bundle / "gpu-tests.txt"
    if listed.is_file():
        return [line.strip() for line in listed.read_text().splitlines() if line.strip() and not line.startswith("#")]
    # A bundle made without bundle.sh: the CUDA test binaries by name, host-only ones left out.
    return sorted(p.name for p in (ctx.bundle / "bin").glob("*cuda*_tests") if "host" not in p.name)


def skip_lines(binary, skipped, listed=5):
    """One line per reason: the count, and the tests' names while there are few."""
    by_reason = {}
    for test, why in skipped:
        by_reason.setdefault(why, []).append(test)
    return [f"- {binary}: {len(tests)} test(s) ({', '.join(tests) if len(tests) <= listed else 'e.g. ' + tests[0]}): {why}"
            for why, tests in by_reason.items()]


def run(ctx, parts, options):
    names = parts or binaries(ctx)
    rows, failures, skips, figures = [], [], [], []
    all_ok = bool(names)
    totals = [0, 0, 0]
    for name in names:
        path = ctx.bin(name)
        if not path.is_file():
            rows.append([name, "-", "-", "-", "-", "not in the bundle"])
            all_ok = False
            continue
        argv = [path] + ([f"--gtest_filter={options['filter']}"] if options.get("filter") else [])
        result = ctx.run(f"tests-{name}", argv, int(options.get("timeout", TIMEOUT_S)))
        log = gtest.parse(result.stdout + "\n" + result.stderr)
        ok = result.ok and not log.failed and not log.skipped and log.total > 0
        all_ok = all_ok and ok
        rows.append([name, len(log.passed), len(log.failed), len(log.skipped), f"{result.wall_s:.0f}", result.status()])
        totals = [totals[0] + len(log.passed), totals[1] + len(log.failed), totals[2] + len(log.skipped)]
        failures += [f"- {name}: {test}" for test in log.failed]
        if not result.ok and not log.failed:
            # Gone wrong outside any test (a crash between tests, a teardown, a time limit): the
            # summary keeps the output's end, since the logs' tarball may not come back.
            tail = (result.stdout + "\n" + result.stderr).strip().splitlines()[-EXIT_TAIL_LINES:]
            failures += [f"- {name}: {result.status()} with no failed test; its output ended:", ""] + code_block("\n".join(tail)) + [""]
        skips += skip_lines(name, log.skipped)
        figures += log.figures
    body = md_table(["binary", "passed", "failed", "skipped", "wall s", "status"], rows)
    body += ["", "A skipped test on the GPU machine is a failure to look at: every GPU test must run there."]
    if failures:
        body += ["", "## Failed", ""] + failures
    if skips:
        body += ["", "## Skipped", ""] + skips
    if figures:
        # The per-phase wall lines stay in the logs: one line per eval is enough here.
        kept = [line for line in figures if "wall_s_by_phase" not in line]
        body += ["", "## Figures the tests printed", ""] + code_block("\n".join(kept))
    spec = "tests" + (":" + ",".join(parts) if parts else "")
    ctx.write_summary("tests", TITLE, ctx.command_for(spec), body)
    return Outcome(all_ok, f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped in {len(names)} binaries")
