#!/usr/bin/env bash
# bench/gpu/unpack.sh BUNDLE — on the GPU machine: makes the bundle folder BUNDLE (e.g. .gpu/r1)
# from BUNDLE.tar.xz, the archive bench/gpu/bundle.sh writes beside it and the one that travels
# (a quarter of the folder's size, so every binary fits what travels). Nothing to do when
# BUNDLE/env.sh exists already. With tar and xz, else with python3's tarfile. run.sh calls it;
# call it yourself before `source BUNDLE/env.sh` to run a bundle's binaries directly.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/gpu/unpack.sh BUNDLE  (e.g. .gpu/r1, with .gpu/r1.tar.xz beside it)" >&2; exit 2; }
bundle=${1%/}
[ -f "$bundle/env.sh" ] && exit 0
archive=$bundle.tar.xz
[ -f "$archive" ] || { echo "unpack.sh: neither $bundle/env.sh nor $archive exists (fix: carry .gpu/NAME.tar.xz, which bench/gpu/bundle.sh NAME writes)" >&2; exit 2; }
parent=$(dirname "$bundle")
rm -rf "$bundle"
if command -v xz > /dev/null && tar --version > /dev/null 2>&1; then
  tar -xJf "$archive" -C "$parent"
else
  python3 - "$archive" "$parent" <<'PY'
import sys, tarfile
with tarfile.open(sys.argv[1], "r:xz") as archive:
    kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    archive.extractall(sys.argv[2], **kwargs)
PY
fi
[ -f "$bundle/env.sh" ] || { echo "unpack.sh: $archive holds no $(basename "$bundle")/env.sh (fix: make it again with bench/gpu/bundle.sh $(basename "$bundle"))" >&2; exit 1; }
