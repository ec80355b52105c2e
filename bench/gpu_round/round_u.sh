# round_u.sh OUT BUNDLE [do_bench] — fourth session (2026-11-29): comparisons against a
# summarised fp64 reference (one pass instead of two), the division skipped where it cannot
# raise max_rel_error, every trivial output of a family judged in one pass that stops once all
# have failed, and the evaluator's CUDA context created while the worker starts.
# Checks: the data tests (summaries and trivial outputs against their written comparison), the
# data-path bench (per-stage costs), the whole CUDA corpus (hostile verdicts, honest passes and
# eval walls), and conv2d from an empty cudnnFind cache then a warm one. From the repo root on
# the GPU machine; at most 8 files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
echo "== kbv_bench_cuda_data" >> $log; timeout 240 $b/bin/kbv_bench_cuda_data >> $log 2>&1
export KBV_ALGORITHM_CACHE=/tmp/kbv-round-u-algorithms.json; rm -f $KBV_ALGORITHM_CACHE
for n in 1 2 3; do
  probe "conv2d example, eval $n (1: empty cudnnFind cache)" -- $b/candidates/cuda/libcuda_conv2d_implicit_gemm_tf32.so --device cuda
  last_eval "'setup', e.get('setup_s_by_step'), '| warm-up', e.get('device_warm_up_s'), '| phases', e.get('wall_s_by_phase')"
done
corpus_tests
if [ "$3" = do_bench ]; then  # kbv against do_bench from the same idle state (bench/torch_parity/do_bench_matched.py)
  echo "== do_bench_matched" >> $log
  timeout 300 python3 bench/torch_parity/do_bench_matched.py --kbv $b/bin/kbv --candidate $b/candidates/redteam/libredteam_library_cublas.so >> $log 2>&1
fi
