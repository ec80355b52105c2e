#!/usr/bin/env bash
# gpu_round.sh BUNDLE OUT PART — one round on a GPU machine over a gpu-bundle of build/bin,
# build/candidates and problems/: PART "a" runs the CUDA device's GPU tests, kbv-calibrate and
# kbv eval of every honest CUDA example at KernelBench's default sizes; PART "b" runs the CUDA
# red-team corpus and the baseline timing bench; PART "ab" both, without the GPU tests. Logs go to OUT (at most 8 files).
set -u
bundle=$(cd "$1" && pwd); out=$2; part=$3
source "$bundle/env.sh"
export KBV_PROBLEMS_DIR=$bundle/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key
summary=$out/summary.txt
summarize() { python3 "$bundle/../../bench/gpu_round/summarize.py" "$@"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.used --format=csv | tee -a "$summary"
if [ "$part" = a ] || [ "$part" = ab ]; then
  [ "$part" = a ] && for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
    timeout 300 "$bundle/bin/$t" > "$out/$t.log" 2>&1; echo "$t rc=$?" | tee -a "$summary"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/$t.log" | head -40 | tee -a "$summary"
  done
  timeout 120 "$bundle/bin/kbv-calibrate" --out "$out/ceilings.json" > "$out/calibrate.log" 2>&1; echo "calibrate rc=$?" | tee -a "$summary"
  cat "$out/ceilings.json" | tee -a "$summary"
  export KBV_CEILINGS=$out/ceilings.json
  for c in "$bundle"/candidates/cuda/*.so; do
    start=$EPOCHREALTIME
    timeout 150 "$bundle/bin/kbv" eval "$c" --device cuda --json >> "$out/eval.jsonl" 2>> "$out/errs.log"
    echo "$(basename "$c") rc=$? wall=$(python3 -c "print(round($EPOCHREALTIME - $start, 2))")" >> "$out/walls.txt"
  done
  summarize "$out/eval.jsonl" "$out/walls.txt" | tee -a "$summary"
fi
if [ "$part" = b ] || [ "$part" = ab ]; then
  export KBV_CEILINGS=${KBV_CEILINGS:-}
  for n in stream_injection late_launch_thread l2_persistence precision_bf16 garbage_reads library_cublas device_oom gpu_spin identity_public input_mutation noop; do
    c=$bundle/candidates/redteam/libredteam_$n.so
    shapes=default; [ "$n" = l2_persistence ] && shapes=small
    start=$EPOCHREALTIME
    timeout 150 "$bundle/bin/kbv" eval "$c" --device cuda --shapes $shapes --timeout-s 20 --json >> "$out/redteam.jsonl" 2>> "$out/errs.log"
    echo "$(basename "$c") rc=$? wall=$(python3 -c "print(round($EPOCHREALTIME - $start, 2))")" >> "$out/walls.txt"
  done
  timeout 60 "$bundle/bin/kbv" eval "$bundle/candidates/cuda/libcuda_relu_vec4.so" --device cuda --json >> "$out/redteam.jsonl" 2>> "$out/errs.log"
  summarize "$out/redteam.jsonl" "$out/walls.txt" | tee -a "$summary"
  timeout 240 "$bundle/bin/kbv_bench_cuda_timing" --problems "$bundle/problems" > "$out/bench_timing.log" 2>&1; echo "bench rc=$?" | tee -a "$summary"
  tail -40 "$out/bench_timing.log" | tee -a "$summary"
fi
