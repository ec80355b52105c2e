// redteam_alloc_in_create — not a hack: an honest sum_dim1 written against the raw C ABI
// (kbv/plugin.h) whose create() cudaMallocs a 16 MiB workspace that every run() uses for its
// partial sums (in passes of as many rows as fit) and destroy() frees: per-candidate state, as
// an author who needs a cuBLAS handle or a workspace keeps it.
// Expected: pass, no flag; memory.candidate_peak_bytes ≥ 16 MiB (the workspace, allocated
// while the candidate loads, is held through every call).
#include <kbv/plugin.h>

#include <cuda_runtime.h>

#include <string>

#include "split_sum.cuh"

namespace {

constexpr size_t kWorkspaceBytes = size_t{16} << 20;

struct Workspace {
  float* partials = nullptr;
};
Workspace g_workspace;  // the one state object create() hands out (a worker loads one candidate)
const kbv_host_api* g_host = nullptr;

kbv_status fail(kbv_status status, const std::string& why) {
  if (g_host != nullptr && g_host->set_error != nullptr) g_host->set_error(g_host->host_context, why.c_str());
  return status;
}

kbv_status create(const kbv_host_api*, void** state) {
  void* partials = nullptr;
  if (const cudaError_t error = cudaMalloc(&partials, kWorkspaceBytes); error != cudaSuccess)
    return fail(KBV_STATUS_DEVICE_ERROR, std::string("cudaMalloc (workspace): ") + cudaGetErrorString(error));
  g_workspace.partials = static_cast<float*>(partials);
  *state = &g_workspace;
  return KBV_STATUS_OK;
}

kbv_status run(void* state, const kbv_call* call) {
  auto* workspace = static_cast<Workspace*>(state);
  split_sum::Shape shape;
  if (call == nullptr || !split_sum::shape_of(*call, &shape) || shape.inner == 0)
    return fail(KBV_STATUS_INVALID_ARGUMENT, "expected sum_dim1's x [batch, dim1, dim2] and y [batch, 1, dim2]");
  const auto rows_per_pass = static_cast<int64_t>(kWorkspaceBytes / split_sum::scratch_bytes(shape, 1));
  if (rows_per_pass < 1) return fail(KBV_STATUS_UNSUPPORTED, "one row's partial sums do not fit the 16 MiB workspace");
  const cudaError_t error = split_sum::run(static_cast<const float*>(call->inputs[0].data), static_cast<float*>(call->outputs[0].data),
                                           workspace->partials, shape, rows_per_pass, static_cast<cudaStream_t>(call->stream));
  if (error != cudaSuccess) return fail(KBV_STATUS_DEVICE_ERROR, std::string("split sum: ") + cudaGetErrorString(error));
  return KBV_STATUS_OK;
}

void destroy(void* state) {
  auto* workspace = static_cast<Workspace*>(state);
  (void)cudaFree(workspace->partials);
  workspace->partials = nullptr;
}

}  // namespace

extern "C" KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_min, uint32_t host_max, const kbv_host_api* host,
                                                             kbv_plugin_info* info) {
  g_host = host;
  if (host_min > KBV_ABI_VERSION || host_max < KBV_ABI_VERSION) return fail(KBV_STATUS_ABI_MISMATCH, "this candidate speaks ABI 1 only");
  if (info == nullptr || info->struct_size < sizeof(kbv_plugin_info)) return KBV_STATUS_ABI_MISMATCH;
  info->abi_version = KBV_ABI_VERSION;
  info->problem = KBV_PROBLEM;
  info->candidate_name = "redteam_alloc_in_create";
  info->device = KBV_DEVICE_CUDA;
  info->create = &create;
  info->run = &run;
  info->destroy = &destroy;
  return KBV_STATUS_OK;
}
