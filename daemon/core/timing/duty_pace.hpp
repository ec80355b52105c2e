// timing/duty_pace.hpp — how long a timer idles after a sample so that the GPU works at most a
// set share of the sampling wall (StopRule::max_duty).
//
// Why: a GPU's clock depends on how busy it has been. On the H200, kbv's C++ cold timer (GPU busy
// nearly all the time) ran large TF32 GEMMs at 1680–1860 MHz while PyTorch's timer in a Python
// process (busy under 40 % of its wall) ran the same cuBLAS kernels at 1980 MHz; a ratio between
// the two compared two operating points, not two implementations (docs/torch-calibration.md,
// "Known confound"). Timers paced to one duty meet the GPU in one state. kbv_torch/cold_timing.py
// applies the same rule in Python.
#pragma once

namespace kbv::timing {

// Seconds to idle after a sample whose timed window took `busy_seconds` and which has taken
// `elapsed_seconds` of wall so far, so that busy ≤ max_duty × (elapsed + pause). 0 when the
// sample already idled enough, or max_duty ≥ 1 (no pacing), or max_duty ≤ 0 (malformed: ignored
// rather than an endless pause; StopRule's users validate it).
double duty_pause_seconds(double busy_seconds, double elapsed_seconds, double max_duty);

}  // namespace kbv::timing
