# round_j.sh OUT — the CUDA worker under Landlock (default policy and variants), the GPU unit
# tests, and the CUDA red-team + honest corpora as tests (figures in the log). From the repo
# root on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r6; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/diag.log
relu=$b/candidates/cuda/libcuda_relu_vec4.so
source bench/gpu_round/probe_lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
s="--device cuda --shapes small --no-timing"
probe "default policy" -- $relu $s
grep -q '"verdict": *"pass"\|pass None' $log && default_ok=1
probe "signal scope on" KBV_SANDBOX_SKIP=landlock_signalscope -- $relu $s
probe "no /proc/self/task rule" KBV_SANDBOX_SKIP=noproctask -- $relu $s
probe "mount fallback (no Landlock)" KBV_SANDBOX_SKIP=landlock -- $relu $s
probe "read-only /proc (expected to fail)" KBV_SANDBOX_SKIP=procreadonly -- $relu $s
probe "hide_only" KBV_SANDBOX_SKIP=hideonly -- $relu $s
# The corpora under the default policy when CUDA starts under it, else under hide_only.
[ "${default_ok:-0}" = 1 ] || export KBV_SANDBOX_SKIP=hideonly
echo "corpus sandbox skip: ${KBV_SANDBOX_SKIP:-none}" >> $log
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
  grep -B3 -A12 "Failure" $out/p.err | head -30 >> $log
done
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
timeout 300 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[ figures|^\[  FAILED" $out/cuda_corpus_tests.log | cut -c1-400 >> $log
rm -f $out/p.json $out/p.err
