# probe_lib.sh — sourced by the GPU round scripts, the steps they share:
#   round_begin OUT BUNDLE  the bundle's libraries, kbv's and the tests' paths on the GPU
#                           machine, $log (OUT/summary.txt) opened with the GPU's name and clocks
#   gpu_tests BIN [FILTER]  one GPU test binary: a result line, failures and figure lines in
#                           $log, its whole output appended to OUT/unit_tests.log
#   corpus_tests [FILTER]   kbv_redteam_cuda_tests (CUDA red-team and honest corpora): time,
#                           result, failures and one figure line per eval in $log, its output
#                           in OUT/cuda_corpus_tests.log
#   probe NAME ENV... -- KBV_EVAL_ARGS
#                           one `kbv eval --json` (60 s limit) with extra environment: a summary
#                           (verdict, pattern, detail, flags, wall, trace, candidate/baseline
#                           medians, worker stderr) in $log, the raw JSON in OUT/evals.jsonl
#   last_eval EXPR          what the Python expression EXPR says of the last probe's result
#                           (d: its JSON, e: its environment), in $log
#   gate_off_probes         probe four honest examples with the launch gate off (rounds l, m)
# BUNDLE is a folder ../shared/tools/gpu-bundle made (bin/, lib/, env.sh, plus problems/ and
# candidates/ copied beside them), carried to the GPU machine, e.g. .gpu/r13.
# probe needs $b (the bundle), $out and $log, which round_begin sets.
show() { python3 -c '
import json,sys
raw=sys.stdin.read().strip().splitlines()
if not raw: print("  no JSON"); sys.exit()
d=json.loads(raw[-1]); e=d.get("environment") or {}; t=d.get("timing") or {}
m=lambda k: round(((t.get(k) or {}).get("median_s") or 0)*1e3, 4)
c=t.get("candidate") or {}
print("  ", d["verdict"], d.get("hack_pattern"), "|", d["detail"][:160], "| flags", d["flags"], "| wall", round(d["wall_seconds"],2), "| trace", str(e.get("trace"))[:12], "| cand ms", m("candidate"), "iqr", round((c.get("iqr_s") or 0)*1e3,4), "n", c.get("samples"), "span", m("candidate_kernel_span"), "tf32", m("baseline_tf32"), "fp32", m("baseline_fp32"))
w=d.get("worker_stderr_tail","")
if w: print("   worker stderr:", w[-500:].replace("\n"," / "))
'; }
probe() {
  name=$1; shift; envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  echo "== $name" >> $log
  timeout 60 env "${envs[@]}" $b/bin/kbv eval "$@" --json > $out/p.json 2> $out/p.err; echo "  rc=$?" >> $log
  show < $out/p.json >> $log 2>&1; tail -2 $out/p.err >> $log
  cat $out/p.json >> $out/evals.jsonl
}

round_begin() {
  out=$1; b=$2; source $b/env.sh
  export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
  export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
  log=$out/summary.txt
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
}

gpu_tests() {
  local binary=$1 filter=${2:-*}
  timeout 200 $b/bin/$binary --gtest_filter="$filter" > $out/gpu_tests.out 2>&1
  echo "$binary rc=$? $(grep -cE '^\[       OK' $out/gpu_tests.out) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/gpu_tests.out | tr '\n' ' ')" >> $log
  grep -E "^\[  FAILED|launched 300 us|host wait behind|figures|KS distance" $out/gpu_tests.out >> $log
  cat $out/gpu_tests.out >> $out/unit_tests.log; rm -f $out/gpu_tests.out
}

corpus_tests() {
  local filter=${1:-*} start=$EPOCHREALTIME
  timeout 300 $b/bin/kbv_redteam_cuda_tests --gtest_filter="$filter" > $out/cuda_corpus_tests.log 2>&1
  echo "kbv_redteam_cuda_tests ($filter) rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
  grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
  grep -E "^\[ figures" $out/cuda_corpus_tests.log | grep -v wall_s_by_phase | cut -c1-230 >> $log
}

last_eval() {
  python3 -c "import json;d=json.loads(open('$out/p.json').read().strip().splitlines()[-1]);e=d.get('environment') or {};print('  ', $1)" >> $log 2>&1
}

gate_off_probes() {
  local p
  for p in relu:relu_vec4 layernorm:layernorm_welford sum_dim1:sum_dim1_tiled softmax:softmax_online; do
    probe "gate off: ${p%%:*}" KBV_WORKER_LAUNCH_GATE=off -- $b/candidates/cuda/libcuda_${p#*:}.so --device cuda
  done
}
