#!/usr/bin/env bash
# bench/gpu/run.sh OUT BUNDLE SUITE[:PART,…]… — kbv's GPU benchmark runner, on the GPU machine,
# from the repository root, over a bundle bench/gpu/bundle.sh made (the folder, or only its
# .tar.xz beside where the folder goes: unpack.sh makes the folder first). Suites: calibrate, tests,
# corpus, parity, timing, data, daemon, sandbox (all: every one). Each writes OUT/SUITE.md (the
# figures it measured, stamped with commit, GPU, driver, CUDA and date); raw logs go to
# OUT/logs.tar.gz; a short table comes last. bench/gpu/README.md says how to run a round.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench/gpu/run.sh OUT BUNDLE SUITE[:PART,…]…  (bench/gpu/README.md)" >&2; exit 2; }
[ -f "$2/env.sh" ] || [ -f "${2%/}.tar.xz" ] || { echo "run.sh: neither $2/env.sh nor ${2%/}.tar.xz found (fix: pass the folder bench/gpu/bundle.sh made, e.g. .gpu/NAME, and carry .gpu/NAME.tar.xz)" >&2; exit 2; }
"$(dirname "$0")/unpack.sh" "$2"
source "$2/env.sh"
exec python3 "$(dirname "$0")/runner/main.py" "$@"
