# round_m.sh OUT BUNDLE — the launch-gate round, second pass (lazy-loading timeouts forgiven, the gate
# switch reaching the worker, warm-up capped at 32 samples, a null call every 8th sample): the
# gate, CUPTI and timer GPU tests, the CUDA red-team and honest corpora with the gate on
# (figures and wall by phase in the log), four honest evals with the gate off for comparison,
# and the do_bench skew experiment in rounds. From the repo root on the GPU machine; at most 8
# files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_measure_tests "*Gate*:CuptiTest.*:GpuTest.*Spin*:GpuTest.Interleaved*"
corpus_tests
gate_off_probes
timeout 120 python3 bench/torch_parity/do_bench_skew.py > $out/do_bench_skew.txt 2>&1; echo "do_bench_skew rc=$?" >> $log
rm -f $out/p.err $out/p.json
