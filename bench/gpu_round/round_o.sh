# round_o.sh OUT BUNDLE — the timing draw (data/timing_inputs.cu: one Philox block per pair of
# elements, fast single-precision math, the input checksum in the same pass): the CUDA data
# tests (its distribution and checksum tests among them), then the CUDA red-team and honest
# corpora for verdicts, figures and wall by phase. From the repo root on the GPU machine.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
gpu_tests kbv_cuda_data_tests
corpus_tests
