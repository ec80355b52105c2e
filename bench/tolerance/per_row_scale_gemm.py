#!/usr/bin/env python3
"""bench/tolerance/per_row_scale_gemm.py — how an honest TF32 GEMM of KernelBench L2 #59's shape
(x[128, 32768] · W[32768, 32768]ᵀ + b) fares against kbv's elementwise bound on the
per_row_scale family, judged by the whole output's RMS and by each row's (verify/compare.hpp,
kMinLocalRmsRow).

Every input is drawn as kbv draws per_row_scale: N(0,1)·10^r per row of the innermost axis,
r ∈ U(−a, a) (a = 3 here, the family's widest), for x and for the weight alike (the weight also
× 1/sqrt(fan_in)), so an output (i, j) is scaled by both its row's and its column's factor.
Operands are rounded to TF32 (round to nearest, as wmma::__float_to_tf32) and the products
summed in fp64: TF32's operand rounding is the error term. A subset of the output columns is
computed (--columns); violation counts scale with the full 32768.

Prints, per seed, the relative L2 error and, by the whole RMS and by max(whole, row) RMS, the
outputs outside atol·rms + rtol·|ref| at atol = rtol = 1e-2 and the worst ratio to that bound.
numpy only: `python3 bench/tolerance/per_row_scale_gemm.py [--columns 4096] [--seeds 4]`."""
import argparse

import numpy as np

from tf32_model import tf32

ROWS, K = 128, 32768  # KernelBench L2 #59's batch_size and in_features (out_features 32768)
BOUND = 1e-2


def per_row_scale(rng, shape, spread):
    rows = rng.uniform(-spread, spread, size=(shape[0], 1))
    return (rng.standard_normal(shape) * 10.0 ** rows).astype(np.float32)


def run(columns, spread, seed):
    rng = np.random.default_rng(seed)
    x = per_row_scale(rng, (ROWS, K), spread)
    weight = (per_row_scale(rng, (columns, K), spread) / np.sqrt(K)).astype(np.float32)
    bias = per_row_scale(rng, (1, columns), spread).astype(np.float64)[0]
    reference = x.astype(np.float64) @ weight.T.astype(np.float64) + bias
    error = np.abs(tf32(x) @ tf32(weight).T + bias - reference)
    whole = np.sqrt(np.mean(reference ** 2))
    row = np.sqrt(np.mean(reference ** 2, axis=1, keepdims=True))
    figures = {}
    for name, rms in (("whole", whole), ("row", np.maximum(whole, row))):
        allowed = BOUND * rms + BOUND * np.abs(reference)
        figures[name] = (int(np.sum(error > allowed)), float(np.max(error / allowed)))
    return float(np.sqrt(np.sum(error ** 2) / np.sum(reference ** 2))), figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", type=int, default=4096, help="output columns computed (of 32768)")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--spread", type=float, default=3.0, help="a: rows scaled by 10^U(-a, a)")
    args = parser.parse_args()
    print(f"| seed | rel-L2 | over the bound, whole RMS | worst ratio | over, max(whole, row) RMS | worst ratio | (of {ROWS * args.columns}) |")
    print("|---|---|---|---|---|---|---|")
    for seed in range(args.seeds):
        rel_l2, figures = run(args.columns, args.spread, seed)
        (whole_over, whole_worst), (row_over, row_worst) = figures["whole"], figures["row"]
        print(f"| {seed} | {rel_l2:.2e} | {whole_over} | {whole_worst:.2f} | {row_over} | {row_worst:.2f} | |")


if __name__ == "__main__":
    main()
