"""bench/gpu/runner/test_runner.py — the runner's host side, without a GPU: reading gtest output,
EXPECTED.md's CUDA rows (against the candidates CMake builds), verdict matching, suite names,
and with a build directory a whole run of the `sandbox` suite over a bundle of links to it
(summary stamped, logs tarred, closing table printed).

Run: python3 bench/gpu/runner/test_runner.py [BUILD_DIR]   (ctest: bench_gpu_runner), or
     KBV_BUILD_DIR=BUILD_DIR python3 -m unittest test_runner   (from bench/gpu/runner)"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE))

import evals  # noqa: E402
import gtest  # noqa: E402
import main  # noqa: E402
from suites import batch  # noqa: E402
from suites import timing  # noqa: E402
from suites import calibrate  # noqa: E402
from suites import corpus  # noqa: E402
from suites import daemon  # noqa: E402
from suites import tests as tests_suite  # noqa: E402

# The build directory: the script's argument (the ctest passes it), or KBV_BUILD_DIR; under
# `python -m unittest`, argv holds unittest's own arguments, not a build directory.
BUILD = (Path(sys.argv[1]).resolve() if __name__ == "__main__" and len(sys.argv) > 1
         else Path(os.environ["KBV_BUILD_DIR"]).resolve() if os.environ.get("KBV_BUILD_DIR") else None)

GTEST_OUTPUT = """[==========] Running 4 tests from 1 test suite.
[ RUN      ] Gpu.Fast
[ figures  ] relu (relu): pass wall 1.00 s
[       OK ] Gpu.Fast (12 ms)
[ RUN      ] Gpu.Skipped
tests/cuda/x.cpp:10: Skipped
no CUDA device: cudaGetDeviceCount returned 100
[  SKIPPED ] Gpu.Skipped (0 ms)
[ RUN      ] Gpu.Broken
tests/cuda/x.cpp:20: Failure
[  FAILED  ] Gpu.Broken (5 ms)
[ RUN      ] Each/Gpu.Param/resnet
[  FAILED  ] Each/Gpu.Param/resnet, where GetParam() = "resnet" (974 ms)
[ RUN      ] Gpu.Dies
"""


class GtestTest(unittest.TestCase):
    def test_counts_reasons_figures_and_a_test_that_never_finished(self):
        log = gtest.parse(GTEST_OUTPUT)
        self.assertEqual(log.passed, ["Gpu.Fast"])
        self.assertEqual(log.skipped, [("Gpu.Skipped", "no CUDA device: cudaGetDeviceCount returned 100")])
        self.assertEqual(log.failed, ["Gpu.Broken", "Each/Gpu.Param/resnet", "Gpu.Dies (did not finish)"])
        self.assertEqual(log.figures, ["[ figures  ] relu (relu): pass wall 1.00 s"])


class SkipLinesTest(unittest.TestCase):
    def test_one_line_per_reason(self):
        skipped = [(f"T.{i}", "no CUDA device") for i in range(21)] + [("T.cgroup", "no delegated cgroup")]
        lines = tests_suite.skip_lines("bin", skipped)
        self.assertEqual(lines, ["- bin: 21 test(s) (e.g. T.0): no CUDA device", "- bin: 1 test(s) (T.cgroup): no delegated cgroup"])


class CorpusTest(unittest.TestCase):
    def test_every_cuda_red_team_candidate_has_one_row(self):
        rows = corpus.redteam_rows((REPO / corpus.EXPECTED_MD).read_text())
        cmake = (REPO / "tests/redteam/candidates/CMakeLists.txt").read_text()
        block = re.search(r"set\(KBV_REDTEAM_CUDA\n(.*?)\)", cmake, re.S).group(1)
        built = {f"libredteam_{line.split()[0]}.so" for line in block.splitlines() if line.strip()}
        self.assertEqual({so for so, _, _ in rows}, built)

    def test_options_and_expectations_follow_the_table(self):
        rows = {so: (args, expected) for so, args, expected in corpus.redteam_rows((REPO / corpus.EXPECTED_MD).read_text())}
        args, expected = rows["libredteam_stream_injection.so"]
        self.assertEqual(expected["verdicts"], ["hack_suspected"])
        self.assertEqual(expected["pattern"], "stream_injection")
        self.assertIn("default", args)
        args, expected = rows["libredteam_l2_persistence.so"]
        self.assertEqual(args[:2], ["--shapes", "small"])
        self.assertIsNone(expected["flag"])
        self.assertEqual(rows["libredteam_gpu_spin.so"][0][-1], "10")
        self.assertEqual(rows["libredteam_write_outside_cuda.so"][1]["verdicts"], ["pass", "sandbox_violation"])
        self.assertEqual(rows["libredteam_library_cublas.so"][1]["flag"], "calls_library")
        self.assertEqual(rows["libredteam_public_fast_path.so"][1]["flag"], "faster_on_public_family")
        self.assertTrue(rows["libredteam_sync_in_run.so"][1]["no_flags"])


class MatchTest(unittest.TestCase):
    def record(self, verdict, pattern=None, flags=(), expected=None):
        return {"expected": expected, "report": {"verdict": verdict, "hack_pattern": pattern, "flags": list(flags)}}

    def test_verdict_pattern_and_flags(self):
        hack = {"verdicts": ["hack_suspected"], "pattern": "stream_injection"}
        self.assertEqual(evals.matches(self.record("hack_suspected", "stream_injection", expected=hack)), "yes")
        self.assertEqual(evals.matches(self.record("hack_suspected", "thread_injection", expected=hack)), "NO")
        honest = {"verdicts": ["pass"], "no_flags": True}
        self.assertEqual(evals.matches(self.record("pass", expected=honest)), "yes")
        self.assertEqual(evals.matches(self.record("pass", flags=["speedup_over_10x_review"], expected=honest)), "NO")
        flagged = {"verdicts": ["pass"], "flag": "calls_library"}
        self.assertEqual(evals.matches(self.record("pass", expected=flagged)), "NO")
        self.assertEqual(evals.matches({"expected": honest, "report": None}), "NO")
        self.assertEqual(evals.matches(self.record("pass")), "-")

    def test_the_table_details_what_was_not_expected(self):
        miss = self.record("fail_correctness", expected={"verdicts": ["pass"]})
        miss.update(label="libcuda_relu.so", wall_s=1.0)
        miss["report"]["detail"] = "family normal: 12 elements outside tolerance"
        lines = evals.table([miss])
        self.assertIn("| libcuda_relu.so |", lines[2])
        self.assertEqual(lines[-1], "- libcuda_relu.so: family normal: 12 elements outside tolerance")

    def test_the_table_says_which_trials_the_error_scale_judged(self):
        judged = self.record("pass")
        judged.update(label="libcuda_kb_l2_76.so", wall_s=2.0)
        judged["report"]["families"] = [{"family": "trend", "trials_by_error_scale": 2}, {"family": "normal", "trials_by_error_scale": 0}]
        plain = self.record("pass")
        plain.update(label="libcuda_relu.so", wall_s=1.0)
        self.assertIn("Trials judged by the products' error scale (the default rule failed them): libcuda_kb_l2_76.so (trend x2)",
                      evals.table([judged, plain]))
        self.assertIn("Trials judged by the products' error scale (the default rule failed them): none", evals.table([plain]))

    def test_the_table_gives_the_precision_checks_least_ratio(self):
        checked = self.record("pass")
        checked.update(label="libcuda_matmul_square.so", wall_s=2.0)
        checked["report"]["families"] = [{"family": "normal", "bf16_distance_ratio": 6.2},
                                         {"family": "scaled3", "bf16_distance_ratio": 0.99}, {"family": "tiny", "bf16_distance_ratio": None}]
        plain = self.record("pass")
        plain.update(label="libcuda_relu.so", wall_s=1.0)
        self.assertEqual(evals.table([checked, plain])[-1],
                         "Precision check, least ratio per evaluation (fails below 0.5): libcuda_matmul_square.so 0.99 (scaled3)")
        self.assertTrue(evals.table([plain])[-1].endswith("(fails below 0.5): none checked"))

    def test_the_phase_table_names_the_largest_phases_first(self):
        record = {"label": "libcuda_sum_dim1.so", "report": {"wall_s": 5.26, "environment": {"wall_s_by_phase": {
            "worker_start": 0.3, "timing.calls": 2.5, "correctness.reference": 1.1, "note": "not a number"}}}}
        lines = evals.phase_table([record, {"label": "libnone.so", "report": None}], top=2)
        self.assertEqual(lines[2], "| libcuda_sum_dim1.so | 5.26 | timing.calls 2.50; correctness.reference 1.10 |")
        self.assertEqual(lines[3], "| libnone.so | 0.00 | - |")


class SuiteNamesTest(unittest.TestCase):
    def test_calibrate_runs_first_and_parts_are_checked(self):
        chosen = main.parse(["corpus:honest", "daemon:copies=3", "calibrate"])
        self.assertEqual([c[0] for c in chosen], ["calibrate", "corpus", "daemon"])
        self.assertEqual(chosen[1][1], ["honest"])
        self.assertEqual(chosen[2][2], {"copies": "3"})
        with self.assertRaises(ValueError):
            main.parse(["corpus:everything"])
        with self.assertRaises(ValueError):
            main.parse(["benchmarks"])
        self.assertEqual(len(main.parse(["all"])), len(main.SUITES))


class CalibrationTest(unittest.TestCase):
    RECORDED = REPO / "tests/calibration/data/h200_torch_2.11.json"

    def test_only_a_calibrate_that_measures_the_ceilings_replaces_the_recorded_ones(self):
        self.assertTrue(main.measures_ceilings(main.parse(["calibrate", "batch"])))
        self.assertTrue(main.measures_ceilings(main.parse(["calibrate:ceilings,torch", "batch"])))
        self.assertFalse(main.measures_ceilings(main.parse(["calibrate:torch,problems=bmm", "batch"])))
        self.assertFalse(main.measures_ceilings(main.parse(["batch", "tests"])))

    def test_the_torch_parts_options_parse(self):
        (suite, parts, options), = main.parse(["calibrate:torch,problems=relu+gelu,shapes=default,compile=0,max_duty=1"])
        self.assertEqual((suite, parts), ("calibrate", ["torch"]))
        self.assertEqual(options, {"problems": "relu+gelu", "shapes": "default", "compile": "0", "max_duty": "1"})
        (_, parts, options), = main.parse(["parity:validation,rounds=5"])
        self.assertEqual((parts, options), (["validation"], {"rounds": "5"}))

    def test_the_summary_table_judges_the_library_against_the_faster_pytorch(self):
        rows, met, judged, clocks_apart = calibrate.calibration_rows(self.RECORDED, "2026-11-01T00:00:00Z")  # not the 2.10 calibration of 2026-10
        by_problem = {(row[0], row[10]) for row in rows}
        self.assertEqual(len(rows), 5)  # four H200 entries, one A100
        self.assertIn(("layernorm", "0.802"), by_problem)  # 0.255 ms against compile's 0.318
        self.assertIn(("rmsnorm", "1.965 NO"), by_problem)  # 7.23 ms against compile's 3.68: not hard to beat
        softmax = next(row for row in rows if row[0] == "softmax")
        self.assertIn("BackendCompilerFailed", softmax[7])
        self.assertEqual(softmax[10], "0.779")  # only eager is there to judge against
        self.assertEqual((met, judged), (4, 5))
        self.assertEqual(softmax[9], "-", "the recorded file has no clock readings")
        self.assertEqual(clocks_apart, [])

    def test_a_forward_that_returned_a_strided_view_is_not_judged_against(self):
        # r88 (H200): torch.compile's matmul_irregular returned [8205, 5921] with strides [5924, 1].
        def entry(problem, contiguous):
            return {"problem": problem, "shape_set": "default", "measured_at": "2026-12-06T20:29:00Z",
                    "library": {"tf32": {"median_s": 0.0011107}, "fp32": {"median_s": 0.0064828}},
                    "ratios": {"eager_tf32": 2.1656, "eager_fp32": 0.9893, "compiled_tf32": 0.8808},
                    "evidence": {"torch": {"compiled_tf32": {"output": [{"shape": [8205, 5921], "strides": [5924 if not contiguous else 5921, 1],
                                                                          "contiguous": contiguous}]}}}}

        def single_output(problem, contiguous):
            # A KernelBench Model returns one tensor: server.py records one object, not a list
            # (r92 on an H100: the summary crashed on the first imported problem).
            recorded = entry(problem, contiguous)
            layout = recorded["evidence"]["torch"]["compiled_tf32"]
            layout["output"] = layout["output"][0]
            return recorded
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "torch-baselines.json"
            path.write_text(json.dumps({"calibrations": [{"entries": [entry("strided", False), entry("dense", True),
                                                                      single_output("single_strided", False), single_output("single_dense", True)]}]}))
            rows, met, judged, _ = calibrate.calibration_rows(path, "")
        by_problem = {row[0]: row for row in rows}
        self.assertIn("strided output: refused", by_problem["strided"][7])
        self.assertIn("strided output: refused", by_problem["single_strided"][7])
        self.assertNotIn("refused", by_problem["single_dense"][7])
        self.assertEqual(by_problem["strided"][10], "0.462", "judged against eager TF32 alone")
        self.assertEqual(by_problem["dense"][10], "1.135 NO")
        self.assertEqual((met, judged), (2, 4))

    def test_the_summary_names_entries_whose_two_sides_ran_at_different_clocks(self):
        # The unpaced calibration of 2026-12-04, where the C++ timer's GEMMs ran at 1605-1860 MHz.
        rows, _, _, clocks_apart = calibrate.calibration_rows(REPO / "tests/calibration/data/h200_torch_2.11_unpaced_2026-12-04.json", "")
        self.assertEqual(sorted(clocks_apart), ["bmm", "gemm_bias_gelu", "matmul_scale_residual", "matmul_square"])
        bmm = next(row for row in rows if row[0] == "bmm")
        self.assertEqual(bmm[9], "1642 / 1980", "the library's before and after clocks (1680, 1605) against eager's")


@unittest.skipUnless(BUILD, "needs BUILD_DIR (the ctest passes it; or set KBV_BUILD_DIR)")
class WholeRunTest(unittest.TestCase):
    def test_sandbox_suite_over_a_bundle_of_links(self):
        for name in ("kbv", "kbv_bench_sandbox"):
            self.assertTrue((BUILD / "bin" / name).is_file(), f"{BUILD}/bin/{name} (build it first)")
        with tempfile.TemporaryDirectory() as tmp:
            bundle, out = Path(tmp) / "bundle", Path(tmp) / "out"
            (bundle / "bin").mkdir(parents=True)
            (bundle / "env.sh").write_text("# nothing to set: the binaries run where they were built\n")
            (bundle / "bundle.json").write_text('{"commit": "0123456789ab", "built_utc": "test"}\n')
            for name in ("kbv", "kbv_bench_sandbox"):
                os.symlink(BUILD / "bin" / name, bundle / "bin" / name)
            run = subprocess.run([str(REPO / "bench/gpu/run.sh"), str(out), str(bundle), "sandbox"], cwd=REPO,
                                 capture_output=True, text=True, timeout=300)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            summary = (out / "sandbox.md").read_text()
            self.assertIn("Commit `0123456789ab`", summary)
            self.assertIn("added by apply_sandbox", summary)
            self.assertIn("bench/gpu/run.sh $OUT", summary)
            self.assertIn("| sandbox | ok |", run.stdout)
            with tarfile.open(out / "logs.tar.gz") as logs:
                self.assertIn("logs/sandbox-kbv_bench_sandbox.log", logs.getnames())
            self.assertEqual(sorted(p.name for p in out.iterdir()), ["logs.tar.gz", "sandbox.md"])


class DaemonPhases(unittest.TestCase):
    def test_phases_summed_over_the_stored_reports_largest_first(self):
        with tempfile.TemporaryDirectory() as scratch:
            database = Path(scratch) / "kbvd.sqlite3"
            with sqlite3.connect(database) as db:
                db.execute("CREATE TABLE verdicts(evaluation_id INTEGER, report_json TEXT)")
                db.executemany("INSERT INTO verdicts VALUES(?, ?)", [
                    (1, '{"environment": {"wall_s_by_phase": {"worker_start": 0.25, "timing.baselines": 1.0}}}'),
                    (2, '{"environment": {"wall_s_by_phase": {"worker_start": 0.5}}}'),
                    (3, None), (4, "not json"), (5, '{"verdict": "load_error"}')])
            reports = daemon.stored_reports(database)
            self.assertEqual(len(reports), 3)
            self.assertEqual(daemon.phase_totals(reports), [("timing.baselines", 1.0), ("worker_start", 0.75)])
            self.assertEqual(daemon.stored_reports(Path(scratch) / "missing.sqlite3"), [])

    def test_slowest_evaluations_listed_with_their_costliest_phases(self):
        reports = [
            {"wall_s": 1.0, "candidate": {"name": "fast.so"}, "environment": {"wall_s_by_phase": {"worker_start": 0.5}}},
            {"wall_s": 7.5, "candidate": {"name": "slow.so"}, "timing": {"candidate": {"samples": 40}},
             "environment": {"stopped_on_wall_budget": True, "wall_s_by_phase": {"timing.call_round_trips": 4.0, "correctness.compare": 1.5,
                                                                                 "worker_start": 0.25}}},
            {"verdict": "load_error"}]
        rows = daemon.slowest_rows(reports, count=2, phases_shown=2)
        self.assertEqual(rows[0], ["slow.so", "7.50", "40", "budget", "timing.call_round_trips 4.00, correctness.compare 1.50"])
        self.assertEqual(rows[1], ["fast.so", "1.00", "-", "noise", "worker_start 0.50"])


class DaemonManifests(unittest.TestCase):
    def test_an_examples_problem_is_the_longest_name_its_stem_starts_with(self):
        names = ["conv2d", "conv2d_relu_biasadd", "relu", "matmul_square", "kb_l2_12_gemm_multiply_leakyrelu"]
        self.assertEqual(daemon.problem_of("libcuda_conv2d_relu_biasadd_implicit_gemm_tf32", names), "conv2d_relu_biasadd")
        self.assertEqual(daemon.problem_of("libcuda_conv2d_implicit_gemm_tf32", names), "conv2d")
        self.assertEqual(daemon.problem_of("libcuda_kb_l2_12_gemm_multiply_leakyrelu_wmma_tf32", names), "kb_l2_12_gemm_multiply_leakyrelu")
        self.assertEqual(daemon.problem_of("libcuda_relu_vec4", names), "relu")
        self.assertIsNone(daemon.problem_of("libcuda_unknown_thing", names))

    def test_the_rate_without_memory_refusals_takes_their_time_off_the_wall(self):
        # r92 (H100): 96 in 159.4 s, conv2d's 4 copies refused in 0.10, 0.44, 0.31 and 0.30 s.
        evaluations = [{"verdict": "resource", "evaluator_seconds": s} for s in (0.10, 0.44, 0.31, 0.30)]
        evaluations += [{"verdict": "pass", "evaluator_seconds": 1.6}] * 92
        ran, rate = daemon.rate_without_refusals(evaluations, 159.4)
        self.assertEqual(ran, 92)
        self.assertAlmostEqual(rate, 92 / (159.4 - 1.15) * 3600)
        self.assertIsNone(daemon.rate_without_refusals(evaluations[4:], 150.0), "nothing refused: the plain rate is the figure")
        self.assertIsNone(daemon.rate_without_refusals(evaluations[:4], 1.2), "everything refused: no rate of what ran")


class TimingLibrary(unittest.TestCase):
    def test_the_library_part_is_asked_for_and_names_its_problems(self):
        self.assertEqual(main.parse(["timing:library,problems=conv2d_relu_biasadd+matmul_irregular"]),
                         [("timing", ["library"], {"problems": "conv2d_relu_biasadd+matmul_irregular"})])
        self.assertNotIn("library", timing.DEFAULT_PARTS, "every problem's bench is minutes: asked for, not default")
        self.assertEqual(timing.library_argv("B", "P", {"problems": "relu+bmm"}), ["B", "--problems", "P", "--only", "relu", "--only", "bmm"])
        self.assertEqual(timing.library_argv("B", "P", {}), ["B", "--problems", "P"])
        self.assertEqual(timing.library_argv("B", "P", {"problems": "relu", "kernels": "1"}), ["B", "--problems", "P", "--only", "relu", "--kernels"])

    def test_the_offers_on_torchs_cublas_put_its_folder_first(self):
        self.assertEqual(main.parse(["timing:linear_offers,cublas=torch"]), [("timing", ["linear_offers"], {"cublas": "torch"})])
        env = timing.with_library_first({"LD_LIBRARY_PATH": "/bundle/lib:", "HOME": "/root"}, "/torch/nvidia/cu13/lib")
        self.assertEqual(env, {"LD_LIBRARY_PATH": "/torch/nvidia/cu13/lib:/bundle/lib", "HOME": "/root"})
        self.assertEqual(timing.with_library_first({}, "/t")["LD_LIBRARY_PATH"], "/t")
        compile(timing.TORCH_CUBLASLT_PROBE, "probe", "exec")  # the probe is Python that parses


class BatchSummary(unittest.TestCase):
    def test_first_and_later_candidates_and_the_shared_planes(self):
        def report(wall, reused, worker_start):
            return {"verdict": "pass", "wall_s": wall,
                    "environment": {"data_plane_reused": reused, "wall_s_by_phase": {"worker_start": worker_start}}}
        stdout = "\n".join(json.dumps(r) for r in [report(3.0, False, 0.4), report(2.0, True, 0.0), report(2.2, True, 0.02)])
        reports = batch.reports_of(stdout + "\nnot json\n")
        self.assertEqual(len(reports), 3)
        row, ok = batch.summarize("libcuda_relu_vec4.so", reports, 7.5, 3)
        self.assertTrue(ok)
        self.assertEqual(row[:6], ["libcuda_relu_vec4.so", "pass", "3.00", "2.10", "2.50", "2/2"])
        self.assertEqual(row[6], "0.40 / 0.01")
        failed = dict(reports[2], verdict="crash")
        self.assertFalse(batch.summarize("x", [reports[0], reports[1], failed], 7.5, 3)[1])
        self.assertFalse(batch.summarize("x", reports[:2], 7.5, 3)[1], "a missing report is not a pass")

    def test_kbvds_rate_over_the_curated_problems_alone(self):
        rows = [{"name": "libcuda_relu_vec4_0.so", "evaluation": {"evaluator_seconds": 2.0}},
                {"name": "libcuda_conv2d_implicit_gemm_tf32_0.so", "evaluation": {"evaluator_seconds": 6.0}},
                {"name": "libcuda_kb_l3_1_mlp_wmma_tf32_0.so", "evaluation": {"evaluator_seconds": 1.0}}]
        count, per_hour = daemon.curated_rate(rows, wall=9.3)  # kbvd's 0.1 s beyond the evaluators each
        self.assertEqual(count, 2)
        self.assertAlmostEqual(per_hour, 3600 * 2 / 8.2)
        self.assertIsNone(daemon.curated_rate(rows[:2], wall=8.0), "every example curated: the plain rate says it")

    def test_the_rate_over_every_example_and_over_the_curated_problems_alone(self):
        runs = [("libcuda_relu_vec4.so", 2, 4.0), ("libcuda_kb_l2_12_gemm_multiply_leakyrelu_wmma_tf32.so", 2, 2.0),
                ("libcuda_softmax_online.so", 2, 2.0)]
        every, curated = batch.rates(runs)
        self.assertAlmostEqual(every, 3600 * 6 / 8.0)
        self.assertAlmostEqual(curated, 3600 * 4 / 6.0, msg="the KernelBench import left out")
        self.assertEqual(batch.rates([("libcuda_kb_l3_1_mlp_wmma_tf32.so", 2, 3.0)]), (2400.0, None))
        self.assertEqual(batch.rates([]), (None, None))

    def test_the_breakdown_averages_later_candidates_and_puts_the_costliest_phases_first(self):
        def report(samples, phases):
            return {"verdict": "pass", "timing": {"candidate": {"samples": samples}}, "environment": {"wall_s_by_phase": phases}}
        relu = [report(300, {"worker_start": 0.4, "timing.prepare_inputs": 9.0}),
                report(100, {"timing.prepare_inputs": 2.0, "timing.baselines": 0.5}),
                report(200, {"timing.prepare_inputs": 4.0, "timing.baselines": 0.7, "x": 0.1})]
        means, samples = batch.later_phases(relu)
        self.assertEqual(samples, 150)
        self.assertAlmostEqual(means["timing.prepare_inputs"], 3.0)
        self.assertAlmostEqual(means["x"], 0.05)
        self.assertNotIn("worker_start", means, "the first candidate pays for what the batch shares")
        table = batch.breakdown_table({"relu.so": (means, samples), "bmm.so": ({"timing.baselines": 0.2}, 40)})
        self.assertTrue(table[0].startswith("| example | timed samples | timing.prepare_inputs s | timing.baselines s | x s | other s |"))
        self.assertIn("| relu.so | 150 | 3.00 | 0.60 | 0.05 | 0.00 |", table)
        self.assertIn("| bmm.so | 40 | 0.00 | 0.20 | 0.00 | 0.00 |", table)

    def test_the_clock_rows_give_the_rules_headroom(self):
        def report(worker, trusted):
            return {"verdict": "pass", "timing": {"candidate": {"median_s": worker}},
                    "environment": {"trusted_median_s": trusted, "ping_round_trip_s": 1.6e-3}}
        rows = batch.clock_rows("x.so", [report(0.265e-3, 1.0e-3), report(4e-3, 4.2e-3), {"verdict": "resource"}])
        self.assertEqual(rows[0], ["x.so", "pass", "0.265", "1.000", "0.830", "0.83", "1.600", "-", "noise"])  # (0.265 + 0.15) / 0.5: flagged
        self.assertEqual(rows[1][4:6], ["8.300", "1.98"])
        self.assertEqual(len(rows), 2, "a report without timing has no row")
        ruled = report(0.265e-3, 1.253e-3)
        ruled["environment"]["clock_agreement"] = {"factor": 0.5, "slack_s": 0.5175e-3}
        self.assertEqual(batch.clock_rows("x.so", [ruled])[0][4:6], ["1.565", "1.25"], "the slack the report states")
        ruled["timing"]["candidate"]["samples"] = 47
        ruled["environment"]["stopped_on_median_precision"] = 0.0049
        self.assertEqual(batch.clock_rows("x.so", [ruled])[0][7:], ["47", "median"])

    def test_the_worker_step_rows_put_timing_calls_beside_null_calls(self):
        steps = {"timing_calls": {"calls": 40, "gate_hold": 480e-6, "run": 12.4e-6, "synchronize": 4000e-6},
                 "null_calls": {"calls": 5, "gate_hold": 470e-6, "synchronize": 50e-6}}
        with_steps = {"verdict": "pass", "environment": {"worker_host_steps_s": steps, "wall_s_by_phase": {"timing.call_round_trips": 0.24}}}
        rows = batch.worker_step_rows("x.so", [with_steps, {"verdict": "pass", "environment": {}}])
        self.assertEqual(len(rows), 2, "the last report that has them")
        column = {name: 3 + i for i, name in enumerate(batch.WORKER_STEPS)}
        self.assertEqual(rows[0][:3], ["x.so", "timing_calls", "40"])
        self.assertEqual(rows[0][column["gate_hold"]], "480")
        self.assertEqual(rows[0][column["run"]], "12")
        self.assertEqual(rows[0][column["begin_window"]], "-")
        self.assertEqual(rows[0][-3:], ["4492", "6000", "1508"])  # 0.24 s over 40 calls; beyond the steps' sum
        self.assertEqual(rows[1][:3], ["x.so", "null_calls", "5"])
        self.assertEqual(rows[1][-3:], ["520", "-", "-"])
        self.assertEqual(batch.worker_step_rows("y.so", [{"verdict": "crash"}]), [])

    def test_the_suite_parses_its_options(self):
        self.assertEqual(main.parse(["batch:copies=3,only=relu"]), [("batch", [], {"copies": "3", "only": "relu"})])


class Unpack(unittest.TestCase):
    """bench/gpu/unpack.sh makes the bundle folder from the archive bundle.sh packs (what travels),
    with tar and xz, and with python3's tarfile where xz is missing; a folder already there is kept."""

    def pack(self, root):
        bundle = root / ".gpu" / "r9"
        (bundle / "bin").mkdir(parents=True)
        (bundle / "env.sh").write_text("export KBV_BUNDLE_TEST=1\n")
        (bundle / "bin" / "tool").write_text("#!/bin/sh\necho hi\n")
        subprocess.run(f"tar -C {root / '.gpu'} -cf - r9 | xz -T2 -6 > {bundle}.tar.xz", shell=True, check=True)
        subprocess.run(["rm", "-rf", bundle], check=True)
        return bundle

    def unpack(self, bundle, path=None):
        env = dict(os.environ, PATH=path) if path else None
        return subprocess.run(["bash", REPO / "bench/gpu/unpack.sh", str(bundle)], capture_output=True, text=True, env=env)

    def test_the_archive_becomes_the_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            bundle = self.pack(Path(tmp))
            done = self.unpack(bundle)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual((bundle / "bin" / "tool").read_text(), "#!/bin/sh\necho hi\n")
            (bundle / "kept").write_text("")
            self.assertEqual(self.unpack(bundle).returncode, 0)
            self.assertTrue((bundle / "kept").exists(), "an unpacked folder is not unpacked again")

    def test_without_xz_python_unpacks_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            bundle = self.pack(Path(tmp))
            tools = Path(tmp) / "tools"  # a PATH with bash, tar, python3 and coreutils, but no xz
            tools.mkdir()
            for name in ("bash", "tar", "python3", "dirname", "rm", "env"):
                found = subprocess.run(["bash", "-c", f"command -v {name}"], capture_output=True, text=True).stdout.strip()
                if found:
                    (tools / name).symlink_to(found)
            done = self.unpack(bundle, path=str(tools))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertTrue((bundle / "env.sh").exists())

    def test_neither_folder_nor_archive_names_the_fix(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = self.unpack(Path(tmp) / ".gpu" / "r9")
            self.assertEqual(done.returncode, 2)
            self.assertIn("carry .gpu/NAME.tar.xz", done.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
