# diag.sh — which sandbox layer or worker feature breaks a CUDA candidate (run from the repo root on the GPU machine)
source .gpu/r1/env.sh; export KBV_PROBLEMS_DIR=$PWD/.gpu/r1/problems KBV_KEY_FILE=/tmp/k.key
c=.gpu/r1/candidates/cuda/libcuda_relu_vec4.so
show() { python3 -c "import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print(d['verdict'], d.get('hack_pattern'), d['detail'][:120], d['flags'], d['wall_seconds'])"; }
for skip in devnullrw procselfrw "devnullrw,procselfrw" devrw tmprw "devrw,procselfrw,tmprw" "readall,devrw,procselfrw,tmprw"; do
  echo "== sandbox skip=[$skip] small"; KBV_SANDBOX_SKIP=$skip timeout 60 .gpu/r1/bin/kbv eval $c --device cuda --shapes small --timeout-s 30 --no-timing --json 2>/dev/null | show
done
ulimit -a | head -20
