"""bench/gpu/runner/suites — one module per suite; each has TITLE, PARTS (what `SUITE:PART,…`
may name; empty: every part) and run(ctx, parts, options) -> Outcome."""


class Outcome:
    """ok: the suite ran to the end and its checks held; headline: one line for the closing table."""

    def __init__(self, ok, headline):
        self.ok, self.headline = ok, headline
