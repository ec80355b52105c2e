"""bench/gpu/runner/suites/keysweep.py — bench/keysweep/keysweep.py on the GPU: the hostile CUDA
candidates whose verdict depends on the hidden input families, each evaluated under N fresh keys
(each key is another draw of every class's family, parameters and seeds), and the honest ones
beside them. Target (#19): every hostile candidate caught under every key, every honest one
passes with no flag under every key.
Parts: hostile, honest (default: both). Options: keys=N (default 40), timing=0 (correctness only,
`kbv eval --no-timing`: the verdicts that depend on the families, at a fraction of the time),
only=REGEX (narrows the part's candidates to file names matching it, e.g. only=wmma_tf32)."""
from common import code_block
from suites import Outcome

TITLE = "Key sweep: hidden families under fresh keys (CUDA)"
PARTS = ["hostile", "honest"]
DEFAULT_KEYS = 40
# The script's own names (bench/keysweep/keysweep.py HOSTILE["cuda"]): a regex on file names per part.
HOSTILE_REGEX = "sampling_relu|softmax_no_max|matmul_fp16|layernorm_biased_merge|precision_bf16|identity_public"
HONEST_REGEX = "^libcuda_|value_dispatch|sync_in_run"
TIME_LIMIT_S = 580  # one device command may run 600 s


def run(ctx, parts, options):
    parts = parts or PARTS
    keys = int(options.get("keys", DEFAULT_KEYS))
    timing = options.get("timing", "1") != "0"
    only = "|".join(regex for part, regex in (("hostile", HOSTILE_REGEX), ("honest", HONEST_REGEX)) if part in parts)
    if options.get("only"):  # both must match: the part's candidates, narrowed
        only = f"(?=.*(?:{options['only']}))(?:{only})"
    argv = ["python3", ctx.repo / "bench" / "keysweep" / "keysweep.py", ctx.bundle, "--device", "cuda", "--keys", str(keys),
            "--only", only] + ([] if timing else ["--no-timing"])
    result = ctx.run("keysweep", argv, TIME_LIMIT_S)
    body = code_block(result.stdout + (f"\n{result.status()}: {result.stderr[-1500:]}" if not result.ok else ""))
    body += ["", f"{keys} fresh keys; {'with timing' if timing else 'correctness only (--no-timing)'}. The script exits 0 only when "
             "both targets are met; its per-key progress is in logs.tar.gz (logs/keysweep.log)."]
    words = [w for w in parts if parts != PARTS] + ([f"keys={keys}"] if keys != DEFAULT_KEYS else []) + ([] if timing else ["timing=0"])
    words += [f"only={options['only']}"] if options.get("only") else []
    ctx.write_summary("keysweep", TITLE, ctx.command_for("keysweep" + (":" + ",".join(words) if words else "")), body)
    met = [line for line in result.stdout.splitlines() if line.startswith("target:")]
    return Outcome(result.ok, "; ".join(met) or result.status())
