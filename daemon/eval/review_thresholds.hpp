// eval/review_thresholds.hpp — the thresholds past which an evaluation raises a review flag or
// stops a candidate for its memory, in one place: the evaluator applies them
// (evaluation_timing.cpp, evaluation_calls.cpp) and `kbv prompt` quotes them to authors.
#pragma once

namespace kbv::eval {

// A candidate that keeps more than this share of the device memory that was free when its
// worker was set up is not evaluated further: it would starve the trusted side and the next
// candidate (verdict `resource`).
constexpr double kMaxCandidateMemoryShare = 0.5;

// A candidate faster than this multiple of the best baseline is flagged for review
// (issue #4: "a speedup over 10x the TF32 baseline flagged").
constexpr double kSuspiciousSpeedup = 10.0;

// A candidate whose speedup over the TF32 baseline on the public family is more than this
// multiple of its median speedup on the hidden ones is flagged `faster_on_public_family` for
// review (CUDA): a fast path for the distribution everyone can see. Honest kernels' per-family
// speedups spread by ~5 % on the H200 (the TF32 GEMM baseline 0.337–0.352 ms across families
// against flat wmma and cuBLAS candidates; every honest example's ratio in 0.969–1.001: the GPU
// runner's corpus suite, docs/results/corpus.md), so 1.25 is 5× that spread. Only where the
// public family gates, and so is timed: for relu, uniform01 inputs make the identity a correct
// output, and the family is degenerate.
constexpr double kPublicSpeedupFactor = 1.25;

// Memory beyond inputs and outputs that a candidate may hold above the TF32 baseline before it
// is flagged. The worker's CUDA context allocates lazily at its first launches (module code,
// local-memory pools): about 36 MB for an honest wmma GEMM with no allocation of its own on the
// H200 (`memory.candidate_peak_bytes` of cuda_matmul_square_wmma_tf32), so 64 MiB of slack.
constexpr double kMemorySlackBytes = 64.0 * 1024 * 1024;

}  // namespace kbv::eval
