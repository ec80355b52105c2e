"""bench/gpu/runner/common.py — what every suite shares: the run's context (bundle, output
folder, environment, stamp), commands run under a time limit with their output logged, and the
summary file each suite writes.

Only the standard library: the GPU machine's python3 is PyTorch's virtual environment, and the
runner must not depend on what else it holds."""
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

# The key kbv draws hidden input families with. A fresh one per run: the figures must not
# depend on one epoch's families, and nothing secret leaves the machine.
KEY_NAME = "secret.key"


class CommandResult:
    """One finished command: exit status (None when it ran past its limit and was killed), wall
    seconds, and what it wrote."""

    def __init__(self, argv, returncode, wall_s, stdout, stderr, timed_out):
        self.argv, self.returncode, self.wall_s = argv, returncode, wall_s
        self.stdout, self.stderr, self.timed_out = stdout, stderr, timed_out

    @property
    def ok(self):
        return self.returncode == 0

    def status(self):
        return f"killed after {self.wall_s:.0f} s (time limit)" if self.timed_out else f"exit {self.returncode}"


class Context:
    """The run: OUT (what comes back: one summary per suite, ceilings.json, torch-baselines.json, logs.tar.gz), the
    bundle, the repository root (the working directory), a scratch folder whose logs/ is tarred
    at the end, and the environment every kbv command gets."""

    def __init__(self, out, bundle, repo):
        self.out = Path(out).resolve()
        self.bundle = Path(bundle).resolve()
        self.repo = Path(repo).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self.started_utc = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.scratch = Path(tempfile.mkdtemp(prefix="kbv-gpu-bench-"))
        self.logs = self.scratch / "logs"
        self.logs.mkdir()
        self.bundle_name = os.path.relpath(self.bundle, self.repo) if self.bundle.is_relative_to(self.repo) else str(self.bundle)
        self.ceilings_source = "none (kbv falls back to the H200 datasheet)"
        self.env = dict(os.environ)
        self.env.update({
            "KBV_PROBLEMS_DIR": str(self.bundle / "problems"),
            "KBV_KEY_FILE": str(self.scratch / KEY_NAME),
            # cudnnFind's choices, fresh per run: `calibrate` fills it when it runs first;
            # otherwise the first eval of each conv problem pays for Find (setup_s_by_step).
            "KBV_ALGORITHM_CACHE": str(self.scratch / "cudnn-conv-algorithms.json"),
            # The tests read their paths from here when they run from a bundle.
            "KBV_TEST_KBV_BINARY": str(self.bin("kbv")),
            "KBV_TEST_CANDIDATE_DIR": str(self.bundle / "candidates"),
            "KBV_TEST_PROBLEMS_DIR": str(self.bundle / "problems"),
            "KBV_TEST_OUT_OF_TREE_BUILD": str(self.bundle / "sdk-out-of-tree"),
        })
        self.env.pop("KBV_CEILINGS", None)
        # No PyTorch calibration unless the run names one (use_torch_calibration): never the GPU
        # machine's own state directory, whose file nobody here chose.
        self.torch_calibration = self.scratch / "torch-baselines.json"
        self.env["KBV_TORCH_CALIBRATION"] = str(self.torch_calibration)
        self.torch_calibration_source = "none (speedups over PyTorch are null)"
        self.stamp = make_stamp(self)

    def bin(self, name):
        return self.bundle / "bin" / name

    def use_ceilings(self, path, source):
        self.env["KBV_CEILINGS"] = str(path)
        self.ceilings_source = source
        self.stamp = make_stamp(self)

    def use_torch_calibration(self, source):
        """Speedups over PyTorch from self.torch_calibration (written there by calibrate:torch or
        copied from docs/results/torch-baselines.json), `source` said in every stamp."""
        self.torch_calibration_source = source
        self.stamp = make_stamp(self)

    def run(self, log_name, argv, timeout_s, env=None, input_text=None):
        """Runs argv in its own process group (killed whole at the limit: kbv's workers too);
        stdout and stderr go to logs/LOG_NAME.log (appended) and come back as text."""
        argv = [str(a) for a in argv]
        start = time.monotonic()
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
                                   env=env or self.env, cwd=self.repo, start_new_session=True)
        timed_out = False
        try:
            out, err = process.communicate(input=input_text.encode() if input_text is not None else None, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = process.communicate()
        wall = time.monotonic() - start
        result = CommandResult(argv, None if timed_out else process.returncode, wall,
                               out.decode(errors="replace"), err.decode(errors="replace"), timed_out)
        with open(self.logs / f"{log_name}.log", "a") as log:
            log.write(f"$ {' '.join(argv)}\n# {result.status()}, {wall:.2f} s\n")
            log.write(result.stdout)
            if result.stderr:
                log.write("\n# stderr\n" + result.stderr)
            log.write("\n")
        return result

    def append_jsonl(self, name, record):
        with open(self.logs / f"{name}.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")

    def write_summary(self, suite, title, command, body):
        """OUT/SUITE.md: the title, the stamp, the command that reproduces it, then the body."""
        text = [f"# {title}", "", self.stamp, "", f"Reproduce on the GPU machine: `{command}`", ""] + body
        path = self.out / f"{suite}.md"
        path.write_text("\n".join(text).rstrip() + "\n")
        shutil.copy(path, self.logs / path.name)
        return path

    def command_for(self, suite_spec):
        return f"bench/gpu/run.sh $OUT {self.bundle_name} {suite_spec}  # carry {self.bundle_name}.tar.xz"

    def finish(self):
        """Tars logs/ into OUT/logs.tar.gz and removes the scratch folder."""
        archive = shutil.make_archive(str(self.out / "logs"), "gztar", root_dir=self.scratch, base_dir="logs")
        shutil.rmtree(self.scratch, ignore_errors=True)
        return Path(archive)


def nvidia_smi(*args):
    try:
        return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def gpu_facts():
    """Name, driver and the CUDA version the driver supports, from nvidia-smi (first GPU)."""
    query = nvidia_smi("--query-gpu=name,driver_version", "--format=csv,noheader").splitlines()
    name, driver = (query[0].split(", ", 1) + ["?"])[:2] if query else ("no GPU seen by nvidia-smi", "?")
    cuda = re.search(r"CUDA Version:\s*([0-9.]+)", nvidia_smi())
    return {"gpu": name.strip(), "driver": driver.strip(), "cuda": cuda.group(1) if cuda else "?"}


def bundle_facts(bundle, repo):
    """The commit the bundle was built from (bundle.json, written by bench/gpu/bundle.sh), else
    the repository's, else unknown."""
    try:
        facts = json.loads((bundle / "bundle.json").read_text())
        return facts.get("commit", "?"), facts.get("built_utc", "?")
    except (OSError, ValueError):
        pass
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=repo, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    return commit or "unknown (no bundle.json, no git)", "?"


def make_stamp(ctx):
    gpu = gpu_facts()
    commit, built = bundle_facts(ctx.bundle, ctx.repo)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Commit `{commit}` (bundle `{ctx.bundle_name}`, built {built}) · {gpu['gpu']} · driver {gpu['driver']} · "
            f"CUDA {gpu['cuda']} · {now} · ceilings: {ctx.ceilings_source} · PyTorch calibration: {ctx.torch_calibration_source}")


def stop_reason(environment):
    """How a CUDA evaluation's sampling stopped, from its report's environment: on the median's
    precision, a noise plateau, the wall budget, or (none of those named) the noise target or
    NVBench's minimums (docs/measurement.md, When to stop)."""
    for key, name in (("stopped_on_median_precision", "median"), ("stopped_on_noise_plateau", "plateau"), ("stopped_on_wall_budget", "budget")):
        if key in (environment or {}):
            return name
    return "noise"


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def code_block(text, limit_lines=None):
    lines = text.rstrip("\n").splitlines()
    if limit_lines and len(lines) > limit_lines:
        lines = lines[:limit_lines] + [f"… ({len(lines) - limit_lines} more lines in logs.tar.gz)"]
    return ["```"] + lines + ["```"]


def ms(seconds, digits=4):
    return f"{seconds * 1e3:.{digits}f}" if isinstance(seconds, (int, float)) and seconds else "-"


def pct(value, digits=2):
    return f"{value * 100:.{digits}f} %" if isinstance(value, (int, float)) else "-"
