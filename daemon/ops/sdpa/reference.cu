// daemon/ops/sdpa/reference.cu — sdpa's CUDA fp64 reference: PyTorch's math path in fp64, over
// chunks of batches — a strided-batched cuBLAS Dgemm for scores = q·kᵀ·scale, one block per
// score row for the softmax over the keys the row sees (in place), a second Dgemm for scores·v.
// A chunk's scores take at most kScoreChunkBytes (ops/sdpa/reference.hpp).
#include <algorithm>
#include <cmath>

#include "common/device_buffer.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"
#include "ops/registry.hpp"
#include "ops/sdpa/reference.hpp"
#include "ops/sdpa/sdpa.hpp"
#include "ops/sdpa/sdpa_geometry.hpp"

namespace kbv::ops::sdpa {
namespace {

// Row r of a chunk's [batches·L, S] scores: softmax over its first `keys` columns (all of them,
// or min(r % L + 1, S) when causal), 0 past them.
__global__ void masked_softmax_rows(double* scores, int64_t rows, int64_t l, int64_t s, bool causal) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    double* row = scores + r * s;
    const int64_t causal_keys = r % l + 1;
    const int64_t keys = causal && causal_keys < s ? causal_keys : s;
    double peak = -INFINITY;
    for (int64_t j = threadIdx.x; j < keys; j += blockDim.x) peak = fmax(peak, row[j]);
    peak = reference::block_max(peak);
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < keys; j += blockDim.x) total += exp(row[j] - peak);
    total = reference::block_sum(total);
    for (int64_t j = threadIdx.x; j < s; j += blockDim.x)
      row[j] = j < keys ? exp(row[j] - peak) / total : 0.0;
  }
}

void sdpa_chunked(const ReferenceCall& call, int64_t score_chunk_bytes) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const SdpaGeometry g = sdpa_geometry(call.name(), call.args.input_shapes, call.attrs);
  const int64_t per_batch = g.l * g.s;
  const auto score_bytes = static_cast<int64_t>(per_batch * sizeof(double));
  const int64_t chunk = std::clamp<int64_t>(score_chunk_bytes / score_bytes, 1, g.batch);
  auto scores = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(chunk * per_batch), call.stream);
  for (int64_t first = 0; first < g.batch; first += chunk) {
    const int64_t batches = std::min(chunk, g.batch - first);
    reference::RowMajorGemm qk;  // scores[L, S] = scale · q[L, E] · k[S, E]ᵀ
    qk.m = g.l, qk.n = g.s, qk.k = g.e, qk.batch = batches, qk.alpha = g.scale;
    qk.a = call.input(0) + first * g.l * g.e, qk.lda = g.e, qk.stride_a = g.l * g.e;
    qk.b = call.input(1) + first * g.s * g.e, qk.ldb = g.e, qk.stride_b = g.s * g.e;
    qk.transpose_b = true;
    qk.c = scores.get(), qk.ldc = g.s, qk.stride_c = per_batch;
    reference::gemm_f64(call.context, qk);
    masked_softmax_rows<<<grid_for(batches * g.l, 1), kBlockThreads, 0, call.stream>>>(
        scores.get(), batches * g.l, g.l, g.s, g.causal);
    cuda::check_launch("sdpa softmax kernel");
    reference::RowMajorGemm pv;  // out[L, Ev] = p[L, S] · v[S, Ev]
    pv.m = g.l, pv.n = g.ev, pv.k = g.s, pv.batch = batches;
    pv.a = scores.get(), pv.lda = g.s, pv.stride_a = per_batch;
    pv.b = call.input(2) + first * g.s * g.ev, pv.ldb = g.ev, pv.stride_b = g.s * g.ev;
    pv.c = call.output() + first * g.l * g.ev, pv.ldc = g.ev, pv.stride_c = g.l * g.ev;
    reference::gemm_f64(call.context, pv);
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) { sdpa_chunked(call, kScoreChunkBytes); }

void sdpa_f64_device(const OpArgs<double>& args, const cuda::ReferenceContext& context,
                     int64_t score_chunk_bytes) {
  sdpa_chunked(make_reference_call(*find_op(Definition::name), args, context), score_chunk_bytes);
}

}  // namespace kbv::ops::sdpa
