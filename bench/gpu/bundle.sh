#!/usr/bin/env bash
# bench/gpu/bundle.sh NAME [BUILD_DIR] — makes .gpu/NAME, what bench/gpu/run.sh runs on the GPU
# machine: gpu-bundle of BUILD_DIR/bin (default build/bin) and problems/ (the libraries the GPU
# machine lacks land in lib/, env.sh sets their path), every candidate .so under
# BUILD_DIR/candidates, all stripped; share/kbv/torch (kbv_torch, for kbv calibrate --torch); gpu-tests.txt, the test binaries ctest labels `gpu` (not
# `bench`: the benchmarks have their own suites); KernelBench's problem files when
# $KBV_KERNELBENCH names a checkout (the kernelbench suite); host-only test binaries left out; and
# bundle.json, the commit and time it was built from. Then packs it as .gpu/NAME.tar.xz, what
# travels (carry it; bench/gpu/unpack.sh, which run.sh calls, unpacks it there), and prints both
# sizes; the packed one must stay under 60 MiB (what travels with the working tree, 64 MiB in all).
# gpu-bundle is found as $KBV_GPU_BUNDLE, else on PATH, else ../shared/tools/gpu-bundle.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/gpu/bundle.sh NAME [BUILD_DIR]" >&2; exit 2; }
cd "$(dirname "$0")/../.."
name=$1 build=${2:-build} out=.gpu/$1
limit_mib=60
tool=${KBV_GPU_BUNDLE:-$(command -v gpu-bundle || echo ../shared/tools/gpu-bundle)}
[ -x "$tool" ] || { echo "bundle.sh: gpu-bundle not found (fix: set KBV_GPU_BUNDLE to its path)" >&2; exit 2; }
[ -x "$build/bin/kbv" ] || { echo "bundle.sh: $build/bin/kbv not found (fix: cmake --build $build)" >&2; exit 2; }

rm -rf "$out"
# Binaries and problems first; candidates are copied after, so gpu-bundle never reads the
# deliberately broken hostile files (candidates/hostile/bad_truncated.so makes it fail).
"$tool" "$out" "$build/bin" problems > /dev/null 2> >(grep -v "too large to carry" >&2)  # it warns before the strip below
is_elf() { head -c 4 "$1" 2>/dev/null | grep -q 'ELF'; }
# Debug information is most of a RelWithDebInfo binary's size and of no use there.
find "$out/bin" -type f | while read -r f; do is_elf "$f" && strip --strip-unneeded "$f" 2> /dev/null || true; done
# kbv_torch, PyTorch's side of `kbv calibrate --torch`, where an installed kbv-calibrate looks (bin/../share/kbv/torch).
mkdir -p "$out/share/kbv/torch/kbv_torch"
cp bench/calibrate/python/kbv_torch/*.py "$out/share/kbv/torch/kbv_torch/"
(cd "$build" && find candidates -name '*.so' -type f) | while read -r so; do
  mkdir -p "$out/$(dirname "$so")"
  cp "$build/$so" "$out/$so"
  # A hostile file that is not a well-formed ELF stays as it is: what it is is the test.
  strip --strip-unneeded "$out/$so" 2> /dev/null || cp "$build/$so" "$out/$so"
done
# Candidates need nothing beyond glibc and the CUDA libraries the GPU machine has; say so if one does.
find "$out/candidates" -name '*.so' | while read -r so; do
  { ldd "$so" 2> /dev/null || true; } | awk -v so="$so" '$2 == "=>" && $3 == "not" { print "bundle.sh: warning: " so " needs " $1 ", not found here" }' >&2
done

# The SDK's out-of-tree CUDA candidates (tests/sdk/out_of_tree), built here as the README tells an
# author (SDK-only install, find_package(KbvSDK), kbv_add_candidate): the GPU machine has no
# cmake, so kbv_sdk_gpu_tests evaluates these (KBV_TEST_OUT_OF_TREE_BUILD, set by the runner).
if [ -n "$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" ]; then
  sdk_tmp=$(mktemp -d)
  trap 'rm -rf "$sdk_tmp"' EXIT
  cmake --install "$build" --prefix "$sdk_tmp/sdk" --component sdk > /dev/null
  cmake -S tests/sdk/out_of_tree -B "$sdk_tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$sdk_tmp/sdk" -DWITH_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" > "$sdk_tmp/configure.log" 2>&1 \
    || { cat "$sdk_tmp/configure.log" >&2; exit 1; }
  cmake --build "$sdk_tmp/build" > "$sdk_tmp/build.log" 2>&1 || { cat "$sdk_tmp/build.log" >&2; exit 1; }
  mkdir -p "$out/sdk-out-of-tree"
  for so in libmy_relu_sm90.so libmy_matmul_cublas.so; do
    cp "$sdk_tmp/build/$so" "$out/sdk-out-of-tree/"
    strip --strip-unneeded "$out/sdk-out-of-tree/$so"
  done
fi

# A KernelBench checkout for the kernelbench suite (the GPU machine has no network): its problem
# files only (levels 1-3, about 1 MiB), from $KBV_KERNELBENCH (the folder holding level1/ or its parent).
if [ -n "${KBV_KERNELBENCH:-}" ]; then
  kb=$KBV_KERNELBENCH
  [ -d "$kb/level1" ] || kb=$kb/KernelBench
  [ -d "$kb/level1" ] || { echo "bundle.sh: KBV_KERNELBENCH=$KBV_KERNELBENCH holds no level1/ (fix: point it at KernelBench's KernelBench/ folder)" >&2; exit 2; }
  mkdir -p "$out/kernelbench/KernelBench"
  for level in level1 level2 level3; do cp -r "$kb/$level" "$out/kernelbench/KernelBench/"; done
fi

ctest --test-dir "$build" -L gpu -LE bench --show-only=json-v1 2> /dev/null | python3 -c '
import json, os, sys
names = sorted({os.path.basename(t["command"][0]) for t in json.load(sys.stdin).get("tests", []) if t.get("command")})
print("# GPU test binaries (ctest label gpu, not bench), written by bench/gpu/bundle.sh")
print("\n".join(n for n in names if os.path.isfile(os.path.join(sys.argv[1], "bin", n))))
' "$out" > "$out/gpu-tests.txt"

# Host-only test binaries have nothing to do there (the tests suite runs gpu-tests.txt's list) and
# would take the bundle over what travels.
for f in "$out"/bin/*_test "$out"/bin/*_tests; do
  [ -e "$f" ] && ! grep -qx "$(basename "$f")" "$out/gpu-tests.txt" && rm -f "$f"
done

# KBV_BUNDLE_SUITES=tests,kernelbench,daemon,...: a round that runs none of the benchmark suites leaves
# their binaries (kbv_bench_*, kbvd_bench: 8 MiB) out, keeping the bundle under what travels.
if [ -n "${KBV_BUNDLE_SUITES:-}" ] && ! echo ",$KBV_BUNDLE_SUITES," | grep -Eq ',(timing|data|sandbox|parity|all),'; then
  rm -f "$out"/bin/kbv_bench_* "$out"/bin/kbvd_bench
fi

dirty=$(git status --porcelain --untracked-files=no | grep -q . && echo "-dirty" || true)
printf '{"commit": "%s%s", "built_utc": "%s", "build_dir": "%s"}\n' "$(git rev-parse --short=12 HEAD)" "$dirty" \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$build" > "$out/bundle.json"

# What travels: the folder packed (xz: a quarter of its size); bench/gpu/unpack.sh (run.sh calls it)
# makes the folder again on the GPU machine.
rm -f "$out.tar.xz"
tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -T2 -6 > "$out.tar.xz"
size=$(du -sm "$out" | cut -f1)
packed=$(du -sm "$out.tar.xz" | cut -f1)
echo "bench/gpu/bundle.sh: $out holds ${size} MiB (${packed} MiB packed in $out.tar.xz, what to carry): $(ls "$out/bin" | wc -l) binaries, $(find "$out/candidates" -name '*.so' | wc -l) candidates, $(ls "$out/lib" | wc -l) libraries; GPU tests: $(grep -v '^#' "$out/gpu-tests.txt" | tr '\n' ' ')"
if [ "$packed" -ge "$limit_mib" ]; then
  echo "bench/gpu/bundle.sh: $out.tar.xz is ${packed} MiB, over the ${limit_mib} MiB that can travel (fix: bundle fewer binaries, e.g. KBV_BUNDLE_SUITES=tests,kernelbench leaves the benchmarks out)" >&2
  exit 1
fi
