"""bench/gpu/runner/gtest.py — what a GoogleTest binary's output says: the tests that passed,
failed and skipped (with the skip's reason), and the `[ figures  ]` lines kbv's GPU tests print."""
import re

# A parameterised test's line names its parameter before the time: "[  FAILED  ] S/T.N/p, where
# GetParam() = "p" (974 ms)"; the name is what comes before that comma.
RESULT = re.compile(r"^\[\s+(OK|FAILED|SKIPPED)\s+\] ([^\s,]+)(?:, where .*)? \((\d+) ms\)$")
RUN = re.compile(r"^\[ RUN\s+\] (\S+)")


class TestLog:
    def __init__(self):
        self.passed, self.failed, self.skipped, self.figures = [], [], [], []

    @property
    def total(self):
        return len(self.passed) + len(self.failed) + len(self.skipped)


def parse(text):
    """Reads one binary's output. A skip's reason is the first line gtest printed after
    "Skipped" for that test; a test that started but never finished (the binary died) counts as
    failed."""
    log = TestLog()
    running, since_run = None, []
    for line in text.splitlines():
        if line.startswith("[ figures"):
            log.figures.append(line)
            continue
        started = RUN.match(line)
        if started:
            running, since_run = started.group(1), []
            continue
        result = RESULT.match(line)
        if result:
            kind, name = result.group(1), result.group(2)
            if kind == "OK":
                log.passed.append(name)
            elif kind == "FAILED":
                log.failed.append(name)
            else:
                log.skipped.append((name, skip_reason(since_run)))
            running = None
            continue
        if running:
            since_run.append(line)
    if running:
        log.failed.append(running + " (did not finish)")
    return log


def skip_reason(lines):
    for i, line in enumerate(lines):
        if line.strip().endswith("Skipped") and i + 1 < len(lines):
            return lines[i + 1].strip()
    return "no reason printed"
