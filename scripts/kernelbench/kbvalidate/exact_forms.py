"""kbvalidate/exact_forms.py — PyTorch functions whose CUDA kernels are not exact in float64,
replaced by their definitions while validate.py runs KernelBench models on a GPU.

PyTorch's CUDA hardsigmoid and hardswish kernels (aten/src/ATen/native/cuda/
ActivationHardsigmoidKernel.cu, ActivationHardswishKernel.cu) multiply by
`opmath_t one_sixth(1.0f / 6.0f)`: the float constant, 2.98e-8 away from 1/6 in float64 too,
which is 30 times FP64_AGREEMENT. The H200 run of 2026-12-04 found exactly that distance on every
problem with one of them (L1 #28, L2 #26, #35, #60, #69, and 1.5e-9 through L2 #92's logsumexp),
while the CPU kernels (x + 3 clamped, divided by 6) agree with kbv. The replacements are the CPU
kernels' arithmetic, NaN propagating as there."""
import torch
import torch.nn.functional as F


def hardsigmoid(x, inplace=False):
    y = torch.clamp(x + 3, 0, 6) / 6
    return x.copy_(y) if inplace else y


def hardswish(x, inplace=False):
    y = x * torch.clamp(x + 3, 0, 6) / 6
    return x.copy_(y) if inplace else y


def install():
    """Routes F.hardsigmoid and F.hardswish (and so nn.Hardsigmoid and nn.Hardswish, which call
    them at each forward) to the exact forms, in this process."""
    F.hardsigmoid = hardsigmoid
    F.hardswish = hardswish
