# round_s.sh OUT BUNDLE — the implicit-GEMM example with a tap table in its kernel parameters, and the
# data plane's setup broken down (environment.setup_s_by_step): kbv eval of both conv examples
# and of relu, the honest conv tests. From the repo root on the GPU machine.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
for c in conv2d_implicit_gemm_tf32 conv2d_relu_biasadd_implicit_gemm_tf32 relu_vec4; do
  probe "$c" -- $b/candidates/cuda/libcuda_$c.so --device cuda
  last_eval "'setup_s_by_step', e.get('setup_s_by_step'), '| phases', e.get('wall_s_by_phase')"
done
corpus_tests 'Examples/HonestCuda.*conv*'
rm -f $out/p.err $out/p.json
