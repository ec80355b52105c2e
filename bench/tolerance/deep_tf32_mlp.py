#!/usr/bin/env python3
"""bench/tolerance/deep_tf32_mlp.py — how far an honest TF32 implementation of KernelBench L3 #3
(DeepNarrowMLP: 17 Linear layers with ReLU between, no normalisation) lands from the fp64
reference on kbv's heavy_tailed input family, to size that problem's tolerance
(scripts/kernelbench/kbimport/measured.py).

Every GEMM's operands are rounded to TF32 (round to nearest, 10-bit mantissa, as
wmma::__float_to_tf32) and the products summed in fp64: TF32's operand rounding is the error
term (fp32 accumulation adds ~1e-5 of it at K = 8192); activations are stored as fp32 between
layers. Inputs, weights (× 1/sqrt(fan_in)) and biases are drawn as kbv's heavy_tailed family:
symmetric Pareto ±(u^(−1/α) − 1), α ∈ [2, 3] (daemon/core/inputs/families.hpp).

Prints, per α and seed, the relative L2 error and how many outputs exceed the elementwise
bound atol·rms(ref) + rtol·|ref| at 1e-2 and 5e-2 (the worst ratio to the 1e-2 bound).
numpy only: `python3 bench/tolerance/deep_tf32_mlp.py [--batch 256] [--seeds 3]`."""
import argparse

import numpy as np

from tf32_model import tf32

LAYERS = [8192] + [1024] * 16 + [8192]  # KernelBench L3 #3's default sizes (input, 16 hidden, output)


def heavy_tailed(rng, alpha, shape):
    sign = np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)
    return (sign * (rng.uniform(size=shape) ** (-1.0 / alpha) - 1.0)).astype(np.float32).astype(np.float64)


def run(batch, alpha, seed):
    rng = np.random.default_rng(seed)
    reference = heavy_tailed(rng, alpha, (batch, LAYERS[0]))
    tf32_out = reference.copy()
    for layer in range(len(LAYERS) - 1):
        fan_in, fan_out = LAYERS[layer], LAYERS[layer + 1]
        weight = (heavy_tailed(rng, alpha, (fan_out, fan_in)) / np.sqrt(fan_in)).astype(np.float32).astype(np.float64)
        bias = heavy_tailed(rng, alpha, (fan_out,))
        reference = reference @ weight.T + bias
        tf32_out = (tf32(tf32_out) @ tf32(weight).T + bias).astype(np.float32).astype(np.float64)
        if layer < len(LAYERS) - 2:
            reference, tf32_out = np.maximum(reference, 0), np.maximum(tf32_out, 0)
    error = np.abs(tf32_out - reference)
    rms = np.sqrt(np.mean(reference ** 2))
    rel_l2 = np.sqrt(np.sum(error ** 2) / np.sum(reference ** 2))
    over = {bound: int(np.sum(error > bound * (rms + np.abs(reference)))) for bound in (1e-2, 5e-2)}
    worst = float(np.max(error / (1e-2 * (rms + np.abs(reference)))))
    return rel_l2, over, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256, help="rows (KernelBench: 1024; counts scale with it)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--alphas", default="2.0,2.5,3.0")
    args = parser.parse_args()
    outputs = args.batch * LAYERS[-1]
    print(f"| alpha | seed | rel-L2 | outputs over 1e-2 | over 5e-2 | worst / 1e-2 bound | (of {outputs}) |")
    print("|---|---|---|---|---|---|---|")
    for alpha in (float(a) for a in args.alphas.split(",")):
        for seed in range(args.seeds):
            rel_l2, over, worst = run(args.batch, alpha, seed)
            print(f"| {alpha:.2f} | {seed} | {rel_l2:.2e} | {over[1e-2]} | {over[5e-2]} | {worst:.2f} | |")


if __name__ == "__main__":
    main()
