# round_k.sh OUT BUNDLE — the final round: kbv calibrate, the GPU unit tests, the CUDA red-team and
# honest corpora as tests (figures in the log), then PyTorch parity (timing against the
# corpus's baseline medians, and output agreement on inputs kbv exports). From the repo root
# on the GPU machine; at most 8 files land in OUT.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
timeout 90 $b/bin/kbv calibrate --out $out/ceilings.json > $out/calibrate.log 2>&1; echo "kbv calibrate rc=$?" >> $log; cat $out/ceilings.json >> $log
gpu_tests kbv_cuda_data_tests
gpu_tests kbv_cuda_measure_tests
corpus_tests
timeout 330 python3 bench/torch_parity/torch_parity.py $b/problems $out/cuda_corpus_tests.log --kbv $PWD/$b/bin/kbv > $out/torch_parity.md 2> $out/torch_parity.err
echo "torch_parity rc=$?" >> $log; tail -5 $out/torch_parity.err >> $log
