# round_r.sh OUT — round q again after the evaluator split (evaluation_*.cpp) and the implicit-GEMM
# example reading B by column (tf32_gemm.cuh): every CUDA GPU test binary
# on the final build (data, measure, red-team and honest corpora), with the evaluator on
# NVBench's stdrel stop rule (core/timing/stop_rule.hpp), and the sandbox's start cost. From the
# repo root on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r14; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
  grep -E "^\[  FAILED|launched 300 us|host wait behind|figures" $out/p.err >> $log; cat $out/p.err >> $out/unit_tests.log
done
echo "== kbv_bench_sandbox" >> $log; timeout 60 $b/bin/kbv_bench_sandbox 2>&1 | grep -E "median|added" >> $log
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
grep -E "^\[ figures" $out/cuda_corpus_tests.log | grep -v wall_s_by_phase | cut -c1-230 >> $log
rm -f $out/p.err
