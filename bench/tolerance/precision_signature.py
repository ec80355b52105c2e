#!/usr/bin/env python3
"""bench/tolerance/precision_signature.py — the precision check's ratio (verify/precision_signature.hpp)
for kernels of several precisions on relu(x·Wᵀ + b), KernelBench L2 #76's form, family by family:
ratio = ‖out − ref_bf16‖ / ‖out − ref‖, where ref_bf16 is the reference of the product operands
rounded to bf16 (nearest even); a family fails below 0.5.

Kernels: operands rounded (TF32 as wmma's __float_to_tf32, TF32 truncated, fp16, bf16), then the
products summed in fp32 by numpy's float32 matmul (a blocked fp32 accumulation: the GPU's differs,
docs/results/keysweep.md has the H200's honest figures); "bf16 half K" rounds only the first half of
K; "bf16 + f× noise" adds Gaussian noise of f times bf16's own RMS error to hide its direction (the
check's known limit, docs/problem-spec.md). The rel-L2 column is against ‖y‖, the tolerance's (2e-3).
numpy only: `python3 bench/tolerance/precision_signature.py [--k 8192] [--rows 256] [--columns 256]`."""
import argparse

import numpy as np

from tf32_model import tf32

THRESHOLD = 0.5  # kBf16ExplainedRatio
REL_L2 = 2e-3    # the tensor-core class's bound
NOISE_FACTORS = (0.6, 0.9)  # added noise, in units of bf16's own RMS error


def rounded(values, keep_bits, truncate=False):
    """float32 values with `keep_bits` mantissa bits (nearest even, or toward zero), as float32."""
    bits = np.asarray(values, dtype=np.float32).copy().view(np.uint32)
    drop = np.uint32(23 - keep_bits)
    if not truncate:
        bits += (np.uint32(1) << (drop - np.uint32(1))) - np.uint32(1) + ((bits >> drop) & np.uint32(1))
    bits &= ~((np.uint32(1) << drop) - np.uint32(1))
    return bits.view(np.float32)


def bf16(values):
    return rounded(values, 7)


def fp16(values):
    return np.asarray(values, dtype=np.float32).astype(np.float16).astype(np.float32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=8192)
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--columns", type=int, default=256)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    k = args.k
    draws = {"normal": rng.standard_normal, "uniform01": rng.random, "scaled3": lambda shape: 3 * rng.random(shape)}
    print("| family | kernel | rel-L2 vs ‖y‖ | tolerance | ratio | precision check |")
    print("|---|---|---|---|---|---|")
    for family, draw in draws.items():
        x = draw((args.rows, k)).astype(np.float32)
        w = (draw((args.columns, k)) / np.sqrt(k)).astype(np.float32)  # scale: inv_sqrt_fan_in
        b = draw(args.columns).astype(np.float32)
        exact = lambda a, c: np.maximum(a.astype(np.float64) @ c.astype(np.float64).T + b, 0)
        y = exact(x, w)
        y_bf16 = exact(bf16(x), bf16(w))
        half = k // 2
        kernels = {
            "fp32": (x, w),
            "TF32 (nearest)": (tf32(x).astype(np.float32), tf32(w).astype(np.float32)),
            "TF32 (truncated)": (rounded(x, 10, truncate=True), rounded(w, 10, truncate=True)),
            "fp16": (fp16(x), fp16(w)),
            "bf16": (bf16(x), bf16(w)),
            "bf16 half K": (np.concatenate([bf16(x[:, :half]), x[:, half:]], axis=1),
                            np.concatenate([bf16(w[:, :half]), w[:, half:]], axis=1)),
        }
        outputs = {name: np.maximum(a @ c.T + b, 0).astype(np.float64) for name, (a, c) in kernels.items()}
        bf16_rms_error = np.linalg.norm(outputs["bf16"] - y) / np.sqrt(y.size)
        for factor in NOISE_FACTORS:  # on the outputs the relu keeps
            outputs[f"bf16 + {factor}x noise"] = outputs["bf16"] + factor * bf16_rms_error * rng.standard_normal(y.shape) * (y > 0)
        for name, out in outputs.items():
            to_reference = np.linalg.norm(out - y)
            ratio = np.linalg.norm(out - y_bf16) / to_reference if to_reference > 0 else float("inf")
            rel = to_reference / np.linalg.norm(y)
            print(f"| {family} | {name} | {rel:.2e} | {'passes' if rel <= REL_L2 else 'fails'} | {ratio:.3g} | "
                  f"{'fails' if ratio < THRESHOLD else 'passes'} |")


if __name__ == "__main__":
    main()
