# round_q.sh OUT BUNDLE — the closing round of 2026-11-29 (third session; round r is this script again on the
# bundle built after the evaluator split): every CUDA GPU test binary
# on the final build (data, measure, red-team and honest corpora), with the evaluator on
# NVBench's stdrel stop rule (core/timing/stop_rule.hpp), and the sandbox's start cost. From the
# repo root on the GPU machine; at most 8 files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
gpu_tests kbv_cuda_measure_tests
echo "== kbv_bench_sandbox" >> $log; timeout 60 $b/bin/kbv_bench_sandbox 2>&1 | grep -E "median|added" >> $log
corpus_tests
