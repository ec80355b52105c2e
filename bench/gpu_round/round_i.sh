# round_i.sh OUT — after the CUPTI window fix, float timing inputs, the outlier rule and the
# measurement-time stop rule: trace on/off timings, the Landlock bisect with Landlock-only
# rules, the GPU unit tests, the CUDA red-team and honest corpora as tests (with figures).
# From the repo root on the GPU machine; at most 8 files land in OUT.
out=$1; b=.gpu/r4; source $b/env.sh
export KBV_PROBLEMS_DIR=$PWD/$b/problems KBV_KEY_FILE=/tmp/kbv-gpu-round.key KBV_CEILINGS=$PWD/docs/figures/h200-ceilings.json
log=$out/diag.log
relu=$b/candidates/cuda/libcuda_relu_vec4.so
source bench/gpu_round/probe_lib.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >> $log
# 1. Landlock: which access CUDA needs (Landlock-only rules, fast failures)
for skip in "llro:/" "llrw:/" "llro:/,llrw:/dev" "llro:/,llrw:/proc" "llro:/,llrw:/tmp" "llro:/,llrw:/run" "llro:/,llrw:/var" "llrw:/dev" "llro:/,llrw:/dev,llrw:/proc,llrw:/tmp" ; do
  probe "landlock[$skip]" KBV_SANDBOX_SKIP=forcelandlock,$skip -- $relu --device cuda --shapes small --no-timing
done
# 2. CUPTI's cost on the timed window, trace on and off
for c in relu_vec4 softmax_online matmul_square_wmma_tf32 conv2d_implicit_gemm_tf32; do
  probe "trace on $c" -- $b/candidates/cuda/libcuda_$c.so --device cuda
  probe "trace off $c" KBV_WORKER_TRACE=off -- $b/candidates/cuda/libcuda_$c.so --device cuda
done
python3 -c '
import json
for line in open("'$out'/evals.jsonl"):
    d=json.loads(line); e=d.get("environment") or {}
    if not isinstance(d.get("problem"), dict) or not e.get("wall_s_by_phase"): continue
    ph=e["wall_s_by_phase"]; top=sorted(ph.items(), key=lambda kv:-kv[1])[:6]
    print(d["problem"]["name"], d["verdict"], round(d["wall_seconds"],2), str(e.get("trace"))[:5], "top phases", top)
' >> $log 2>&1
# 3. GPU unit tests, then the corpora
for t in kbv_cuda_data_tests kbv_cuda_measure_tests; do
  timeout 200 $b/bin/$t > $out/p.err 2>&1; echo "$t rc=$? $(grep -cE '^\[       OK' $out/p.err) ok, $(grep -E '^\[  (PASSED|FAILED)' $out/p.err | tr '\n' ' ')" >> $log
done
export KBV_TEST_KBV_BINARY=$PWD/$b/bin/kbv KBV_TEST_CANDIDATE_DIR=$PWD/$b/candidates KBV_TEST_PROBLEMS_DIR=$PWD/$b/problems
timeout 250 $b/bin/kbv_redteam_cuda_tests > $out/cuda_corpus_tests.log 2>&1
echo "kbv_redteam_cuda_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $out/cuda_corpus_tests.log | tr '\n' ' ')" >> $log
grep -E "^\[ figures|^\[  FAILED" $out/cuda_corpus_tests.log >> $log
rm -f $out/p.json $out/p.err
