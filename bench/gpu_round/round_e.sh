# round_e.sh OUT — the TF32 GEMM/conv examples and the bf16 red-team after the tensor-core
# tolerance change (KernelBench's 1e-2 elementwise, rel-L2 2e-3). Run from the repo root.
out=$1; b=.gpu/r1; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
for c in $b/candidates/cuda/libcuda_bmm_wmma_tf32.so $b/candidates/cuda/libcuda_conv2d_implicit_gemm_tf32.so $b/candidates/cuda/libcuda_matmul_scale_residual_wmma_tf32.so $b/candidates/cuda/libcuda_matmul_irregular_wmma_tf32.so $b/candidates/cuda/libcuda_conv2d_relu_biasadd_implicit_gemm_tf32.so $b/candidates/redteam/libredteam_precision_bf16.so; do
  timeout 60 $b/bin/kbv eval $c --device cuda --json >> $out/e.jsonl 2>> $out/errs.log
done
python3 bench/gpu_round/summarize.py $out/e.jsonl
