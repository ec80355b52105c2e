# round_t.sh OUT — cudnnFind's choice remembered per machine (measure/baseline/algorithm_cache):
# three kbv evals of the conv2d example against an empty cache (the first runs Find, the next
# two reuse its choice), the TF32 baseline's description and the setup steps of each; then the
# measure GPU tests (conv baselines against fp64 in both modes, through the cache) and the
# honest conv evals. From the repo root on the GPU machine.
out=$1; b=.gpu/r16; source $b/env.sh
source bench/gpu_round/probe_lib.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
export KBV_ALGORITHM_CACHE=/tmp/kbv-round-t/cudnn-conv-algorithms.json
rm -rf /tmp/kbv-round-t
log=$out/summary.txt
for i in 1 2 3; do
  probe "conv2d example, eval $i" -- $b/candidates/cuda/libcuda_conv2d_implicit_gemm_tf32.so --device cuda
  python3 -c "import json;d=json.loads(open('$out/p.json').read().strip().splitlines()[-1]);e=d['environment'];print('   setup_s_by_step',e.get('setup_s_by_step'),'| data_plane_and_worker_setup',e['wall_s_by_phase'].get('data_plane_and_worker_setup'),'| tf32:',e.get('baseline_tf32','')[:400].replace(chr(10),' '))" >> $log 2>&1
done
cat /tmp/kbv-round-t/cudnn-conv-algorithms.json >> $log
timeout 200 $b/bin/kbv_cuda_measure_tests > $out/p.err 2>&1; echo "kbv_cuda_measure_tests rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
grep -E "^\[  FAILED" $out/p.err >> $log
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
timeout 120 $b/bin/kbv_redteam_cuda_tests --gtest_filter='Examples/HonestCuda.*conv*' > $out/p.err 2>&1
echo "HonestCuda conv rc=$? $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
grep -E "^\[ figures" $out/p.err | grep -v wall_s_by_phase >> $log
rm -f $out/p.err $out/p.json
