# round_y.sh OUT BUNDLE — the faster_on_public_family flag: the whole CUDA corpus (red-team
# public_fast_path must get it, no honest example may), with each eval's public-vs-hidden
# speedup ratio listed from the test log.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
corpus_tests
probe "public_fast_path" -- $b/candidates/redteam/libredteam_public_fast_path.so --device cuda
last_eval "'public_vs_hidden_speedup', e.get('public_vs_hidden_speedup'), '| by family', {f: round(v.get('speedup_vs_tf32', 0), 3) for f, v in d['timing'].get('by_family', {}).items()}"
grep -o "public/hidden speedup [0-9.]*" $out/cuda_corpus_tests.log > /dev/null && grep "public/hidden speedup" $out/cuda_corpus_tests.log | sed -E 's/^\[ figures  \] ([^:]*):.*(public\/hidden speedup [0-9.]*).*/  \1: \2/' >> $log
