// baseline/cuda_baseline.hpp — a problem's graph run on the GPU with the library calls PyTorch
// makes (cuBLAS, cuBLASLt, cuDNN) and kbv's own kernels, in TF32 or strict FP32 math: one launch
// per node, except that chains of elementwise nodes run as one fused kernel, as torch.compile
// runs them (baseline/elementwise_groups.hpp), so the library baseline is as hard to beat as
// the faster of eager and compile (issue #13). Intermediates are allocated once at
// construction, reusing freed slots as PyTorch's caching allocator would, so a call allocates
// nothing.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "measure/baseline/math_mode.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

class CudaBaseline {
 public:
  // Prepares every node on the current device: handles, descriptors, algorithm choices
  // (cuDNN convolutions are benchmarked here, which runs GPU work). Throws
  // std::invalid_argument for a graph the CUDA baseline cannot run, std::runtime_error when
  // `mode` is tf32 and NVIDIA_TF32_OVERRIDE=0, CudaError for library failures.
  // `fuse_elementwise` false launches every node on its own, as eager does (for comparisons).
  CudaBaseline(const ResolvedProblem& problem, MathMode mode, bool fuse_elementwise = true);
  ~CudaBaseline();
  CudaBaseline(CudaBaseline&&) noexcept;
  CudaBaseline& operator=(CudaBaseline&&) noexcept;

  // Enqueues the whole graph on `stream`. `inputs` and `outputs` are device buffers in the
  // problem's declaration order, each holding its tensor's elements densely (fp32).
  void run(const std::vector<const float*>& inputs, const std::vector<float*>& outputs,
           cudaStream_t stream);

  // Device memory the baseline holds beyond its inputs and outputs: intermediate slots,
  // the cuBLAS/cuBLASLt workspace and scratch (cuDNN workspace, layernorm partials). This is
  // its memory cost next to a candidate's, since a call allocates nothing more.
  size_t workspace_bytes() const;
  size_t intermediate_bytes() const;

  MathMode math_mode() const;
  // Whether any step could run differently in the other math mode (LibraryContext::
  // mode_may_matter): a library handle, or a step that chose by the mode. False for graphs of
  // kbv kernels alone (elementwise, reductions, norms, pooling), whose TF32 and FP32 baselines
  // are the same program.
  bool depends_on_math_mode() const;
  // One line per launch: the node (nodes, for a fused chain), its op and what runs it.
  std::string describe() const;

  // Where a run's time goes, for benchmarks (not the evaluator's timing): each launch unit's
  // median over `runs` runs of the whole graph on `stream`, from events recorded between units,
  // and the bytes its inputs and output hold (fp32). A unit after the first may find part of its
  // input in L2 (the previous unit just wrote it): for large tensors a small effect.
  struct UnitTime {
    std::string describe;  // its describe() line
    double median_s = 0;
    double bytes = 0;
  };
  std::vector<UnitTime> time_units(const std::vector<const float*>& inputs, const std::vector<float*>& outputs, cudaStream_t stream,
                                   int runs);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kbv::cuda
