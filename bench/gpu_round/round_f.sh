# round_f.sh OUT — after a refactor of the arena layout and memory report: one honest example
# of each kind and the memory red-team. Run from the repo root on the GPU machine.
out=$1; b=.gpu/r1; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
for c in $b/candidates/cuda/libcuda_matmul_square_wmma_tf32.so $b/candidates/cuda/libcuda_softmax_online.so $b/candidates/redteam/libredteam_device_oom.so $b/candidates/redteam/libredteam_stream_injection.so; do
  timeout 60 $b/bin/kbv eval $c --device cuda --json >> $out/f.jsonl 2>> $out/errs.log
done
python3 bench/gpu_round/summarize.py $out/f.jsonl
