# round_s.sh OUT — the implicit-GEMM example with a tap table in its kernel parameters, and the
# data plane's setup broken down (environment.setup_s_by_step): kbv eval of both conv examples
# and of relu, the honest conv tests. From the repo root on the GPU machine.
out=$1; b=.gpu/r15; source $b/env.sh
source bench/gpu_round/probe_lib.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/summary.txt
for c in conv2d_implicit_gemm_tf32 conv2d_relu_biasadd_implicit_gemm_tf32 relu_vec4; do
  probe "$c" -- $b/candidates/cuda/libcuda_$c.so --device cuda
  python3 -c "import json;d=json.loads(open('$out/p.json').read().strip().splitlines()[-1]);e=d['environment'];print('   setup_s_by_step',e.get('setup_s_by_step'),'| phases',e.get('wall_s_by_phase'))" >> $log 2>&1
done
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
timeout 120 $b/bin/kbv_redteam_cuda_tests --gtest_filter='Examples/HonestCuda.*conv*' > $out/p.err 2>&1
echo "HonestCuda conv rc=$? $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
grep -E "^\[ figures" $out/p.err | grep -v wall_s_by_phase >> $log
rm -f $out/p.err $out/p.json
