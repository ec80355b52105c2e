# round_l.sh OUT — the launch-gate round: the GPU unit tests (the gate's own tests among them),
# the CUDA red-team and honest corpora with the gate on (figures and wall by phase in the log),
# four honest evals with the gate off for comparison, the sandbox's start cost, and the
# do_bench skew experiment. From the repo root on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r8; source $b/env.sh
source bench/gpu_round/probe_lib.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
  grep -E "^\[  FAILED|launched 300 us|host wait behind" $out/p.err >> $log; cat $out/p.err >> $out/unit_tests.log
done
echo "== kbv_bench_sandbox" >> $log; timeout 60 $b/bin/kbv_bench_sandbox >> $log 2>&1; echo "rc=$?" >> $log
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
c=$b/candidates/cuda
for p in relu:relu_vec4 layernorm:layernorm_welford sum_dim1:sum_dim1_tiled softmax:softmax_online; do
  probe "gate off: ${p%%:*}" KBV_WORKER_LAUNCH_GATE=off -- $c/libcuda_${p#*:}.so --device cuda
done
timeout 120 python3 bench/torch_parity/do_bench_skew.py > $out/do_bench_skew.txt 2>&1; echo "do_bench_skew rc=$?" >> $log
rm -f $out/p.err $out/p.json
