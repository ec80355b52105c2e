# round_w.sh OUT BUNDLE — fourth session (2026-11-29), second half: `kbv calibrate` remembering
# cudnnFind's choices (the next conv2d eval, on an empty algorithm cache before calibration,
# must say "cached"), and where the noise of a 340 µs cuBLAS GEMM comes from: `kbv eval
# --samples` of red-team library_cublas (cuBLAS TF32 4096³) and of the honest wmma matmul,
# every kept sample in OUT/evals.jsonl (bench/gpu_round/sample_noise.py reads them).
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
export KBV_ALGORITHM_CACHE=/tmp/kbv-round-w-algorithms.json; rm -f $KBV_ALGORITHM_CACHE
echo "== kbv calibrate (ceilings to $out/ceilings.json)" >> $log
timeout 240 $b/bin/kbv calibrate --out $out/ceilings.json 2>&1 | grep -E "copy|SGEMM|conv algorithm|cuDNN algorithm" | cut -c1-260 >> $log
probe "conv2d example after calibrate" -- $b/candidates/cuda/libcuda_conv2d_implicit_gemm_tf32.so --device cuda
last_eval "'setup', e.get('setup_s_by_step'), '| tf32', e.get('baseline_tf32','')[-90:]"
for n in 1 2; do
  probe "library_cublas --samples, eval $n" -- $b/candidates/redteam/libredteam_library_cublas.so --device cuda --samples
done
probe "matmul_square wmma --samples" -- $b/candidates/cuda/libcuda_matmul_square_wmma_tf32.so --device cuda --samples
python3 bench/gpu_round/sample_noise.py $out/evals.jsonl >> $log 2>&1
