# round_p.sh OUT — comparison kernels with four loads in flight per thread, and the fp64
# conv2d reference's im2col with one division per element: the CUDA data tests (device vs
# host comparison verdicts, fp64 references against the host's), then the honest CUDA corpus
# for walls by phase. From the repo root on the GPU machine.
out=$1; b=.gpu/r12; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
timeout 200 $b/bin/kbv_cuda_data_tests > $out/p.err 2>&1; echo "kbv_cuda_data_tests rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED|Failure" -A3 $out/p.err | head -40 >> $log
timeout 100 $b/bin/kbv_bench_cuda_data >> $out/bench_cuda_data.log 2>&1; echo "kbv_bench_cuda_data rc=$?" >> $log
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests --gtest_filter='Examples/HonestCuda.*' > $out/cuda_corpus_tests.log 2>&1
echo "HonestCuda rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
grep -E "^\[ figures" $out/cuda_corpus_tests.log | grep -v wall_s_by_phase | cut -c1-230 >> $log
rm -f $out/p.err
