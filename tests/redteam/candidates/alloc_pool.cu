// redteam_alloc_pool — not a hack: an honest sum_dim1 whose scratch comes from CUDA's default
// memory pool (cudaMallocFromPoolAsync) and goes back with cudaFreeAsync, both on the call's
// stream: the stream-ordered allocation that PyTorch-style allocators and CUB temp storage use.
// Expected: pass, no flag; memory.candidate_peak_bytes > 0 (CUPTI sees the pool allocation).
#include "redteam_common.cuh"
#include "split_sum.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_alloc_pool")

kbv_status kbv_candidate_run(kbv::Call& call) {
  split_sum::Shape shape;
  if (!split_sum::shape_of(call.raw(), &shape)) {
    kbv::set_error("expected sum_dim1's x [batch, dim1, dim2] and y [batch, 1, dim2]");
    return KBV_STATUS_INVALID_ARGUMENT;
  }
  const cudaStream_t stream = redteam::stream_of(call);
  int device = 0;
  if (kbv_status s = redteam::status_of(cudaGetDevice(&device), "cudaGetDevice"); s != KBV_STATUS_OK) return s;
  cudaMemPool_t pool = nullptr;
  if (kbv_status s = redteam::status_of(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool"); s != KBV_STATUS_OK)
    return s;
  void* scratch = nullptr;
  if (kbv_status s = redteam::status_of(cudaMallocFromPoolAsync(&scratch, split_sum::scratch_bytes(shape, shape.outer), pool, stream),
                                        "cudaMallocFromPoolAsync (default pool)");
      s != KBV_STATUS_OK)
    return s;
  const kbv_status summed = redteam::status_of(
      split_sum::run(call.input(0).data<float>(), call.output(0).data<float>(), static_cast<float*>(scratch), shape, shape.outer, stream),
      "split sum");
  const kbv_status freed = redteam::status_of(cudaFreeAsync(scratch, stream), "cudaFreeAsync");
  return summed != KBV_STATUS_OK ? summed : freed;
}
