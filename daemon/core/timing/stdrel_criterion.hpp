// timing/stdrel_criterion.hpp — NVBench's stdrel stopping criterion (nvbench/detail/
// stdrel_criterion.cxx): finished once at least min_samples are in, the measurements' GPU time
// exceeds min_measured_seconds, and either the noise (relative standard deviation) is below
// max_noise or it has reached a plateau: checked every 16 samples once 64 noise values exist,
// the relative spread of the last ≤ 512 noise values around the current one under 5 %. With a
// finite StdrelParams::settled_wall_seconds (kbv's, not NVBench's), also once the kept samples'
// wall time reaches it (budget_spent). With StdrelParams::max_median_error (kbv's), also once the
// median's 95 % confidence interval is that narrow relative to it (median_precise), checked
// after the noise target and before the plateau.
#pragma once

#include <cstddef>
#include <deque>

#include "timing/sample_stats.hpp"
#include "timing/stop_criterion.hpp"

namespace kbv::timing {

class StdrelCriterion final : public StopCriterion {
 public:
  explicit StdrelCriterion(const StdrelParams& params) : params_(params) {}
  // Once samples carry groups, the noise is the relative standard deviation within groups,
  // pooled: a kernel whose time depends on its inputs' values (cuBLAS's TF32 GEMM at the power
  // limit: 4 % between input families, 0.3–0.8 % within on the H200) is measured as precisely as
  // any other, and its fixed share of each family keeps the pooled median as stable.
  void add(const Sample& sample) override;
  StopReason reason() const override;
  double noise() const override { return noise_.value(); }
  double measured_seconds() const { return measured_seconds_; }
  // The relative half-width of the median's 95 % confidence interval: z · √(π/2) · noise / √n.
  // √(π/2) σ/√n is the sample median's asymptotic standard error for normal samples (its
  // efficiency against the mean, 2/π); samples with heavier tails than normal have a median
  // more precise than that against their standard deviation, so the bound errs long. With groups
  // the noise is the within-group one: the groups take turns in a fixed rotation, so their
  // offsets are not sampled and add nothing to the median's error. 0 before two samples.
  double median_half_width() const override;
  size_t count() const { return noise_.count(); }

  static constexpr size_t kNoiseHistory = 512;        // NVBench's ring buffer
  static constexpr size_t kPlateauMinHistory = 64;    // values needed before a plateau check
  static constexpr size_t kPlateauCheckEvery = 16;    // samples between plateau checks
  static constexpr double kPlateauSpread = 0.05;      // relative spread that counts as flat
  static constexpr double kConfidenceZ = 1.959964;     // two-sided 95 % normal quantile

 private:
  bool on_plateau() const;

  StdrelParams params_;
  GroupedRelativeStdev noise_;
  double measured_seconds_ = 0;
  double wall_seconds_ = 0;
  std::deque<double> noise_history_;
};

}  // namespace kbv::timing
