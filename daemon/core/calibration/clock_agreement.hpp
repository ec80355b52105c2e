// calibration/clock_agreement.hpp — did a calibration entry time a PyTorch baseline and the library
// it is measured against at one SM clock? Read from the entry's evidence (the median NVML clock
// each timer recorded over its kept samples). A ratio between two clocks measures the GPU's power
// state as much as the code (docs/torch-calibration.md, "Known confound").
#pragma once

#include <optional>

#include "calibration/torch_calibration.hpp"

namespace kbv::calibration {

// Clocks further apart than this (relative to PyTorch's) are a different operating point: NVML
// reports the H200's SM clock in 15 MHz steps (0.8 % of 1980 MHz), and the 2026-12-04 calibration's
// disagreeing GEMMs were 6–15 % apart (bench/calibrate/analysis/clock_confound.py uses the same).
inline constexpr double kClockAgreement = 0.02;

struct ClockComparison {
  double library_mhz = 0;  // the mean of the library's before and after medians (those it has)
  double torch_mhz = 0;
  bool agree = false;      // |library − torch| ≤ kClockAgreement × torch
};

// nullopt when the entry's evidence lacks either clock (a calibration without clock readings, or
// a baseline PyTorch did not measure).
std::optional<ClockComparison> compare_clocks(const CalibrationEntry& entry, const TorchBaseline& baseline);

}  // namespace kbv::calibration
