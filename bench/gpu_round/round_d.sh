# round_d.sh OUT — every honest CUDA example and the memory red-team after the memory-slack
# fix: honest ones must pass with no flag. Run from the repo root on the GPU machine.
out=$1; b=.gpu/r1; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
for c in $b/candidates/cuda/*.so $b/candidates/redteam/libredteam_device_oom.so $b/candidates/redteam/libredteam_library_cublas.so; do
  timeout 60 $b/bin/kbv eval $c --device cuda --json >> $out/d.jsonl 2>> $out/errs.log
done
python3 bench/gpu_round/summarize.py $out/d.jsonl
