# round_k.sh OUT — the final round: kbv calibrate, the GPU unit tests, the CUDA red-team and
# honest corpora as tests (figures in the log), then PyTorch parity (timing against the
# corpus's baseline medians, and output agreement on inputs kbv exports). From the repo root
# on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r7; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
timeout 90 $b/bin/kbv calibrate --out $out/ceilings.json > $out/calibrate.log 2>&1; echo "kbv calibrate rc=$?" >> $log; cat $out/ceilings.json >> $log
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
done
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
timeout 330 python3 bench/torch_parity/torch_parity.py $b/problems $out/cuda_corpus_tests.log --kbv $PWD/$b/bin/kbv > $out/torch_parity.md 2> $out/torch_parity.err
echo "torch_parity rc=$?" >> $log; tail -5 $out/torch_parity.err >> $log
rm -f $out/p.err
