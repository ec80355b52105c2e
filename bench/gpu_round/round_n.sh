# round_n.sh OUT — third pass of the launch-gate work: every CUDA GPU test (checksum with one
# mix per word, CUPTI buffers recycled, the window-cost figure), the CUDA red-team and honest
# corpora, then do_bench against kbv on the 4096³ TF32 GEMM with the GPU cooled below 200 W
# before each cell, and two kbv evals of matmul_square right after (their TF32 baseline is the
# same cuBLAS kernel). From the repo root on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r10; source $b/env.sh
source bench/gpu_round/probe_lib.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
  grep -E "^\[  FAILED|launched 300 us|host wait behind|figures" $out/p.err >> $log; cat $out/p.err >> $out/unit_tests.log
done
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
start=$EPOCHREALTIME
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? in $(python3 -c "print(round($EPOCHREALTIME - $start))") s: $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/cuda_corpus_tests.log >> $log
timeout 200 python3 bench/torch_parity/do_bench_skew.py --rounds 3 --cool-watts 200 --timers "do_bench median,kbv-style 2xL2 memset" > $out/do_bench_skew.txt 2>&1
echo "do_bench_skew rc=$?" >> $log
for i in 1 2; do
  probe "matmul_square after cooling ($i)" -- $b/candidates/cuda/libcuda_matmul_square_wmma_tf32.so --device cuda
  python3 -c "import json;d=json.loads(open('$out/p.json').read().strip().splitlines()[-1]);e=d['environment'];print('   sm_clock_mhz_median',e.get('sm_clock_mhz_median'),'tf32 IQR ms',d['timing']['baseline_tf32']['iqr_s']*1e3)" >> $log 2>&1
done
rm -f $out/p.err $out/p.json
