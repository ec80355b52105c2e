# round_c.sh OUT — the CUDA red-team corpus again after fixes, three honest candidates (memory
# figures), and PyTorch parity. Run from the repo root on the GPU machine.
out=$1; b=.gpu/r1; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
for n in stream_injection library_cublas device_oom l2_persistence; do
  timeout 120 $b/bin/kbv eval $b/candidates/redteam/libredteam_$n.so --device cuda --timeout-s 20 --json >> $out/c.jsonl 2>> $out/errs.log
done
for n in matmul_square_wmma_tf32 relu_vec4 layernorm_welford; do
  timeout 120 $b/bin/kbv eval $b/candidates/cuda/libcuda_$n.so --device cuda --json >> $out/c.jsonl 2>> $out/errs.log
done
python3 bench/gpu_round/summarize.py $out/c.jsonl
PYTHONUNBUFFERED=1 timeout 300 python3 bench/torch_parity/torch_parity.py --only timing $b/problems docs/figures/h200-baseline-timing.log 2>&1 | tee $out/parity.md
