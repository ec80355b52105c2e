# round_l.sh OUT BUNDLE — the launch-gate round: the GPU unit tests (the gate's own tests among them),
# the CUDA red-team and honest corpora with the gate on (figures and wall by phase in the log),
# four honest evals with the gate off for comparison, the sandbox's start cost, and the
# do_bench skew experiment. From the repo root on the GPU machine; at most 8 files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
gpu_tests kbv_cuda_measure_tests
echo "== kbv_bench_sandbox" >> $log; timeout 60 $b/bin/kbv_bench_sandbox >> $log 2>&1; echo "rc=$?" >> $log
corpus_tests
gate_off_probes
timeout 120 python3 bench/torch_parity/do_bench_skew.py > $out/do_bench_skew.txt 2>&1; echo "do_bench_skew rc=$?" >> $log
rm -f $out/p.err $out/p.json
