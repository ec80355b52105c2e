# round_t.sh OUT BUNDLE — cudnnFind's choice remembered per machine (measure/baseline/algorithm_cache):
# three kbv evals of the conv2d example against an empty cache (the first runs Find, the next
# two reuse its choice), the TF32 baseline's description and the setup steps of each; then the
# measure GPU tests (conv baselines against fp64 in both modes, through the cache) and the
# honest conv evals. From the repo root on the GPU machine.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
export KBV_ALGORITHM_CACHE=/tmp/kbv-round-t/cudnn-conv-algorithms.json
rm -rf /tmp/kbv-round-t
for i in 1 2 3; do
  probe "conv2d example, eval $i" -- $b/candidates/cuda/libcuda_conv2d_implicit_gemm_tf32.so --device cuda
  last_eval "'setup_s_by_step', e.get('setup_s_by_step'), '| data_plane_and_worker_setup', e['wall_s_by_phase'].get('data_plane_and_worker_setup'), '| tf32:', e.get('baseline_tf32', '')[:400].replace(chr(10), ' ')"
done
cat /tmp/kbv-round-t/cudnn-conv-algorithms.json >> $log
gpu_tests kbv_cuda_measure_tests
corpus_tests 'Examples/HonestCuda.*conv*'
rm -f $out/p.err $out/p.json
