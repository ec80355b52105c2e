# round_p.sh OUT BUNDLE — comparison kernels with four loads in flight per thread, and the fp64
# conv2d reference's im2col with one division per element: the CUDA data tests (device vs
# host comparison verdicts, fp64 references against the host's), then the honest CUDA corpus
# for walls by phase. From the repo root on the GPU machine.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
timeout 100 $b/bin/kbv_bench_cuda_data >> $out/bench_cuda_data.log 2>&1; echo "kbv_bench_cuda_data rc=$?" >> $log
corpus_tests 'Examples/HonestCuda.*'
