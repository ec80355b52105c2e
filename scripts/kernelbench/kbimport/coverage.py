"""kbimport/coverage.py — the coverage table the importer prints and writes to COVERAGE.md:
every problem imported, curated or refused (with why), and the missing kbv ops in the order
that unlocks the most problems."""
from collections import Counter
from pathlib import Path


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _row(record):
    if record.status == "imported":
        what = f"`{record.name}`" + (" (GPU only)" if getattr(record, "gpu_only", False) else "")
        detail = " → ".join(record.ops)
        if record.nondeterministic:
            detail += f" (deterministic: false — {record.nondeterministic})"
        if record.reason:
            detail += f"; {record.reason}"
    elif record.status == "curated":
        what = f"curated: problems/{Path(record.curated).name}"
        detail = " → ".join(record.ops) + (f"; **{record.reason}**" if record.reason else "")
    else:
        what = "refused"
        detail = record.reason
    return f"| L{record.level} | {record.id} | {_cell(record.file)} | {what} | {_cell(detail)} |"


def table(records):
    lines = ["| level | id | file | kbv | ops, or why not |", "|---|---|---|---|---|"]
    lines += [_row(r) for r in records]
    return "\n".join(lines)


def greedy_order(records):
    """[(feature, problems it completes, cumulative covered)]: each step adds the missing op that
    completes the most refused problems (ties: the one needed by most problems)."""
    pending = [set(r.missing) for r in records if r.status == "refused" and r.missing
               and not any(m.startswith("unmapped") for m in r.missing)]
    done = sum(r.status in ("imported", "curated") for r in records)
    order, have = [], set()
    needed = Counter(m for missing in pending for m in missing)
    while pending:
        best, best_gain = None, -1
        for feature in needed:
            if feature in have:
                continue
            gain = sum(1 for missing in pending if missing - have == {feature})
            if (gain, needed[feature]) > (best_gain, needed.get(best, 0)):
                best, best_gain = feature, gain
        if best is None:
            break
        have.add(best)
        completed = [m for m in pending if m <= have]
        pending = [m for m in pending if not m <= have]
        done += len(completed)
        order.append((best, len(completed), done))
    return order


def document(records, levels):
    counts = {level: Counter(r.status for r in records if r.level == level) for level in levels}
    lines = ["# KernelBench coverage",
             "",
             "Written by `scripts/kernelbench/kbv-import-kernelbench` (do not edit): what became of every KernelBench problem of",
             f"level {', '.join(map(str, levels))}. *imported*: `problems/kernelbench/<name>.yaml`; *curated*: one of kbv's",
             "hand-written problems is this problem (same graph and shapes); *refused*: the reason, usually the kbv ops it",
             "needs (specified in `scripts/kernelbench/OPS.md`). *GPU only*: imported at KernelBench's sizes alone (`gpu_only:`",
             "in its YAML) because no sizes that keep its graph fit the host's budget; the GPU evaluates and validates it.",
             "",
             "| level | imported | of which GPU only | curated | refused | total |",
             "|---|---|---|---|---|---|"]
    for level in levels:
        c = counts[level]
        gpu_only = sum(1 for r in records if r.level == level and r.status == "imported" and getattr(r, "gpu_only", False))
        lines.append(f"| {level} | {c['imported']} | {gpu_only} | {c['curated']} | {c['refused']} | {sum(c.values())} |")
    needed = Counter()
    by_level = {}
    for record in records:
        if record.status == "refused":
            for feature in record.missing:
                needed[feature] += 1
                by_level.setdefault(feature, Counter())[record.level] += 1
    lines += ["", "## Missing kbv ops, in the order that unlocks the most problems", "",
              "Each step adds the op that completes the most refused problems given the ops before it; *needed by* counts",
              "every refused problem that uses it (L1/L2/L3).", "",
              "| step | op or extension | completes | covered after | needed by (L1/L2/L3) |", "|---|---|---|---|---|"]
    total = len(records)
    for step, (feature, completed, covered) in enumerate(greedy_order(records), 1):
        per = by_level.get(feature, Counter())
        lines.append(f"| {step} | `{feature}` | {completed} | {covered}/{total} | {needed[feature]} ({per[1]}/{per[2]}/{per[3]}) |")
    unmapped = Counter(r.reason.split(":")[0] for r in records if r.status == "refused" and not r.missing)
    unmapped.update(m for r in records if r.status == "refused" for m in r.missing if m.startswith("unmapped"))
    if unmapped:
        lines += ["", "## Refused for other reasons", "", "| reason | problems |", "|---|---|"]
        for reason, count in unmapped.most_common():
            lines.append(f"| {_cell(reason)} | {count} |")
    lines += ["", "## Problems", "", table(records), ""]
    return "\n".join(lines)
