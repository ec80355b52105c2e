#!/usr/bin/env python3
"""bench/tolerance/cancellation_gemm_relu.py — why an honest TF32 GEMM of KernelBench L2 #76's shape
(y = relu(x[1024, 8192] · W[8192, 8192]ᵀ + b)) fails kbv's elementwise bound on the trend family,
and how a bound by the products' own scale would judge it (and a bf16 GEMM).

The trend family adds a·(2·t^γ − 1)·sign along each tensor's lead axis (and half that along the
others; inputs/families.hpp), a ∈ [0.5, 1.5], γ ∈ [0.5, 2]. With the lead axis of x and of W both
on K, every dot product gets a systematic part a²·Σ_k trend_x(k)·trend_w(k)/sqrt(K), tens of
units, whose sign the output column's secondary trend moves across zero: relu zeroes most outputs,
and the ones left are small differences of large sums. TF32's operand rounding errs in proportion
to the products summed (≈ 2^-11·sqrt(Σ_k x_k²w_k²)), not to the small output, so the bound
atol·max(rms(y), rms(row)) + rtol·|y| (verify/compare.hpp) is far too tight there.

Operands are rounded to TF32 (or bf16) and the products summed in fp64, and TF32 once more with
fp32 sums, as a tensor-core kernel accumulates. A subset of x's rows is
computed (--rows), and of W's (--columns); counts scale with the full 1024 × 8192. Prints, per draw: the relative L2 error (the
problem's bound 2e-3); the outputs over kbv's bound and the worst ratio; and, by the products'
scale S = sqrt(Σ_k x_k²·w_k²) (relu passes it through), the outputs over atol·S + rtol·|y| and
the relative L2 error against ‖S‖ (kbv's error-scale rule: within half the problem's rel_l2).
numpy only: `python3 bench/tolerance/cancellation_gemm_relu.py [--rows 64] [--columns 8192] [--seeds 4]`."""
import argparse

import numpy as np

from tf32_model import tf32

ROWS, K, N = 1024, 8192, 8192  # KernelBench L2 #76's batch_size, in_features, out_features
ATOL = RTOL = 1e-2              # its tolerance (problems/kernelbench/kb_l2_76_gemm_add_relu.yaml)
REL_L2 = 2e-3
SECONDARY_WEIGHT = 0.5          # inputs/families.hpp kSecondaryAxisWeight


def bf16(values):
    """float32 values rounded to bfloat16 (7-bit mantissa, round to nearest), as float64."""
    bits = np.asarray(values, dtype=np.float32).copy().view(np.uint32)
    bits += np.uint32(0x8000)
    bits &= np.uint32(0xFFFF0000)
    return bits.view(np.float32).astype(np.float64)


def axis_trend(rng, extent, curvature, positions=None):
    """The trend term at `positions` (default: all) of an axis of `extent`."""
    t = ((np.arange(extent) if positions is None else positions) + 0.5) / extent
    return rng.choice([-1.0, 1.0]) * (2.0 * t ** curvature - 1.0)


def spread_positions(count, extent):
    """`count` evenly spread positions of an axis of `extent` (a subset that spans the trend)."""
    return np.linspace(0, extent - 1, count).round()


def trend_matrix(rng, rows, extent_rows, cols, a, curvature):
    """N(0,1) + a·trend, lead axis = columns (K), the rows' axis (of extent_rows, `rows` of its
    positions computed) at half weight."""
    lead = axis_trend(rng, cols, curvature)[None, :]
    secondary = axis_trend(rng, extent_rows, 2.0 ** rng.uniform(-1, 1), spread_positions(rows, extent_rows))[:, None]
    trend = (lead + SECONDARY_WEIGHT * secondary) / (1 + SECONDARY_WEIGHT)
    return (rng.standard_normal((rows, cols)) + a * trend).astype(np.float32)


def judge(output, reference, scale):
    error = np.abs(output - reference)
    whole = np.sqrt(np.mean(reference ** 2))
    row = np.sqrt(np.mean(reference ** 2, axis=1, keepdims=True))
    kbv_allowed = ATOL * np.maximum(whole, row) + RTOL * np.abs(reference)
    scale_allowed = ATOL * scale + RTOL * np.abs(reference)
    norm = np.sqrt(np.sum(error ** 2))
    return {
        "rel_l2": norm / np.sqrt(np.sum(reference ** 2)),
        "kbv_over": int(np.sum(error > kbv_allowed)), "kbv_worst": float(np.max(error / kbv_allowed)),
        "scale_over": int(np.sum(error > scale_allowed)), "scale_worst": float(np.max(error / scale_allowed)),
        "scale_rel_l2": norm / np.sqrt(np.sum(scale ** 2)),  # kbv's error-scale rule: ≤ rel_l2 / 2
    }


def run(rows, columns, seed):
    rng = np.random.default_rng(seed)
    a, curvature = rng.uniform(0.5, 1.5), 2.0 ** rng.uniform(-1, 1)
    x = trend_matrix(rng, rows, ROWS, K, a, curvature)
    weight = (trend_matrix(rng, columns, N, K, a, curvature) / np.sqrt(K)).astype(np.float32)
    bias = (rng.standard_normal(columns) + a * axis_trend(rng, N, curvature, spread_positions(columns, N))).astype(np.float64)
    x64, w64 = x.astype(np.float64), weight.astype(np.float64)
    reference = np.maximum(x64 @ w64.T + bias, 0.0)
    scale = np.sqrt((x64 ** 2) @ (w64 ** 2).T)  # the products' scale; relu is 1-Lipschitz
    figures = {"a": a, "gamma": curvature, "zero_share": float(np.mean(reference == 0))}
    if figures["zero_share"] == 1.0:  # every output 0: the family is degenerate there and does not gate
        return figures
    for name, rounding in (("tf32", tf32), ("bf16", bf16)):
        output = np.maximum(rounding(x) @ rounding(weight).T + bias, 0.0)
        figures[name] = judge(output, reference, scale)
    # As a tensor-core kernel sums: TF32 operands, fp32 accumulators (numpy's float32 matmul).
    product = tf32(x).astype(np.float32) @ tf32(weight).T.astype(np.float32)
    figures["tf32, fp32 sums"] = judge(np.maximum(product.astype(np.float64) + bias, 0.0), reference, scale)
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=64, help=f"rows of x computed (of {ROWS}, evenly spread)")
    parser.add_argument("--columns", type=int, default=N, help=f"output columns computed (of {N}, evenly spread)")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    print(f"{args.rows} of {ROWS} rows, {args.columns} of {N} columns, K = {K}; bounds atol = rtol = {ATOL}, rel-L2 {REL_L2}")
    print("| seed | a | γ | zeros | operands | rel-L2 | over kbv's bound | worst | over atol·S + rtol·|y| | worst | rel-L2 vs ‖S‖ (≤ 1e-3) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for seed in range(args.seeds):
        f = run(args.rows, args.columns, seed)
        if "tf32" not in f:
            print(f"| {seed} | {f['a']:.2f} | {f['gamma']:.2f} | 100% | - | every output 0: degenerate, not gating | | | | | |")
            continue
        for name in ("tf32", "tf32, fp32 sums", "bf16"):
            j = f[name]
            print(f"| {seed} | {f['a']:.2f} | {f['gamma']:.2f} | {f['zero_share']:.0%} | {name} | {j['rel_l2']:.2e} | {j['kbv_over']} | "
                  f"{j['kbv_worst']:.2f} | {j['scale_over']} | {j['scale_worst']:.3f} | {j['scale_rel_l2']:.2e} |")


if __name__ == "__main__":
    main()
