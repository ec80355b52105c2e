// data/reference_graph.hpp — a resolved problem's graph run on the device in fp64: the trusted
// reference for GPU-sized shapes (the host's graph/run_graph.hpp does the same on the CPU).
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "data/reference_context.hpp"
#include "spec/problem.hpp"

namespace kbv::cuda {

// Runs every node in order on the context's stream. `device_inputs_f64[i]` holds
// numel(problem.input_shapes[i]) doubles in device memory, in the problem's input order;
// `device_outputs_f64[i]` receives output i (numel(problem.output_shapes[i]) doubles).
// Intermediates are stream-ordered allocations freed right after their last reader is
// enqueued. Returns once the work is enqueued (synchronise the stream to wait for it).
// Throws OpError for a graph the device cannot run, CudaError when CUDA or cuBLAS fails.
void run_reference_graph_device(const ResolvedProblem& problem,
                                const std::vector<const double*>& device_inputs_f64,
                                const std::vector<double*>& device_outputs_f64,
                                const ReferenceContext& context);

// The same on `stream`, with a cuBLAS handle created for this call (prefer the overload above
// when running many graphs: creating a handle costs milliseconds).
void run_reference_graph_device(const ResolvedProblem& problem,
                                const std::vector<const double*>& device_inputs_f64,
                                std::vector<double*> device_outputs_f64, cudaStream_t stream);

}  // namespace kbv::cuda
