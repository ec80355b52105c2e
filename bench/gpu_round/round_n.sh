# round_n.sh OUT BUNDLE — third pass of the launch-gate work: every CUDA GPU test (checksum with one
# mix per word, CUPTI buffers recycled, the window-cost figure), the CUDA red-team and honest
# corpora, then do_bench against kbv on the 4096³ TF32 GEMM with the GPU cooled below 200 W
# before each cell, and two kbv evals of matmul_square right after (their TF32 baseline is the
# same cuBLAS kernel). From the repo root on the GPU machine; at most 8 files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
gpu_tests kbv_cuda_measure_tests
corpus_tests
timeout 200 python3 bench/torch_parity/do_bench_skew.py --rounds 3 --cool-watts 200 --timers "do_bench median,kbv-style 2xL2 memset" > $out/do_bench_skew.txt 2>&1
echo "do_bench_skew rc=$?" >> $log
for i in 1 2; do
  probe "matmul_square after cooling ($i)" -- $b/candidates/cuda/libcuda_matmul_square_wmma_tf32.so --device cuda
  last_eval "'sm_clock_mhz_median', e.get('sm_clock_mhz_median'), 'tf32 IQR ms', d['timing']['baseline_tf32']['iqr_s'] * 1e3"
done
rm -f $out/p.err $out/p.json
