# round_x.sh OUT BUNDLE — fourth session's closing checks beside round_q.sh (every GPU test
# binary): the 4096³ cuBLAS GEMM under the stop rule that measures noise within input families
# (samples kept, timing.by_family, noise within families), and kbv against do_bench from the
# same idle state once more on the final build.
source bench/gpu_round/probe_lib.sh
round_begin "$1" "$2"
probe "library_cublas --samples" -- $b/candidates/redteam/libredteam_library_cublas.so --device cuda --samples
last_eval "'stdev within families', e.get('candidate_relative_stdev_within_families'), '| noise within families', d['timing'].get('noise_within_families')"
last_eval "'by family', {f: (round(v['candidate']['median_s']*1e3, 4), round(v['baseline_tf32']['median_s']*1e3, 4)) for f, v in d['timing'].get('by_family', {}).items()}"
python3 bench/gpu_round/sample_noise.py $out/evals.jsonl >> $log 2>&1
echo "== do_bench_matched" >> $log
timeout 300 python3 bench/torch_parity/do_bench_matched.py --kbv $b/bin/kbv --candidate $b/candidates/redteam/libredteam_library_cublas.so >> $log 2>&1
