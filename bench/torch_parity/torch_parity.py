#!/usr/bin/env python3
"""torch_parity.py — PyTorch eager fp32 and TF32 times for every kbv problem at its default
shapes, next to kbv's own baseline medians (parsed from kbv_bench_cuda_timing's log).

Target (issue #3): kbv's TF32 baseline within 3 % of PyTorch TF32, or faster, on every problem.
Usage (where PyTorch, Triton and a GPU are):
  torch_parity.py PROBLEMS_DIR [KBV_BENCH_LOG] > table.md
PyTorch is timed with triton.testing.do_bench (median, its own L2 flush between runs).
"""
import re
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import yaml
from triton.testing import do_bench

TARGET = 1.03  # kbv TF32 baseline / PyTorch TF32 must be at most this


def resolve(dims, symbols):
    return [int(d) if str(d).lstrip("-").isdigit() else symbols[d] for d in dims]


def run_node(op, args, attrs):
    a = attrs or {}
    if op == "relu": return torch.relu(args[0])
    if op == "gelu": return F.gelu(args[0])
    if op == "leaky_relu": return F.leaky_relu(args[0], a.get("negative_slope", 0.01))
    if op == "sigmoid": return torch.sigmoid(args[0])
    if op == "tanh": return torch.tanh(args[0])
    if op == "softmax": return torch.softmax(args[0], dim=int(a.get("axis", -1)))
    if op == "layernorm":
        r = int(a.get("normalized_rank", 1))
        shape = args[0].shape[-r:]
        return F.layer_norm(args[0], shape, args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else None, a.get("eps", 1e-5))
    if op == "rmsnorm":
        x = args[0]
        return x / torch.sqrt(torch.mean(x ** 2, dim=int(a.get("axis", 1)), keepdim=True) + a.get("eps", 1e-5))
    if op == "matmul": return torch.matmul(args[0], args[1])
    if op == "bmm": return torch.bmm(args[0], args[1])
    if op == "linear": return F.linear(args[0], args[1], args[2] if len(args) > 2 else None)
    if op == "conv2d":
        return F.conv2d(args[0], args[1], args[2] if len(args) > 2 else None, int(a.get("stride", 1)), int(a.get("padding", 0)),
                        int(a.get("dilation", 1)), int(a.get("groups", 1)))
    if op == "maxpool2d":
        k = int(a.get("kernel", 2)); s = int(a.get("stride", 0)) or k
        return F.max_pool2d(args[0], k, s, int(a.get("padding", 0)), int(a.get("dilation", 1)))
    if op == "sum": return torch.sum(args[0], dim=int(a.get("axis", -1)), keepdim=bool(a.get("keepdim", 1)))
    if op == "mean": return torch.mean(args[0], dim=int(a.get("axis", -1)), keepdim=bool(a.get("keepdim", 1)))
    if op == "add": return args[0] + args[1]
    if op == "mul": return args[0] * args[1]
    if op == "scale": return args[0] * a.get("value", 1.0)
    raise ValueError(f"unknown op {op}")


def problem_callable(spec):
    symbols = spec["shapes"]["default"]
    tensors = {}
    for decl in spec["inputs"]:
        shape = resolve(decl["shape"], symbols)
        tensors[decl["name"]] = torch.rand(*shape, device="cuda")  # PyTorch's public U[0,1)
    outputs = [o["name"] for o in spec["outputs"]]

    def run():
        env = dict(tensors)
        for node in spec["graph"]:
            env[node["output"]] = run_node(node["op"], [env[n] for n in node["inputs"]], node.get("attrs"))
        return [env[o] for o in outputs]
    return run


def kbv_medians(log_path):
    medians, problem = {}, None
    for line in Path(log_path).read_text().splitlines():
        if line.startswith("-- "):
            problem = line[3:].strip()
        m = re.match(r"\s+(tf32|fp32)\s+median\s+([0-9.]+) ms", line)
        if m and problem:
            medians.setdefault(problem, {})[m.group(1)] = float(m.group(2))
    return medians


def main():
    problems = Path(sys.argv[1])
    kbv = kbv_medians(sys.argv[2]) if len(sys.argv) > 2 else {}
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}\n")
    print("| problem | torch fp32 ms | torch tf32 ms | kbv fp32 ms | kbv tf32 ms | kbv/torch tf32 | within 3 % or faster |")
    print("|---|---|---|---|---|---|---|")
    misses = 0
    for path in sorted(problems.glob("*.yaml")):
        spec = yaml.safe_load(path.read_text())
        run = problem_callable(spec)
        times = {}
        for mode, tf32 in (("fp32", False), ("tf32", True)):
            torch.backends.cuda.matmul.allow_tf32 = tf32
            torch.backends.cudnn.allow_tf32 = tf32
            with torch.no_grad():
                times[mode] = do_bench(run, warmup=200, rep=1000, return_mode="median")
        k = kbv.get(spec["name"], {})
        ratio = k["tf32"] / times["tf32"] if "tf32" in k else None
        ok = "-" if ratio is None else ("yes" if ratio <= TARGET else "NO")
        misses += ok == "NO"
        fmt = lambda v: f"{v:.4f}" if v is not None else "-"
        print(f"| {spec['name']} | {times['fp32']:.4f} | {times['tf32']:.4f} | {fmt(k.get('fp32'))} | {fmt(k.get('tf32'))} | "
              f"{fmt(ratio)} | {ok} |", flush=True)
        del run
        torch.cuda.empty_cache()
    print(f"\n{misses} problem(s) where kbv's TF32 baseline is more than 3 % slower than PyTorch TF32")


if __name__ == "__main__":
    main()
