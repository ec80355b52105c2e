"""host_examples.py — the kbv binary and the host example candidates of a build, for the host benches.

Shared by bench_eval_host.py and clock_agreement.py, which run `kbv eval` on the same candidates.
"""
import sys
import tempfile
from pathlib import Path


def locate(build: Path, only: list[str] | None) -> tuple[Path, list[Path]] | None:
    """build/bin/kbv and build/candidates/host/lib*.so (those named by --only, without lib/.so),
    or None after saying on stderr that the build is missing."""
    kbv = build / "bin" / "kbv"
    candidates = sorted(c for c in (build / "candidates" / "host").glob("*.so") if not only or c.stem[3:] in only)
    if not kbv.exists() or not candidates:
        print(f"no kbv or host candidates under {build}: build first", file=sys.stderr)
        return None
    return kbv, candidates


def batch_copies(candidate: Path, count: int, scratch: Path) -> list[Path]:
    """`count` copies of `candidate` in a folder of their own under `scratch` (a kbv eval of one
    batch; concurrent batches never share a file)."""
    folder = Path(tempfile.mkdtemp(dir=scratch, prefix="batch"))
    copies = [folder / f"{i}_{candidate.name}" for i in range(count)]
    for copy in copies:
        copy.write_bytes(candidate.read_bytes())
    return copies
