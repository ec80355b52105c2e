"""bench/tolerance/tf32_model.py — TF32 operand rounding in numpy, shared by the error models here."""
import numpy as np


def tf32(values):
    """float32 values rounded to TF32 (10-bit mantissa, round to nearest as wmma::__float_to_tf32), as float64."""
    bits = np.asarray(values, dtype=np.float32).copy().view(np.uint32)
    bits += np.uint32(0x1000)  # round half up in magnitude at the 13 dropped bits
    bits &= np.uint32(0xFFFFE000)
    return bits.view(np.float32).astype(np.float64)
