# round_o.sh OUT — the timing draw (data/timing_inputs.cu: one Philox block per pair of
# elements, fast single-precision math, the input checksum in the same pass): the CUDA data
# tests (its distribution and checksum tests among them), then the CUDA red-team and honest
# corpora for verdicts, figures and wall by phase. From the repo root on the GPU machine.
out=$1; b=.gpu/r11; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
timeout 200 $b/bin/kbv_cuda_data_tests > $out/p.err 2>&1; echo "kbv_cuda_data_tests rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED|KS distance|Failure" -A3 $out/p.err | head -60 >> $log
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
grep -E "^\[ figures" $out/cuda_corpus_tests.log | grep -v wall_s_by_phase | cut -c1-230 >> $log
rm -f $out/p.err
