// redteam_alloc_in_run — not a hack: an honest sum_dim1 that cudaMallocs its scratch at the
// start of every run() and cudaFrees it at the end, as naive generated kernels do. cudaFree
// waits for the device, so the launch gate times out on the first calls and the worker times
// the rest without it (as for sync_in_run).
// Expected: pass, no flag; memory.candidate_peak_bytes > 0 (CUPTI sees the cudaMalloc);
// environment.launch_gate "off after …".
#include "redteam_common.cuh"
#include "split_sum.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_alloc_in_run")

kbv_status kbv_candidate_run(kbv::Call& call) {
  split_sum::Shape shape;
  if (!split_sum::shape_of(call.raw(), &shape)) {
    kbv::set_error("expected sum_dim1's x [batch, dim1, dim2] and y [batch, 1, dim2]");
    return KBV_STATUS_INVALID_ARGUMENT;
  }
  void* scratch = nullptr;
  if (kbv_status s = redteam::status_of(cudaMalloc(&scratch, split_sum::scratch_bytes(shape, shape.outer)), "cudaMalloc"); s != KBV_STATUS_OK)
    return s;
  const kbv_status summed = redteam::status_of(split_sum::run(call.input(0).data<float>(), call.output(0).data<float>(),
                                                              static_cast<float*>(scratch), shape, shape.outer, redteam::stream_of(call)),
                                               "split sum");
  const kbv_status freed = redteam::status_of(cudaFree(scratch), "cudaFree");  // waits for the kernels that read it
  return summed != KBV_STATUS_OK ? summed : freed;
}
